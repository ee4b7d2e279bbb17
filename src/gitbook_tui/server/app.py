"""The local workspace server's FastAPI application factory."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.responses import Response

from .core.clock import Clock
from .core.context import ServerState
from .core.errors import install_error_handlers, not_found
from .core.faults import Faults, parse_faults
from .core.middleware import ServiceMiddleware
from .core.storage import Storage
from .routes import (
    access,
    change_request_pdf,
    change_requests,
    collections,
    comments,
    content,
    content_import,
    integrations,
    openapi_specs,
    org_admin,
    org_change_requests,
    orgs,
    reviews,
    search,
    site_structure,
    sites,
    spaces,
    users,
)

# One module per resource family under ``server/routes``; each exposes ``router``. The order
# is the order of the OpenAPI document's paths.
ROUTE_MODULES = (
    users,
    orgs,
    collections,
    spaces,
    access,
    content,
    content_import,
    search,
    change_requests,
    org_change_requests,
    change_request_pdf,
    reviews,
    comments,
    sites,
    site_structure,
    integrations,
    openapi_specs,
    org_admin,
)


def create_app(
    db: str | Path | Storage,
    *,
    clock: Clock | None = None,
    faults: Faults | str | None = None,
    id_seed: int | None = None,
    fetch_timeout: float = 10.0,
    fetch_max_bytes: int = 5 * 1024 * 1024,
) -> FastAPI:
    """Build the app over a database file (created if missing, opened as is otherwise)."""
    storage = db if isinstance(db, Storage) else Storage(db, id_seed=id_seed)
    state = ServerState(
        storage=storage,
        clock=clock or Clock(),
        fetch_timeout=fetch_timeout,
        fetch_max_bytes=fetch_max_bytes,
    )
    app = FastAPI(
        title="gitbook-tui local workspace server",
        version="1",
        description="The GitBook v1 workspace API, served locally on SQLite.",
        docs_url=None,
        redoc_url=None,
        openapi_url="/openapi.json",
    )
    app.state.server = state
    install_error_handlers(app)
    for module in ROUTE_MODULES:
        app.include_router(module.router, prefix="/v1")

    @app.get("/files/{digest}/{name}", include_in_schema=False)
    def download_file(digest: str, name: str) -> Response:
        with storage.read() as tx:
            data = tx.get_blob(digest)
            meta: dict[str, Any] | None = tx.get("file-blob", digest)
        if data is None:
            raise not_found("File", name)
        media = (meta or {}).get("contentType", "application/octet-stream")
        return Response(data, media_type=media)

    parsed = parse_faults(faults) if isinstance(faults, str) or faults is None else faults
    app.add_middleware(ServiceMiddleware, faults=parsed)  # type: ignore[arg-type]
    return app


def server_storage(app: FastAPI) -> Storage:
    return app.state.server.storage  # type: ignore[no-any-return]


def server_clock(app: FastAPI) -> Clock:
    return app.state.server.clock  # type: ignore[no-any-return]
