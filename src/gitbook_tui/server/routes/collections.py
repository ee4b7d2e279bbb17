"""Routes for collections: list, create, read, update, delete, list spaces, move, transfer."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Response
from pydantic import Field

from ..core.context import CtxDep
from ..core.errors import bad_request, conflict, forbidden
from ..core.pagination import PagingParams, paginate
from ..core.permissions import at_least, collection_role, require, space_role
from ..core.resources import collection_json, load_collection, load_org, space_json
from ..core.schemas import Body, Position
from ..spaces.rules import (
    default_level,
    destination_role,
    place_item,
    require_org_admin_both,
    resolve_parent,
    retarget_grants,
    root_scope,
    subtree,
    walk_collections,
)
from ..spaces.schemas import DefaultLevel, Transfer

router = APIRouter(tags=["collections"])


class CollectionCreate(Body):
    title: str | None = Field(None, max_length=50)
    parent: str | None = None


class CollectionUpdate(Body):
    title: str | None = Field(None, min_length=1, max_length=50)
    description: str | None = Field(None, max_length=100)
    defaultLevel: DefaultLevel = None


class CollectionMove(Body):
    parent: str | None = None
    position: Position | None = None


@router.get("/orgs/{organizationId}/collections")
def list_collections(
    ctx: CtxDep,
    organizationId: str,
    paging: PagingParams,
    nested: Annotated[bool, Query(description="List nested collections too")] = True,
) -> dict[str, Any]:
    with ctx.read() as tx:
        load_org(tx, ctx, organizationId)
        scope = root_scope(organizationId)
        candidates = walk_collections(tx, scope) if nested else iter(tx.list("collection", scope))
        colls = [c for c in candidates if collection_role(tx, c, ctx.user_id) is not None]
        return paginate(colls, paging, lambda c: collection_json(tx, ctx, c))


@router.post("/orgs/{organizationId}/collections", status_code=201)
def create_collection(
    ctx: CtxDep, organizationId: str, response: Response, body: CollectionCreate | None = None
) -> dict[str, Any]:
    body = body or CollectionCreate()  # every field is optional: no body at all is fine
    with ctx.write() as tx:
        load_org(tx, ctx, organizationId)
        parent = resolve_parent(tx, ctx, organizationId, body.parent)
        if not at_least(destination_role(tx, ctx, organizationId, parent), "create"):
            raise forbidden(
                "Creating collections needs the 'create' role "
                + (f"on collection '{parent['id']}'." if parent else "in the organization.")
            )
        now = ctx.now()
        coll: dict[str, Any] = {
            "id": ctx.new_id(),
            "organization": organizationId,
            "parent": parent["id"] if parent else None,
            "title": body.title or "Untitled",
            "description": None,
            "defaultLevel": None,
            "createdAt": now,
            "updatedAt": now,
            "createdBy": ctx.user_id,
        }
        tx.put("collection", coll["id"], coll, scope=coll["parent"] or root_scope(organizationId))
        response.headers["Location"] = f"{ctx.api}/collections/{coll['id']}"
        return collection_json(tx, ctx, coll)


@router.get("/collections/{collectionId}")
def get_collection(ctx: CtxDep, collectionId: str) -> dict[str, Any]:
    with ctx.read() as tx:
        coll, _ = load_collection(tx, ctx, collectionId)
        return collection_json(tx, ctx, coll)


@router.patch("/collections/{collectionId}")
def update_collection(ctx: CtxDep, collectionId: str, body: CollectionUpdate) -> dict[str, Any]:
    fields = body.model_fields_set
    if not fields:
        raise bad_request("body: give at least one of title, description, defaultLevel")
    if "title" in fields and body.title is None:
        raise bad_request("title: must not be null")
    with ctx.write() as tx:
        coll, role = load_collection(tx, ctx, collectionId)
        require(role, "admin", "Collection", collectionId)
        if "title" in fields:
            coll["title"] = body.title
        if "description" in fields:
            coll["description"] = body.description
        if "defaultLevel" in fields:
            coll["defaultLevel"] = default_level(body.defaultLevel)
        coll["updatedAt"] = ctx.now()
        tx.put("collection", collectionId, coll)
        return collection_json(tx, ctx, coll)


@router.delete("/collections/{collectionId}", status_code=205, response_class=Response)
def delete_collection(ctx: CtxDep, collectionId: str) -> Response:
    """Deletes the collection and its sub-collections; their spaces are soft-deleted.
    205 when deleted, 204 when there is no such collection, 404 when the caller cannot see
    it (the deletion rule)."""
    with ctx.write() as tx:
        if tx.get("collection", collectionId) is None:
            return Response(status_code=204)
        coll, role = load_collection(tx, ctx, collectionId)
        require(role, "admin", "Collection", collectionId)
        now = ctx.now()
        for item in subtree(tx, coll):
            for space in tx.list("space", item["id"]):
                if not space.get("deletedAt"):
                    space["deletedAt"] = now
                    tx.put("space", space["id"], space)
            tx.delete_scope("grant", item["id"])
            tx.delete_scope("team-grant", item["id"])
            tx.delete("collection", item["id"])
    return Response(status_code=205)


@router.get("/collections/{collectionId}/spaces")
def list_collection_spaces(ctx: CtxDep, collectionId: str, paging: PagingParams) -> dict[str, Any]:
    with ctx.read() as tx:
        load_collection(tx, ctx, collectionId)
        spaces = [
            s
            for s in tx.list("space", collectionId)
            if not s.get("deletedAt") and space_role(tx, s, ctx.user_id) is not None
        ]
        return paginate(spaces, paging, lambda s: space_json(tx, ctx, s))


@router.post("/collections/{collectionId}/move")
def move_collection(ctx: CtxDep, collectionId: str, body: CollectionMove) -> dict[str, Any]:
    fields = body.model_fields_set
    if not fields:
        raise bad_request("body: give `parent` and/or `position`")
    with ctx.write() as tx:
        coll, role = load_collection(tx, ctx, collectionId)
        require(role, "admin", "Collection", collectionId)
        org_id = coll["organization"]
        parent_id = body.parent if "parent" in fields else coll.get("parent")
        if parent_id is not None and parent_id in {c["id"] for c in subtree(tx, coll)}:
            raise bad_request(
                "parent: a collection cannot be moved into itself or one of its sub-collections"
            )
        parent = resolve_parent(tx, ctx, org_id, parent_id)
        if parent_id != coll.get("parent") and not at_least(
            destination_role(tx, ctx, org_id, parent), "create"
        ):
            raise forbidden("parent: moving a collection there needs the 'create' role on it.")
        scope = parent_id or root_scope(org_id)
        if not place_item(tx, "collection", collectionId, scope, body.position):
            raise conflict("Moving the collection would not change anything.")
        coll["parent"] = parent_id
        coll["updatedAt"] = ctx.now()
        tx.put("collection", collectionId, coll, scope=scope)
        return collection_json(tx, ctx, coll)


@router.post("/collections/{collectionId}/transfer")
def transfer_collection(ctx: CtxDep, collectionId: str, body: Transfer) -> dict[str, Any]:
    """Moves the collection, its sub-collections and all their spaces to another org."""
    with ctx.write() as tx:
        coll, role = load_collection(tx, ctx, collectionId)
        require(role, "admin", "Collection", collectionId)
        target = body.organization
        require_org_admin_both(tx, ctx, coll["organization"], target)
        now = ctx.now()
        for item in subtree(tx, coll):
            for space in tx.list("space", item["id"]):
                space["organization"] = target
                space["updatedAt"] = now
                tx.put("space", space["id"], space)
                retarget_grants(tx, space["id"], target)
            item["organization"] = target
            item["updatedAt"] = now
            tx.put("collection", item["id"], item)
            retarget_grants(tx, item["id"], target)
        coll["parent"] = None
        tx.put("collection", collectionId, coll)
        tx.place("collection", collectionId, root_scope(target))
        return collection_json(tx, ctx, coll)
