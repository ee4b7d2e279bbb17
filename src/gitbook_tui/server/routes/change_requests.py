"""Routes for change requests: list/create/get/patch, content edits, update and merge (three-way
merge of page trees) and semantic changes (reviews: :mod:`.reviews`, PDF export:
:mod:`.change_request_pdf`).

Stored change request (kind ``change-request``, scope = space id)::

    {id, number, space, status, subject, description, createdBy, createdAt, updatedAt,
     revision, revisionInitial, revisionMergedAncestor, revisionMerged, mergedAt, mergedBy,
     contributors: [user ids], agentTaskId}

Status rules: a new change request is a ``draft`` (the openapi describes it as a draft working
copy); requesting reviewers moves a draft to ``open``; PATCH moves between draft/open/archived;
merge sets ``merged``, after which the status never changes again. Content edits, update and
merge need the ``edit`` role and an unlocked space, and refuse merged or archived change
requests (409).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Response

from ..change_requests.listing import CrFilters, filter_change_requests
from ..change_requests.schemas import (
    ChangeRequestCreate,
    ChangeRequestPatch,
    ContentChanges,
)
from ..change_requests.views import (
    content_update_json,
    cr_json,
    cr_location,
    description_document,
    ensure_active,
    ensure_merge_rules,
    ensure_unlocked,
    file_download_url,
    load_cr,
    revision_contents,
    touch,
)
from ..content.edits import EditEnv, EditError, apply_changes
from ..content.merge.common import conflict_message
from ..content.merge.revisions import merge_revisions
from ..content.revision_changes import semantic_changes
from ..content.space_revision import set_space_revision
from ..content.store import (
    create_revision,
    get_revision,
    shared_copy,
)
from ..core.context import CtxDep, ServerState
from ..core.errors import ApiError, bad_request, conflict
from ..core.fetch import fetch_url
from ..core.pagination import PagingParams, paginate
from ..core.permissions import require
from ..core.resources import load_space
from ..core.storage import Tx

router = APIRouter(tags=["change-requests"])

Status = Literal["draft", "open", "archived", "merged"]


# -- list, create, get, patch ---------------------------------------------------------------


@router.get("/spaces/{spaceId}/change-requests")
def list_change_requests(
    ctx: CtxDep,
    spaceId: str,
    paging: PagingParams,
    status: Annotated[list[Status] | None, Query()] = None,
    creator: Annotated[str | None, Query(max_length=256)] = None,
    contributor: Annotated[str | None, Query(max_length=256)] = None,
    requestedReviewer: Annotated[str | None, Query(max_length=256)] = None,
    orderBy: Literal["updatedAt", "createdAt"] = "updatedAt",
) -> dict[str, Any]:
    """Change requests of the space (status default ``open``), newest first."""
    filters = CrFilters(
        status=frozenset(status or ["open"]),
        creator=creator,
        contributor=contributor,
        requested_reviewer=requestedReviewer,
        order_by=orderBy,
    )
    with ctx.read() as tx:
        space, _ = load_space(tx, ctx, spaceId)
        items = filter_change_requests(
            tx, space["organization"], tx.list("change-request", spaceId), filters
        )
        return paginate(items, paging, lambda cr: cr_json(tx, ctx, space, cr))


@router.post("/spaces/{spaceId}/change-requests", status_code=201)
def create_change_request(
    ctx: CtxDep, spaceId: str, response: Response, body: ChangeRequestCreate | None = None
) -> dict[str, Any]:
    body = body or ChangeRequestCreate()  # every field is optional
    with ctx.write() as tx:
        space, role = load_space(tx, ctx, spaceId)
        require(role, "edit", "Space", spaceId)
        ensure_unlocked(space)
        now, cr_id, rev_id = ctx.now(), ctx.new_id(), ctx.new_id()
        base = get_revision(tx, space["revision"])
        pages, files = shared_copy(base)
        create_revision(
            tx,
            revision_id=rev_id,
            space_id=spaceId,
            parents=[base["id"]],
            pages=pages,
            files=files,
            type="edits",
            created_at=now,
            created_by=ctx.user_id,
            change_request=cr_id,
            variables=dict(base.get("variables") or {}),
            cache=True,  # read again by the next edit
        )
        cr = {
            "id": cr_id,
            "number": tx.next_number(f"cr:{spaceId}"),
            "space": spaceId,
            "status": "draft",
            "subject": body.subject or "",
            "description": None,
            "createdBy": ctx.user_id,
            "createdAt": now,
            "updatedAt": now,
            "revision": rev_id,
            "revisionInitial": base["id"],
            "revisionMergedAncestor": base["id"],
            "revisionMerged": None,
            "mergedAt": None,
            "mergedBy": None,
            "contributors": [],
            "agentTaskId": body.agentTaskId,
        }
        tx.put("change-request", cr_id, cr, scope=spaceId)
        response.headers["Location"] = cr_location(ctx, cr)
        return cr_json(tx, ctx, space, cr)


@router.get("/spaces/{spaceId}/change-requests/{changeRequestId}")
def get_change_request(ctx: CtxDep, spaceId: str, changeRequestId: str) -> dict[str, Any]:
    with ctx.read() as tx:
        space, _, cr = load_cr(tx, ctx, spaceId, changeRequestId)
        return cr_json(tx, ctx, space, cr)


@router.patch("/spaces/{spaceId}/change-requests/{changeRequestId}")
def patch_change_request(
    ctx: CtxDep, spaceId: str, changeRequestId: str, body: ChangeRequestPatch
) -> dict[str, Any]:
    with ctx.write() as tx:
        space, role, cr = load_cr(tx, ctx, spaceId, changeRequestId)
        if cr["createdBy"] != ctx.user_id:
            require(role, "edit", "Space", spaceId)
        fields = body.model_fields_set
        if "status" in fields and body.status is None:
            raise bad_request("status: must be one of draft, open, archived")
        if body.status is not None and body.status != cr["status"]:
            if cr["status"] == "merged":
                raise conflict(
                    f"Change request #{cr['number']} is merged; its status cannot change."
                )
            cr["status"] = body.status
        if "subject" in fields:
            cr["subject"] = body.subject or ""
        if "description" in fields:
            cr["description"] = description_document(body.description)
        touch(tx, cr, ctx.now())
        return cr_json(tx, ctx, space, cr)


# -- content edits --------------------------------------------------------------------------


def _download_files(
    state: ServerState, changes: list[dict[str, Any]]
) -> dict[str, tuple[bytes, str] | Exception]:
    """Every file URL of the batch's ``insert_files`` downloaded (body and content type), or
    the error that stopped it (reported by the edit that names the URL, in batch order)."""
    downloads: dict[str, tuple[bytes, str] | Exception] = {}
    for change in changes:
        if change.get("operation") != "insert_files":
            continue
        for spec in change.get("files") or []:
            url = spec.get("url")
            if spec.get("base64") is not None or not url or url in downloads:
                continue
            try:
                got = fetch_url(
                    url,
                    timeout=state.fetch_timeout,
                    max_bytes=state.fetch_max_bytes,
                    policy=state.fetch_policy,
                )
            except Exception as exc:  # reported as "could not download the file" in order
                downloads[url] = exc
            else:
                downloads[url] = (got.body, got.content_type)
    return downloads


@router.post("/spaces/{spaceId}/change-requests/{changeRequestId}/content")
def update_change_request_content(
    ctx: CtxDep,
    spaceId: str,
    changeRequestId: str,
    body: ContentChanges,
    compat: bool = True,
) -> dict[str, Any]:
    """Apply a batch of page changes as ONE new revision of the change request.

    Files given by URL are downloaded first, outside the write transaction (a slow remote
    must not hold the database's write lock): after a read that checks the caller may
    edit, so no one else makes the server fetch anything."""
    state = ctx.state
    changes = [c.model_dump(exclude_unset=True) for c in body.changes]
    with ctx.read() as tx:
        space, _, cr = load_cr(tx, ctx, spaceId, changeRequestId, "edit")
        ensure_unlocked(space)
        ensure_active(cr, "edited")
    downloads = _download_files(state, changes)
    with ctx.write() as tx:
        space, _, cr = load_cr(tx, ctx, spaceId, changeRequestId, "edit")
        ensure_unlocked(space)
        ensure_active(cr, "edited")
        current = get_revision(tx, cr["revision"])
        pages, files = shared_copy(current)
        now = ctx.now()

        def load_revision(rev_id: str) -> dict[str, Any] | None:
            try:
                return get_revision(tx, rev_id)
            except ApiError:
                return None

        def fetch(url: str) -> tuple[bytes, str]:
            got = downloads[url]
            if isinstance(got, Exception):
                raise got
            return got

        env = EditEnv(
            tx=tx,
            now=now,
            new_id=ctx.new_id,
            space_id=spaceId,
            base_revision_id=cr.get("revisionMergedAncestor") or cr["revisionInitial"],
            load_revision=load_revision,
            fetch=fetch,
        )
        try:
            outcome = apply_changes(env, pages, files, changes)
        except EditError as exc:
            raise bad_request(exc.message) from exc
        rev_id = ctx.new_id()
        create_revision(
            tx,
            revision_id=rev_id,
            space_id=spaceId,
            parents=[cr["revision"]],
            pages=pages,
            files=files,
            type="edits",
            created_at=now,
            created_by=ctx.user_id,
            change_request=cr["id"],
            variables=dict(current.get("variables") or {}),
            cache=True,  # read again by the next edit
        )
        cr["revision"] = rev_id
        if ctx.user_id not in cr.setdefault("contributors", []):
            cr["contributors"].append(ctx.user_id)
        touch(tx, cr, now)
        rendered = cr_json(tx, ctx, space, cr)
        if compat:
            return rendered
        return content_update_json(ctx, cr, rendered, outcome.changes, outcome.inserted_files)


# -- update and merge ---------------------------------------------------------------------------


def _merged_content(tx: Tx, cr: dict[str, Any], main_revision_id: str, verb: str) -> dict[str, Any]:
    """Three-way merge of base (``revisionMergedAncestor``), ours (CR) and theirs (main)."""
    base = get_revision(tx, cr.get("revisionMergedAncestor") or cr["revisionInitial"])
    ours = get_revision(tx, cr["revision"])
    theirs = get_revision(tx, main_revision_id)
    result = merge_revisions(base, ours, theirs)
    if result.conflicts:
        raise conflict(
            f"Cannot {verb} change request #{cr['number']}: "
            + conflict_message(result.conflicts)
            + ". Nothing was changed."
        )
    return {"pages": result.pages, "files": result.files, "variables": result.variables}


@router.post("/spaces/{spaceId}/change-requests/{changeRequestId}/update")
def update_change_request(ctx: CtxDep, spaceId: str, changeRequestId: str) -> dict[str, Any]:
    """Bring the space's main content into the change request."""
    with ctx.write() as tx:
        space, _, cr = load_cr(tx, ctx, spaceId, changeRequestId, "edit")
        ensure_unlocked(space)
        ensure_active(cr, "updated")
        main_id = space["revision"]
        if main_id == (cr.get("revisionMergedAncestor") or cr["revisionInitial"]):
            return {"revision": cr["revision"], "result": "update"}
        content = _merged_content(tx, cr, main_id, "update")
        now, rev_id = ctx.now(), ctx.new_id()
        create_revision(
            tx,
            revision_id=rev_id,
            space_id=spaceId,
            parents=[cr["revision"], main_id],
            type="update",
            created_at=now,
            created_by=ctx.user_id,
            change_request=cr["id"],
            **content,
        )
        cr["revision"] = rev_id
        cr["revisionMergedAncestor"] = main_id
        touch(tx, cr, now)
        return {"revision": rev_id, "result": "update"}


@router.post("/spaces/{spaceId}/change-requests/{changeRequestId}/merge")
def merge_change_request(ctx: CtxDep, spaceId: str, changeRequestId: str) -> dict[str, Any]:
    """Merge the change request into the space's main content."""
    with ctx.write() as tx:
        space, _, cr = load_cr(tx, ctx, spaceId, changeRequestId, "edit")
        ensure_unlocked(space)
        ensure_active(cr, "merged")
        ensure_merge_rules(tx, ctx, space, cr)
        main_id = space["revision"]
        if main_id == (cr.get("revisionMergedAncestor") or cr["revisionInitial"]):
            content = revision_contents(get_revision(tx, cr["revision"]))
        else:
            content = _merged_content(tx, cr, main_id, "merge")
        now, rev_id = ctx.now(), ctx.new_id()
        create_revision(
            tx,
            revision_id=rev_id,
            space_id=spaceId,
            parents=[main_id, cr["revision"]],
            type="merge",
            created_at=now,
            created_by=ctx.user_id,
            change_request=cr["id"],
            **content,
        )
        set_space_revision(tx, space, rev_id, now)
        cr.update(
            {"status": "merged", "revisionMerged": rev_id, "mergedAt": now, "mergedBy": ctx.user_id}
        )
        touch(tx, cr, now)
        return {"revision": rev_id, "result": "merge"}


# -- semantic changes -------------------------------------------------------------------------


@router.get("/spaces/{spaceId}/change-requests/{changeRequestId}/changes")
def get_change_request_changes(
    ctx: CtxDep,
    spaceId: str,
    changeRequestId: str,
    limit: Annotated[int, Query(ge=0, le=1000)] = 10,
) -> dict[str, Any]:
    """Pages/files created, edited, moved or deleted in the change request against its base."""
    with ctx.read() as tx:
        _, _, cr = load_cr(tx, ctx, spaceId, changeRequestId)
        before = get_revision(tx, cr.get("revisionMergedAncestor") or cr["revisionInitial"])
        after = get_revision(tx, cr["revision"])
        changes = semantic_changes(before, after, lambda f: file_download_url(ctx, f))
        body: dict[str, Any] = {"changes": changes[:limit]}
        if len(changes) > limit:
            body["more"] = len(changes) - limit
        return body
