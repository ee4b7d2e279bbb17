"""Routes importing content into a space or a change request: a web page or a Git Sync folder."""

from __future__ import annotations

from typing import Literal
from urllib.parse import urlparse

from fastapi import APIRouter
from fastapi.responses import Response
from pydantic import Field, field_validator

from ..content.views import json_response, load_target, require_edit
from ..core.context import Ctx, CtxDep
from ..core.errors import ApiError
from ..core.schemas import Body
from ..core.url_guard import require_fetchable
from ..importers import gitsync

router = APIRouter(tags=["content"])

CR = "/spaces/{spaceId}/change-requests/{changeRequestId}"

# `website`/`file` take a page or a Git Sync folder (detected); `markdown`/`html` force the
# page format; the git sources need a Git Sync folder (file:// under an operator-allowed
# import root, or http from an operator-allowed host). The URL policy is :mod:`..core.url_guard`.
ImportSource = Literal[
    "website", "file", "markdown", "html", "github", "gitlab", "git-sync", "gitbook"
]
FOLDER_SOURCES = ("github", "gitlab", "git-sync", "gitbook")


class ImportBody(Body):
    url: str = Field(max_length=2048)
    source: ImportSource

    @field_validator("url")
    @classmethod
    def _check_url(cls, value: str) -> str:
        parsed = urlparse(value.strip())
        if parsed.scheme in ("http", "https") and parsed.netloc:
            return value.strip()
        if parsed.scheme == "file" and parsed.path:
            return value.strip()
        raise ValueError("must be an http(s) or file:// URL")


def _fetch_import(ctx: Ctx, body: ImportBody) -> gitsync.Tree | gitsync.WebPage:
    """Network/disk work of an import, done outside any transaction."""
    timeout, max_bytes = ctx.state.fetch_timeout, ctx.state.fetch_max_bytes
    policy = ctx.state.fetch_policy
    if body.source in ("website", "file", *FOLDER_SOURCES):
        tree = gitsync.fetch_git_sync(
            body.url,
            timeout=timeout,
            max_bytes=max_bytes,
            new_id=ctx.new_id,
            now=ctx.now(),
            policy=policy,
        )
        if tree is not None:
            return tree
        if body.source in FOLDER_SOURCES:
            raise gitsync.ContentImportError(
                f"{body.url}: not a Git Sync folder (a file:// folder under an allowed import "
                "root, or an http URL of an allowed fetch host, serving .gitbook.yaml or "
                "SUMMARY.md)"
            )
    return gitsync.fetch_web_page(
        body.url, timeout=timeout, max_bytes=max_bytes, source=body.source, policy=policy
    )


def run_import(ctx: Ctx, body: ImportBody, **where: str | None) -> Response:
    with ctx.read() as tx:
        require_edit(load_target(tx, ctx, **where))  # type: ignore[arg-type]
    require_fetchable(body.url, ctx.state.fetch_policy)
    try:
        plan = _fetch_import(ctx, body)
    except gitsync.ContentImportError as exc:
        raise ApiError(exc.status, exc.message) from exc
    with ctx.write() as tx:
        target = load_target(tx, ctx, **where)  # type: ignore[arg-type]
        require_edit(target)
        if isinstance(plan, gitsync.Tree):
            result = gitsync.apply_tree(
                tx, ctx, target.space, plan, change_request=target.change_request
            )
        else:
            result = gitsync.apply_web_page(
                tx, ctx, target.space, plan, change_request=target.change_request
            )
    return json_response(result, status_code=201)


@router.post("/spaces/{spaceId}/content/import", status_code=201)
def import_space_content(ctx: CtxDep, spaceId: str, body: ImportBody) -> Response:
    return run_import(ctx, body, space_id=spaceId)


@router.post(CR + "/content/import", status_code=201)
def import_change_request_content(
    ctx: CtxDep, spaceId: str, changeRequestId: str, body: ImportBody
) -> Response:
    return run_import(ctx, body, space_id=spaceId, change_request_id=changeRequestId)
