"""Routes for spaces: create, read, update, delete/restore, duplicate, move, transfer."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Response

from ..content.space_revision import set_space_revision
from ..content.store import create_revision, get_revision, shared_copy
from ..core.clock import parse_iso
from ..core.context import CtxDep
from ..core.errors import ApiError, bad_request, conflict, forbidden, not_found
from ..core.pagination import PagingParams, paginate
from ..core.permissions import at_least, org_role, require, space_role
from ..core.resources import load_collection, load_org, load_space, space_json
from ..spaces.rules import (
    RESTORE_WINDOW,
    default_level,
    destination_role,
    new_space,
    place_item,
    require_org_admin_both,
    resolve_parent,
    retarget_grants,
    root_scope,
)
from ..spaces.schemas import SpaceCreate, SpaceMove, SpaceUpdate, Transfer

router = APIRouter(tags=["spaces"])


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
def create_space(
    ctx: CtxDep, organizationId: str, body: SpaceCreate | None = None
) -> dict[str, Any]:
    body = body or SpaceCreate()  # every field is optional: no body at all is fine
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


_ADMIN_FIELDS = {"editMode", "visibility", "defaultLevel", "mergeRules"}
_NOT_NULL = ("title", "editMode", "visibility", "mergeRules")


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
        if body.mergeRules is not None:
            space["mergeRules"] = body.mergeRules.model_dump(mode="json")
        space["updatedAt"] = ctx.now()
        tx.put("space", spaceId, space)
        return space_json(tx, ctx, space)


@router.delete("/spaces/{spaceId}", status_code=205, response_class=Response)
def delete_space(ctx: CtxDep, spaceId: str) -> Response:
    """Soft delete: ``deletedAt`` is set; the space can be restored for 7 days. 205 when
    deleted, 204 when there is no such space or it is deleted already, 404 when the caller
    cannot see it (the deletion rule)."""
    with ctx.write() as tx:
        if tx.get("space", spaceId) is None:
            return Response(status_code=204)
        space, role = load_space(tx, ctx, spaceId, include_deleted=True)
        if space.get("deletedAt"):
            return Response(status_code=204)
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
        pages, files = shared_copy(revision)
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
