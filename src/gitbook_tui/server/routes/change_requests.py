"""Routes for change requests: list/create/get/patch, content edits, update and merge (three-way
merge of page trees), semantic changes and PDF export (reviews: :mod:`.reviews`).

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

import secrets
from datetime import timedelta
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request, Response
from pydantic import Field, field_validator, model_validator

from ..change_request_views import (
    cr_json,
    cr_location,
    file_download_url,
)
from ..change_request_views import ensure_active as _ensure_active
from ..change_request_views import ensure_unlocked as _ensure_unlocked
from ..change_request_views import file_json as _file_json
from ..change_request_views import load_cr as _load
from ..change_request_views import page_location as _page_location
from ..change_request_views import revision_contents as _revision_contents
from ..change_request_views import touch as _touch
from ..clock import iso, parse_iso
from ..content_edits import EditEnv, EditError, apply_changes
from ..content_store import (
    create_revision,
    editable_copy,
    find_page,
    get_revision,
    iter_pages,
    page_markdown,
    set_space_revision,
)
from ..context import CtxDep, server_state
from ..errors import ApiError, bad_request, conflict, forbidden, not_found
from ..fetch import fetch_url
from ..merge import conflict_message, merge_revisions, semantic_changes
from ..pagination import PagingParams, paginate
from ..pdf import Section, render_pdf
from ..permissions import require
from ..resources import load_space
from ..schemas import Body
from ..storage import Tx

router = APIRouter(tags=["change-requests"])

Status = Literal["draft", "open", "archived", "merged"]
PDF_LINK_LIFETIME = timedelta(hours=1)


# -- bodies ---------------------------------------------------------------------------------


class DocumentIn(Body):
    """A ``Document``: ``{markdown}`` (or ``{document}``, or ``{}`` for empty)."""

    markdown: str | None = Field(None, max_length=1_000_000)
    document: dict[str, Any] | None = None


class ChangeRequestCreate(Body):
    subject: str | None = Field(None, max_length=100)
    agentTaskId: str | None = Field(None, max_length=256)


class ChangeRequestPatch(Body):
    subject: str | None = Field(None, max_length=100)
    description: dict[str, Any] | None = None
    status: Literal["draft", "open", "archived"] | None = None


def _check_slug(value: str | None) -> str | None:
    if value is not None and (value != value.strip() or "/" in value or " " in value):
        raise ValueError("must not contain '/' or spaces")
    return value


class PageFieldsIn(Body):
    title: str | None = Field(None, min_length=1, max_length=1000)
    slug: str | None = Field(None, max_length=100)
    emoji: str | None = Field(None, max_length=50)
    icon: str | None = Field(None, max_length=50)
    description: str | None = Field(None, max_length=1000)
    hidden: bool | None = None
    noIndex: bool | None = None
    noRobotsIndex: bool | None = None
    condition: str | None = Field(None, max_length=1000)

    _slug = field_validator("slug")(_check_slug)


class UpdatePageChange(PageFieldsIn):
    operation: Literal["update_page"]
    page: str = Field(min_length=1)
    document: DocumentIn | None = None
    into: str | None = None
    at: int | None = Field(None, ge=0)


class InsertPageChange(PageFieldsIn):
    operation: Literal["insert_page"]
    document: DocumentIn
    into: str | None = None
    at: int | None = Field(None, ge=0)
    ref: str | None = Field(None, max_length=256)


class DeletePageChange(Body):
    operation: Literal["delete_page"]
    page: str = Field(min_length=1)


class RevertPageChange(Body):
    operation: Literal["revert_page"]
    page: str = Field(min_length=1)
    revision: str | None = None
    block: list[str] | None = None


class InsertFileSpec(Body):
    ref: str | None = Field(None, max_length=256)
    name: str = Field(min_length=1, max_length=256)
    contentType: str | None = Field(None, max_length=256)
    url: str | None = Field(None, max_length=2048)
    base64: str | None = Field(None, max_length=20_000_000)

    @model_validator(mode="after")
    def _one_source(self) -> InsertFileSpec:
        if (self.url is None) == (self.base64 is None):
            raise ValueError("give exactly one of url or base64")
        return self


class InsertFilesChange(Body):
    operation: Literal["insert_files"]
    files: list[InsertFileSpec] = Field(min_length=1, max_length=20)


ContentChange = Annotated[
    UpdatePageChange | InsertPageChange | DeletePageChange | RevertPageChange | InsertFilesChange,
    Field(discriminator="operation"),
]


class ContentChanges(Body):
    changes: list[ContentChange] = Field(min_length=1, max_length=50)


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
    wanted = set(status or ["open"])
    with ctx.read() as tx:
        space, _ = load_space(tx, ctx, spaceId)
        items = [cr for cr in tx.list("change-request", spaceId) if cr["status"] in wanted]
        if creator:
            items = [cr for cr in items if cr["createdBy"] == creator]
        if contributor:
            items = [
                cr
                for cr in items
                if cr["createdBy"] == contributor or contributor in cr.get("contributors", [])
            ]
        if requestedReviewer:
            items = [
                cr
                for cr in items
                if tx.get("requested-reviewer", f"{cr['id']}:{requestedReviewer}") is not None
            ]
        items.sort(key=lambda cr: (cr.get(orderBy) or "", cr["number"]), reverse=True)
        return paginate(items, paging, lambda cr: cr_json(tx, ctx, space, cr))


@router.post("/spaces/{spaceId}/change-requests", status_code=201)
def create_change_request(
    ctx: CtxDep, spaceId: str, body: ChangeRequestCreate, response: Response
) -> dict[str, Any]:
    with ctx.write() as tx:
        space, role = load_space(tx, ctx, spaceId)
        require(role, "edit", "Space", spaceId)
        _ensure_unlocked(space)
        now, cr_id, rev_id = ctx.now(), ctx.new_id(), ctx.new_id()
        base = get_revision(tx, space["revision"])
        pages, files = editable_copy(base)
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
        space, _, cr = _load(tx, ctx, spaceId, changeRequestId)
        return cr_json(tx, ctx, space, cr)


@router.patch("/spaces/{spaceId}/change-requests/{changeRequestId}")
def patch_change_request(
    ctx: CtxDep, spaceId: str, changeRequestId: str, body: ChangeRequestPatch
) -> dict[str, Any]:
    with ctx.write() as tx:
        space, role, cr = _load(tx, ctx, spaceId, changeRequestId)
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
            cr["description"] = body.description
        _touch(tx, cr, ctx.now())
        return cr_json(tx, ctx, space, cr)


# -- content edits --------------------------------------------------------------------------


@router.post("/spaces/{spaceId}/change-requests/{changeRequestId}/content")
def update_change_request_content(
    ctx: CtxDep,
    spaceId: str,
    changeRequestId: str,
    body: ContentChanges,
    compat: bool = True,
) -> dict[str, Any]:
    """Apply a batch of page changes as ONE new revision of the change request."""
    state = ctx.state
    with ctx.write() as tx:
        space, _, cr = _load(tx, ctx, spaceId, changeRequestId, "edit")
        _ensure_unlocked(space)
        _ensure_active(cr, "edited")
        current = get_revision(tx, cr["revision"])
        pages, files = editable_copy(current)
        now = ctx.now()

        def load_revision(rev_id: str) -> dict[str, Any] | None:
            try:
                return get_revision(tx, rev_id)
            except ApiError:
                return None

        def fetch(url: str) -> tuple[bytes, str]:
            got = fetch_url(url, timeout=state.fetch_timeout, max_bytes=state.fetch_max_bytes)
            return got.body, got.content_type

        env = EditEnv(
            tx=tx,
            now=now,
            new_id=ctx.new_id,
            space_id=spaceId,
            base_revision_id=cr.get("revisionMergedAncestor") or cr["revisionInitial"],
            load_revision=load_revision,
            fetch=fetch,
        )
        changes = [c.model_dump(exclude_unset=True) for c in body.changes]
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
        )
        cr["revision"] = rev_id
        if ctx.user_id not in cr.setdefault("contributors", []):
            cr["contributors"].append(ctx.user_id)
        _touch(tx, cr, now)
        rendered = cr_json(tx, ctx, space, cr)
        if compat:
            return rendered
        affected = []
        for change in outcome.changes:
            if change["object"] == "deleted_page":
                affected.append({"object": "deleted_page", "page": change["page"]})
                continue
            entry: dict[str, Any] = {
                "object": change["object"],
                "page": {
                    "object": "page",
                    "id": change["page"],
                    "urls": {"location": _page_location(ctx, cr, change["page"])},
                },
            }
            if change.get("ref"):
                entry["ref"] = change["ref"]
            affected.append(entry)
        return {
            "changeRequest": rendered,
            "changes": affected,
            "insertedFiles": [_file_json(ctx, f) for f in outcome.inserted_files],
        }


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
        space, _, cr = _load(tx, ctx, spaceId, changeRequestId, "edit")
        _ensure_unlocked(space)
        _ensure_active(cr, "updated")
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
        _touch(tx, cr, now)
        return {"revision": rev_id, "result": "update"}


@router.post("/spaces/{spaceId}/change-requests/{changeRequestId}/merge")
def merge_change_request(ctx: CtxDep, spaceId: str, changeRequestId: str) -> dict[str, Any]:
    """Merge the change request into the space's main content."""
    with ctx.write() as tx:
        space, _, cr = _load(tx, ctx, spaceId, changeRequestId, "edit")
        _ensure_unlocked(space)
        _ensure_active(cr, "merged")
        main_id = space["revision"]
        if main_id == (cr.get("revisionMergedAncestor") or cr["revisionInitial"]):
            content = _revision_contents(get_revision(tx, cr["revision"]))
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
        _touch(tx, cr, now)
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
        _, _, cr = _load(tx, ctx, spaceId, changeRequestId)
        before = get_revision(tx, cr.get("revisionMergedAncestor") or cr["revisionInitial"])
        after = get_revision(tx, cr["revision"])
        changes = semantic_changes(before, after, lambda f: file_download_url(ctx, f))
        body: dict[str, Any] = {"changes": changes[:limit]}
        if len(changes) > limit:
            body["more"] = len(changes) - limit
        return body


# -- PDF --------------------------------------------------------------------------------------


@router.get("/spaces/{spaceId}/change-requests/{changeRequestId}/pdf")
def get_change_request_pdf(
    ctx: CtxDep,
    spaceId: str,
    changeRequestId: str,
    only: bool = False,
    page: Annotated[str | None, Query(max_length=256)] = None,
) -> dict[str, Any]:
    """A temporary (1 h) URL of a PDF of the change request's content."""
    with ctx.write() as tx:
        _, _, cr = _load(tx, ctx, spaceId, changeRequestId)
        if only and not page:
            raise bad_request("page: required when only is true")
        revision = get_revision(tx, cr["revision"])
        if page and find_page(revision["pages"], page) is None:
            raise bad_request(f"page: page '{page}' does not exist in the change request")
        token = secrets.token_urlsafe(24)
        expires = ctx.state.clock.now() + PDF_LINK_LIFETIME
        tx.put(
            "pdf-link",
            token,
            {
                "space": spaceId,
                "changeRequest": cr["id"],
                "revision": cr["revision"],
                "page": page,
                "only": only,
                "createdBy": ctx.user_id,
                "expiresAt": iso(expires),
            },
            scope=cr["id"],
        )
        url = f"{ctx.api}/spaces/{spaceId}/change-requests/{cr['id']}/pdf/file?token={token}"
        return {"url": url}


def _pdf_sections(
    tx: Tx, pages: list[dict[str, Any]], page: str | None, only: bool
) -> list[Section]:
    nodes = pages
    if page:
        found = find_page(pages, page)
        if found is None:
            return []
        nodes = [found[0] if not only else {**found[0], "pages": []}]
    sections = []
    for node, path, _ in iter_pages(nodes):
        if node.get("type") == "link":
            continue
        level = path.count("/")
        text = page_markdown(tx, node) if node.get("type", "document") == "document" else ""
        sections.append(Section(node.get("title") or "Untitled", text, level))
    return sections


@router.get("/spaces/{spaceId}/change-requests/{changeRequestId}/pdf/file")
def download_change_request_pdf(
    request: Request,
    spaceId: str,
    changeRequestId: str,
    token: Annotated[str, Query(min_length=1, max_length=256)],
) -> Response:
    """The PDF itself; the URL's token stands for the Bearer token (valid 1 hour)."""
    state = server_state(request)
    with state.storage.read() as tx:
        link = tx.get("pdf-link", token)
        if link is None or link["space"] != spaceId or link["changeRequest"] != changeRequestId:
            raise not_found("PDF", changeRequestId)
        if parse_iso(link["expiresAt"]) < state.clock.now():
            raise forbidden("This PDF link has expired; ask for a new one.")
        cr = tx.get("change-request", link["changeRequest"])
        space = tx.get("space", spaceId)
        if cr is None or space is None:
            raise not_found("Change request", changeRequestId)
        revision = get_revision(tx, link["revision"])
        sections = _pdf_sections(tx, revision["pages"], link.get("page"), bool(link.get("only")))
        title = f"{space.get('title', '')} — #{cr['number']} {cr.get('subject') or ''}".strip()
    data = render_pdf(sections, title=title)
    return Response(
        data,
        media_type="application/pdf",
        headers={"Content-Disposition": f'inline; filename="change-request-{cr["number"]}.pdf"'},
    )
