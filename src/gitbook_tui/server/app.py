"""The local workspace server's FastAPI application factory."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Query, Request
from fastapi.responses import Response
from fastapi.routing import APIRoute
from starlette.routing import BaseRoute

from .content.file_access import caller_of, user_can_read_blob
from .content.views import plain_read_options
from .core.clock import Clock
from .core.context import ServerState, bearer_token
from .core.direct_reads import DirectReads, RoutePath
from .core.errors import forbidden, install_error_handlers, not_found, unauthorized
from .core.faults import Faults, parse_faults
from .core.file_links import ensure_secret, link_problem
from .core.middleware import ServiceMiddleware
from .core.storage import Storage
from .core.url_guard import FetchPolicy
from .routes import (
    access,
    change_request_pdf,
    change_requests,
    collections,
    comments,
    content,
    content_import,
    integration_installations,
    integrations,
    openapi_specs,
    org_admin,
    org_change_requests,
    org_members,
    orgs,
    reviews,
    revisions,
    search,
    site_redirects,
    site_section_groups,
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
    revisions,
    search,
    change_requests,
    org_change_requests,
    change_request_pdf,
    reviews,
    comments,
    sites,
    site_structure,
    site_section_groups,
    site_redirects,
    integrations,
    integration_installations,
    openapi_specs,
    org_admin,
    org_members,
)


MATCHED_FIRST = (revisions, content)
"""Routers tried first: a request is matched against each router's routes in turn (~7 µs
a route), and these serve the reads that come by the hundred (a blame, the history log:
63 routes were tried before a revision's). No path of theirs can be matched by a route of
the routers they now pass (tests/server/test_route_order.py), so no request goes
elsewhere; the OpenAPI document keeps the order of ``ROUTE_MODULES``."""


DIRECT_READS = {
    revisions.get_revision_by_id: plain_read_options,
    content.get_revision_page: plain_read_options,
}
"""Reads a blame makes by the hundred (two a revision), answered past FastAPI's routing and
dependency solving (:class:`DirectReads`: same caller check, same endpoint and answer)."""


def _matching_order() -> tuple[ModuleType, ...]:
    return MATCHED_FIRST + tuple(m for m in ROUTE_MODULES if m not in MATCHED_FIRST)


@functools.cache
def _api_route_paths() -> tuple[RoutePath, ...]:
    """The /v1 routes in the order they are matched in (all of them FastAPI routes: another
    kind, a mount, would match paths :class:`DirectReads` does not see it match)."""
    paths = []
    for module in _matching_order():
        for route in module.router.routes:
            if not isinstance(route, APIRoute):
                raise TypeError(f"{module.__name__}: {route!r} is not an APIRoute")
            paths.append(
                RoutePath("/v1" + route.path, frozenset(route.methods or ()), route.endpoint)
            )
    return tuple(paths)


@functools.cache
def _api_routes() -> tuple[BaseRoute, ...]:
    """The /v1 routes, made once per process and shared by every app: FastAPI prepares an
    included route (its parameters' validators) on the first request that reaches its
    router, ~10 ms a route, and keeps the result on the route object. Shared, a process
    that builds many apps (tests, ``serve`` restarts) pays that once, not per app. The
    routes hold no app state: handlers reach the app's through the request."""
    api = APIRouter()
    for module in _matching_order():
        api.include_router(module.router, prefix="/v1")
    return tuple(api.routes)


@functools.cache
def _documented_order() -> dict[str, int]:
    """Each /v1 path's place in the OpenAPI document: the order of ``ROUTE_MODULES``."""
    paths = (
        "/v1" + route.path_format  # type: ignore[attr-defined]  # (APIRoute)
        for module in ROUTE_MODULES
        for route in module.router.routes
    )
    return {path: place for place, path in enumerate(dict.fromkeys(paths))}


def _document_in_module_order(app: FastAPI) -> None:
    """The app's OpenAPI document lists its paths in the order of ``ROUTE_MODULES``, not
    the order routes are matched in (FastAPI's documented way: replace ``app.openapi``)."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        schema = generate()
        order = _documented_order()
        paths: dict[str, Any] = schema.get("paths", {})
        ordered = sorted(paths, key=lambda path: order.get(path, len(order)))
        if list(paths) != ordered:
            schema["paths"] = {path: paths[path] for path in ordered}
        return schema

    app.openapi = openapi  # type: ignore[method-assign]


def create_app(
    db: str | Path | Storage,
    *,
    clock: Clock | None = None,
    faults: Faults | str | None = None,
    id_seed: int | None = None,
    fetch_timeout: float = 10.0,
    fetch_max_bytes: int = 5 * 1024 * 1024,
    allow_import_roots: Iterable[str | Path] = (),
    allow_fetch_hosts: Iterable[str] = (),
) -> FastAPI:
    """Build the app over a database file (created if missing, opened as is otherwise).

    ``allow_import_roots`` are the folders API imports may read as file:// URLs and
    ``allow_fetch_hosts`` (``HOST[:PORT]``) the hosts exempt from the private-address
    check of outbound fetches: the operator's ``serve`` flags (see :mod:`.core.url_guard`).
    """
    storage = db if isinstance(db, Storage) else Storage(db, id_seed=id_seed)
    state = ServerState(
        storage=storage,
        clock=clock or Clock(),
        fetch_timeout=fetch_timeout,
        fetch_max_bytes=fetch_max_bytes,
        fetch_policy=FetchPolicy.build(allow_import_roots, allow_fetch_hosts),
        file_secret=ensure_secret(storage),
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
    app.router.routes.extend(_api_routes())
    _document_in_module_order(app)

    @app.get("/files/{digest}/{name}", include_in_schema=False)
    def download_file(
        request: Request,
        digest: str,
        name: str,
        expires: Annotated[str | None, Query(max_length=20)] = None,
        signature: Annotated[str | None, Query(max_length=128)] = None,
    ) -> Response:
        # A signed link from the API (works without the token), or the token of a user
        # who can read a space holding the file; see :mod:`.core.file_links`.
        if expires is not None or signature is not None:
            problem = link_problem(
                state.file_secret,
                digest,
                expires or "",
                signature or "",
                state.clock.now().timestamp(),
            )
            if problem is not None:
                raise forbidden(problem)
            readable = True
        else:
            token = bearer_token(request)
            if token is None:
                raise unauthorized(
                    "Downloads need the token (Authorization: Bearer …) or the signed "
                    "downloadURL the API gives for the file."
                )
            with storage.read() as tx:
                user = caller_of(tx, token)
                if user is None:
                    raise unauthorized("The access token is not valid.")
                readable = user_can_read_blob(tx, user["id"], digest)
        if not readable:
            raise not_found("File", name)
        with storage.read() as tx:
            data = tx.get_blob(digest)
            meta: dict[str, Any] | None = tx.get("file-blob", digest)
        if data is None:
            raise not_found("File", name)
        media = (meta or {}).get("contentType", "application/octet-stream")
        return Response(data, media_type=media)

    parsed = parse_faults(faults) if isinstance(faults, str) or faults is None else faults
    # inside the service middleware: direct reads count against the rate limit, meet the
    # injected faults, and get their ETag like every other answer
    app.add_middleware(DirectReads, routes=_api_route_paths(), direct=DIRECT_READS)  # type: ignore[arg-type]
    app.add_middleware(ServiceMiddleware, faults=parsed)  # type: ignore[arg-type]
    return app


def server_storage(app: FastAPI) -> Storage:
    return app.state.server.storage  # type: ignore[no-any-return]


def server_clock(app: FastAPI) -> Clock:
    return app.state.server.clock  # type: ignore[no-any-return]
