"""Routes for spaces: create, read, update, delete/restore, duplicate, move, transfer."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Response
from pydantic import Field

from ..clock import parse_iso
from ..content_store import create_revision, editable_copy, get_revision, set_space_revision
from ..context import Ctx, CtxDep
from ..errors import ApiError, bad_request, conflict, forbidden, not_found
from ..pagination import PagingParams, paginate
from ..permissions import at_least, collection_role, org_role, require, space_role
from ..resources import load_collection, load_org, load_space, space_json
from ..schemas import Body, Position, PositionTarget, Role
from ..storage import Tx

router = APIRouter(tags=["spaces"])

Visibility = Literal["public", "unlisted", "share-link", "visitor-auth", "in-collection", "private"]


class SpaceCreate(Body):
    title: str | None = Field(None, max_length=50)
    emoji: str | None = Field(None, max_length=50)
    visibility: Visibility | None = None
    parent: str | None = None


def root_scope(org_id: str) -> str:
    return f"org:{org_id}"


def new_space(
    tx: Tx,
    ctx: Ctx,
    *,
    org_id: str,
    title: str,
    emoji: str | None = None,
    visibility: str = "private",
    parent: str | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """Store a new space with an initial empty revision."""
    space_id, revision_id, now = ctx.new_id(), ctx.new_id(), ctx.now()
    create_revision(
        tx,
        revision_id=revision_id,
        space_id=space_id,
        parents=[],
        pages=[],
        files=[],
        type="initial",
        created_at=now,
        created_by=ctx.user_id,
    )
    space = {
        "id": space_id,
        "title": title,
        "emoji": emoji or "",
        "visibility": visibility,
        "createdAt": now,
        "updatedAt": now,
        "editMode": "live",
        "organization": org_id,
        "parent": parent,
        "revision": revision_id,
        "defaultLevel": None,
        **extra,
    }
    tx.put("space", space_id, space, scope=parent or root_scope(org_id))
    return space


@router.get("/orgs/{organizationId}/spaces")
def list_org_spaces(ctx: CtxDep, organizationId: str, paging: PagingParams) -> dict[str, Any]:
    """Spaces at the organization's root (not inside a collection)."""
    with ctx.read() as tx:
        load_org(tx, ctx, organizationId)
        spaces = [
            s
            for s in tx.list("space", root_scope(organizationId))
            if not s.get("deletedAt") and space_role(tx, s, ctx.user_id) is not None
        ]
        return paginate(spaces, paging, lambda s: space_json(tx, ctx, s))


@router.post("/orgs/{organizationId}/spaces", status_code=201)
def create_space(ctx: CtxDep, organizationId: str, body: SpaceCreate) -> dict[str, Any]:
    with ctx.write() as tx:
        load_org(tx, ctx, organizationId)
        if body.parent:
            coll, role = load_collection(tx, ctx, body.parent)
            if coll["organization"] != organizationId:
                raise bad_request("parent: the collection belongs to another organization")
            allowed = at_least(role, "create")
        else:
            allowed = at_least(org_role(tx, organizationId, ctx.user_id), "create")
        if not allowed:
            raise forbidden("Creating spaces needs the 'create' role.")
        if body.visibility == "in-collection" and not body.parent:
            raise bad_request("visibility: 'in-collection' is only for spaces in a collection")
        space = new_space(
            tx,
            ctx,
            org_id=organizationId,
            title=body.title or "Untitled",
            emoji=body.emoji,
            visibility=body.visibility or ("in-collection" if body.parent else "private"),
            parent=body.parent,
        )
        return space_json(tx, ctx, space)


@router.get("/spaces/{spaceId}")
def get_space(
    ctx: CtxDep,
    spaceId: str,
    shareKey: Annotated[str | None, Query(max_length=512)] = None,
) -> dict[str, Any]:
    with ctx.read() as tx:
        space = tx.get("space", spaceId)
        if (
            space is not None
            and shareKey
            and space.get("visibility") == "share-link"
            and shareKey == space.get("shareKey")
            and not space.get("deletedAt")
        ):
            return space_json(tx, ctx, space)
        if space is None:
            raise not_found("Space", spaceId)
        space, _ = load_space(tx, ctx, spaceId)
        return space_json(tx, ctx, space)


# -- shared helpers (also used by the collections family) ----------------------------------

RESTORE_WINDOW = timedelta(days=7)

DefaultLevel = Role | Literal["inherit"] | None


def default_level(value: str | None) -> str | None:
    """``inherit`` and ``null`` both mean: no level of its own, inherit from the parent."""
    return None if value == "inherit" else value


def destination_role(tx: Tx, ctx: Ctx, org_id: str, parent: dict[str, Any] | None) -> str | None:
    """The caller's role where an item would land: a collection, else the organization root."""
    if parent is not None:
        return collection_role(tx, parent, ctx.user_id)
    return org_role(tx, org_id, ctx.user_id)


def resolve_parent(
    tx: Tx, ctx: Ctx, org_id: str, parent_id: str | None, field: str = "parent"
) -> dict[str, Any] | None:
    """The collection named by a ``parent`` field (400 naming the field when unusable)."""
    if parent_id is None:
        return None
    coll = tx.get("collection", parent_id)
    if coll is None or collection_role(tx, coll, ctx.user_id) is None:
        raise bad_request(f"{field}: no collection '{parent_id}' in this organization")
    if coll["organization"] != org_id:
        raise bad_request(f"{field}: collection '{parent_id}' belongs to another organization")
    return coll


def _anchor(target: PositionTarget | None, kind: str, field: str) -> str | None:
    if target is None:
        return None
    anchor = getattr(target, kind, None)
    if target.type != kind or not anchor:
        raise bad_request(
            f"{field}: a {kind} can only be placed relative to another {kind} "
            f"(give {{type: '{kind}', {kind}: <id>}})"
        )
    return str(anchor)


def place_item(tx: Tx, kind: str, item_id: str, scope: str, position: Position | None) -> bool:
    """Put an item into ``scope`` at ``position`` (default: the end); True when it moved."""
    before = _anchor(position.before if position else None, kind, "position.before")
    after = _anchor(position.after if position else None, kind, "position.after")
    for field, anchor in (("position.before", before), ("position.after", after)):
        if anchor is None:
            continue
        if anchor == item_id:
            raise bad_request(f"{field}: cannot place a {kind} relative to itself")
        found = tx.position_of(kind, anchor)
        doc = tx.get(kind, anchor)
        if found is None or found[0] != scope or doc is None or doc.get("deletedAt"):
            raise bad_request(f"{field}: {kind} '{anchor}' is not in the target parent")
    old_scope = (tx.position_of(kind, item_id) or ("", 0.0))[0]
    old_order = [d["id"] for d in tx.list(kind, scope)]
    tx.place(kind, item_id, scope, before=before, after=after)
    return old_scope != scope or [d["id"] for d in tx.list(kind, scope)] != old_order


def require_org_admin_both(tx: Tx, ctx: Ctx, source_org: str, target_org: str) -> None:
    """Transfers need the caller to be an admin of both organizations."""
    if tx.get("org", target_org) is None or org_role(tx, target_org, ctx.user_id) is None:
        raise not_found("Organization", target_org)
    if org_role(tx, source_org, ctx.user_id) != "admin":
        raise forbidden("Transfers need the 'admin' role in the current organization.")
    if org_role(tx, target_org, ctx.user_id) != "admin":
        raise forbidden(
            f"organization: you need the 'admin' role in organization '{target_org}' "
            "to transfer content there."
        )
    if source_org == target_org:
        raise conflict("organization: the content already belongs to this organization")


def retarget_grants(tx: Tx, target_id: str, org_id: str) -> None:
    """After a transfer: direct grants follow, team grants (teams of the old org) are dropped."""
    for grant in tx.list("grant", target_id):
        grant["organization"] = org_id
        tx.put("grant", f"{target_id}:{grant['user']}", grant)
    tx.delete_scope("team-grant", target_id)


# -- space operations ------------------------------------------------------------------


class SpaceUpdate(Body):
    title: str | None = Field(None, min_length=1, max_length=50)
    emoji: str | None = Field(None, max_length=50)
    icon: str | None = Field(None, max_length=2048)
    editMode: Literal["live", "locked"] | None = None
    defaultLevel: DefaultLevel = None
    visibility: Visibility | None = None


class SpaceMove(Body):
    parent: str | None = None
    position: Position | None = None


class Transfer(Body):
    organization: str = Field(min_length=1)


_ADMIN_FIELDS = {"editMode", "visibility", "defaultLevel"}
_NOT_NULL = ("title", "editMode", "visibility")


@router.patch("/spaces/{spaceId}")
def update_space(ctx: CtxDep, spaceId: str, body: SpaceUpdate) -> dict[str, Any]:
    fields = body.model_fields_set
    if not fields:
        raise bad_request("body: give at least one field to update")
    for name in _NOT_NULL:
        if name in fields and getattr(body, name) is None:
            raise bad_request(f"{name}: must not be null")
    with ctx.write() as tx:
        space, role = load_space(tx, ctx, spaceId)
        require(role, "admin" if fields & _ADMIN_FIELDS else "edit", "Space", spaceId)
        unlocking = "editMode" in fields and body.editMode != space.get("editMode", "live")
        if space.get("editMode") == "locked" and not unlocking:
            raise forbidden(
                f"Space '{spaceId}' is locked (editMode: locked); "
                "set editMode to 'live' before changing it."
            )
        if body.visibility == "in-collection" and not space.get("parent"):
            raise bad_request("visibility: 'in-collection' is only for spaces in a collection")
        for name in ("title", "editMode", "visibility"):
            if name in fields:
                space[name] = getattr(body, name)
        if "emoji" in fields:
            space["emoji"] = body.emoji or ""
        if "icon" in fields:
            space["icon"] = body.icon
        if "defaultLevel" in fields:
            space["defaultLevel"] = default_level(body.defaultLevel)
        space["updatedAt"] = ctx.now()
        tx.put("space", spaceId, space)
        return space_json(tx, ctx, space)


@router.delete("/spaces/{spaceId}", status_code=205, response_class=Response)
def delete_space(ctx: CtxDep, spaceId: str) -> Response:
    """Soft delete: ``deletedAt`` is set; the space can be restored for 7 days."""
    with ctx.write() as tx:
        space, role = load_space(tx, ctx, spaceId)
        require(role, "admin", "Space", spaceId)
        space["deletedAt"] = ctx.now()
        tx.put("space", spaceId, space)
    return Response(status_code=205)


@router.post("/spaces/{spaceId}/restore")
def restore_space(ctx: CtxDep, spaceId: str) -> dict[str, Any]:
    with ctx.write() as tx:
        space, role = load_space(tx, ctx, spaceId, include_deleted=True)
        require(role, "admin", "Space", spaceId)
        deleted_at = space.get("deletedAt")
        if not deleted_at:
            raise bad_request(f"Space '{spaceId}' is not deleted; there is nothing to restore.")
        if ctx.state.clock.now() - parse_iso(deleted_at) > RESTORE_WINDOW:
            raise ApiError(
                404,
                f"Space '{spaceId}' was permanently deleted: spaces can only be restored "
                "within 7 days of their deletion.",
            )
        del space["deletedAt"]
        scope = None
        if space.get("parent") and tx.get("collection", space["parent"]) is None:
            # its collection was deleted meanwhile: come back at the organization root
            space["parent"] = None
            scope = root_scope(space["organization"])
            if space.get("visibility") == "in-collection":
                space["visibility"] = "private"
        space["updatedAt"] = ctx.now()
        tx.put("space", spaceId, space, scope=scope)
        return space_json(tx, ctx, space)


@router.post("/spaces/{spaceId}/duplicate", status_code=201)
def duplicate_space(ctx: CtxDep, spaceId: str, response: Response) -> dict[str, Any]:
    """A new space next to the source with a copy of its current pages and files."""
    with ctx.write() as tx:
        source, _ = load_space(tx, ctx, spaceId)
        org_id = source["organization"]
        parent = tx.get("collection", source["parent"]) if source.get("parent") else None
        if not at_least(destination_role(tx, ctx, org_id, parent), "create"):
            raise forbidden(
                "Duplicating a space needs the 'create' role where the copy is created "
                + (f"(collection '{parent['id']}')." if parent else "(the organization).")
            )
        copy = new_space(
            tx,
            ctx,
            org_id=org_id,
            title=f"{source['title']} (copy)"[:50],
            emoji=source.get("emoji"),
            visibility=source.get("visibility", "private"),
            parent=parent["id"] if parent else None,
        )
        copy["defaultLevel"] = source.get("defaultLevel")
        if source.get("icon"):
            copy["icon"] = source["icon"]
        tx.put("space", copy["id"], copy)
        tx.place("space", copy["id"], parent["id"] if parent else root_scope(org_id), after=spaceId)
        revision = get_revision(tx, source["revision"])
        pages, files = editable_copy(revision)
        now = ctx.now()
        new_revision = create_revision(
            tx,
            revision_id=ctx.new_id(),
            space_id=copy["id"],
            parents=[copy["revision"]],
            pages=pages,
            files=files,
            type="edits",
            created_at=now,
            created_by=ctx.user_id,
            variables=dict(revision.get("variables") or {}),
        )
        set_space_revision(tx, copy, new_revision["id"], now)
        response.headers["Location"] = f"{ctx.api}/spaces/{copy['id']}"
        return space_json(tx, ctx, copy)


@router.post("/spaces/{spaceId}/move")
def move_space(ctx: CtxDep, spaceId: str, body: SpaceMove) -> dict[str, Any]:
    fields = body.model_fields_set
    if not fields:
        raise bad_request("body: give `parent` and/or `position`")
    with ctx.write() as tx:
        space, role = load_space(tx, ctx, spaceId)
        require(role, "admin", "Space", spaceId)
        org_id = space["organization"]
        parent_id = body.parent if "parent" in fields else space.get("parent")
        parent = resolve_parent(tx, ctx, org_id, parent_id)
        if parent_id != space.get("parent") and not at_least(
            destination_role(tx, ctx, org_id, parent), "create"
        ):
            raise forbidden("parent: moving a space there needs the 'create' role on it.")
        scope = parent_id or root_scope(org_id)
        if not place_item(tx, "space", spaceId, scope, body.position):
            raise conflict("Moving the space would not change anything.")
        space["parent"] = parent_id
        if parent_id is None and space.get("visibility") == "in-collection":
            space["visibility"] = "private"
        space["updatedAt"] = ctx.now()
        tx.put("space", spaceId, space, scope=scope)
        return space_json(tx, ctx, space)


@router.post("/spaces/{spaceId}/transfer")
def transfer_space(ctx: CtxDep, spaceId: str, body: Transfer) -> dict[str, Any]:
    with ctx.write() as tx:
        space, role = load_space(tx, ctx, spaceId)
        require(role, "admin", "Space", spaceId)
        require_org_admin_both(tx, ctx, space["organization"], body.organization)
        space["organization"] = body.organization
        space["parent"] = None
        if space.get("visibility") == "in-collection":
            space["visibility"] = "private"
        space["updatedAt"] = ctx.now()
        tx.put("space", spaceId, space)
        tx.place("space", spaceId, root_scope(body.organization))
        retarget_grants(tx, spaceId, body.organization)
        return space_json(tx, ctx, space)


__all__ = [
    "RESTORE_WINDOW",
    "Role",
    "Transfer",
    "default_level",
    "destination_role",
    "new_space",
    "place_item",
    "require_org_admin_both",
    "resolve_parent",
    "retarget_grants",
    "root_scope",
    "router",
]
