"""Collection operations: list, create, get, update, delete, list spaces, move, transfer."""

from __future__ import annotations

from typing import Any

from ..models import Collection, Role, Space
from .base import ReadMode
from .pagination import AsyncPager
from .resource import Resource, body, operation, seg


def move_position(kind: str, before: str | None, after: str | None) -> dict[str, Any] | None:
    """The ``position`` of a move: ``{before: {type: kind, kind: id}}`` and/or ``after``."""
    position: dict[str, Any] = {}
    if before is not None:
        position["before"] = {"type": kind, kind: before}
    if after is not None:
        position["after"] = {"type": kind, kind: after}
    return position or None


# Collection and space changes show in lists whose organization / parent the request does
# not name (org space and collection lists, collection space lists, site spaces).
TREE_LISTS = ["/orgs", "/collections"]


class Collections(Resource):
    @operation("GET /v1/orgs/{organizationId}/collections")
    def list(
        self,
        organization_id: str,
        *,
        nested: bool | None = None,
        limit: int | None = None,
        max_items: int | None = None,
        read: ReadMode | None = None,
    ) -> AsyncPager[Collection]:
        """Collections of the organization (``nested=False``: only top-level ones)."""
        return AsyncPager(
            self._client,
            f"/orgs/{seg(organization_id, 'organization_id')}/collections",
            Collection,
            params={"nested": nested},
            limit=limit,
            max_items=max_items,
            read=read,
            operation="listCollections",
        )

    @operation("POST /v1/orgs/{organizationId}/collections")
    async def create(
        self, organization_id: str, *, title: str | None = None, parent: str | None = None
    ) -> Collection:
        """A new collection at the organization's root, or inside collection ``parent``."""
        result: Collection = await self._client.send(
            "POST",
            f"/orgs/{seg(organization_id, 'organization_id')}/collections",
            Collection,
            body=body(title=title, parent=parent),
            operation="createCollection",
        )
        return result

    @operation("GET /v1/collections/{collectionId}")
    async def get(self, collection_id: str, *, read: ReadMode | None = None) -> Collection:
        result: Collection = await self._client.get(
            f"/collections/{seg(collection_id, 'collection_id')}",
            Collection,
            read=read,
            operation="getCollectionById",
        )
        return result

    @operation("PATCH /v1/collections/{collectionId}")
    async def update(
        self,
        collection_id: str,
        *,
        title: str | None = None,
        description: str | None = None,
        default_level: Role | str | None = None,
    ) -> Collection:
        """Omitted fields are unchanged; ``description=NULL`` clears the description and
        ``default_level=NULL`` (or ``"inherit"``) inherits the level from the parent."""
        result: Collection = await self._client.send(
            "PATCH",
            f"/collections/{seg(collection_id, 'collection_id')}",
            Collection,
            body=body(title=title, description=description, defaultLevel=default_level),
            invalidates=TREE_LISTS,
            operation="updateCollectionById",
        )
        return result

    @operation("DELETE /v1/collections/{collectionId}")
    async def delete(self, collection_id: str) -> None:
        """Delete the collection and its sub-collections; their spaces go to the trash."""
        await self._client.send(
            "DELETE",
            f"/collections/{seg(collection_id, 'collection_id')}",
            invalidates=[*TREE_LISTS, "/spaces"],
            operation="deleteCollectionById",
        )

    @operation("GET /v1/collections/{collectionId}/spaces")
    def spaces(
        self,
        collection_id: str,
        *,
        limit: int | None = None,
        max_items: int | None = None,
        read: ReadMode | None = None,
    ) -> AsyncPager[Space]:
        return AsyncPager(
            self._client,
            f"/collections/{seg(collection_id, 'collection_id')}/spaces",
            Space,
            limit=limit,
            max_items=max_items,
            read=read,
            operation="listSpacesInCollectionById",
        )

    @operation("POST /v1/collections/{collectionId}/move")
    async def move(
        self,
        collection_id: str,
        *,
        parent: str | None = None,
        before: str | None = None,
        after: str | None = None,
    ) -> Collection:
        """Move into collection ``parent`` (``parent=NULL``: to the organization's root),
        placed ``before`` / ``after`` a sibling collection (default: at the end)."""
        result: Collection = await self._client.send(
            "POST",
            f"/collections/{seg(collection_id, 'collection_id')}/move",
            Collection,
            body=body(parent=parent, position=move_position("collection", before, after)),
            invalidates=TREE_LISTS,
            operation="moveCollection",
        )
        return result

    @operation("POST /v1/collections/{collectionId}/transfer")
    async def transfer(self, collection_id: str, organization: str) -> Collection:
        """Move the collection, its sub-collections and their spaces to ``organization``."""
        result: Collection = await self._client.send(
            "POST",
            f"/collections/{seg(collection_id, 'collection_id')}/transfer",
            Collection,
            body={"organization": organization},
            invalidates=[*TREE_LISTS, "/spaces"],
            operation="transferCollection",
        )
        return result
