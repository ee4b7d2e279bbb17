"""Routes of a space's history: one revision (its parents, type, merged change request, Git
commit) and the semantic changes it made against its first parent."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import Response

from ..change_requests.views import cr_json, file_download_url
from ..content.revision_changes import revision_changes
from ..content.store import get_revision
from ..content.views import ReadOpts, load_target, raw_response, revision_json
from ..core.context import Ctx, CtxDep, quick_read

router = APIRouter(tags=["content"])

REVISION = "/spaces/{spaceId}/revisions/{revisionId}"


@router.get(REVISION)
async def get_revision_by_id(
    ctx: CtxDep, spaceId: str, revisionId: str, opts: ReadOpts
) -> Response:
    """A revision of the space with its page tree; a merge names the change request it
    merged (``mergedFrom``), a Git Sync import its commit (``git``)."""

    def read() -> Response:
        with ctx.read() as tx:
            target = load_target(tx, ctx, space_id=spaceId, revision_id=revisionId)
            space = target.space
            return raw_response(
                revision_json(tx, ctx, target, opts, lambda cr: cr_json(tx, ctx, space, cr))
            )

    return await quick_read(ctx, read)


@router.get(REVISION + "/changes")
async def get_revision_changes(
    ctx: CtxDep,
    spaceId: str,
    revisionId: str,
    limit: Annotated[int, Query(ge=0, le=1000)] = 10,
) -> dict[str, Any]:
    """Pages, files, reusable contents and variables the revision changed against its first
    parent (a merge: what the change request brought), the first ``limit`` of them and how
    many more (``more``)."""
    return await quick_read(ctx, lambda: _changes(ctx, spaceId, revisionId, limit))


def _changes(ctx: Ctx, spaceId: str, revisionId: str, limit: int) -> dict[str, Any]:
    with ctx.read() as tx:
        target = load_target(tx, ctx, space_id=spaceId, revision_id=revisionId)
        revision = target.revision
        parents = revision.get("parents") or []
        parent = get_revision(tx, parents[0]) if parents else None
        changes = revision_changes(revision, parent, lambda f: file_download_url(ctx, f))
        body: dict[str, Any] = {"changes": changes[:limit]}
        if len(changes) > limit:
            body["more"] = len(changes) - limit
        if revision.get("type") == "merge" and revision.get("changeRequest"):
            cr = tx.get("change-request", revision["changeRequest"])
            if cr is not None:
                body["mergedFrom"] = cr_json(tx, ctx, target.space, cr)
        return body
