"""Routes for spaces: create, read, update, delete/restore, duplicate, move, transfer."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from pydantic import Field

from ..content_store import create_revision
from ..context import Ctx, CtxDep
from ..errors import bad_request, not_found
from ..pagination import PagingParams, paginate
from ..permissions import at_least, org_role, space_role
from ..resources import load_collection, load_org, load_space, space_json
from ..schemas import Body, Role
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
            from ..errors import forbidden

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


__all__ = ["Role", "new_space", "root_scope", "router"]
