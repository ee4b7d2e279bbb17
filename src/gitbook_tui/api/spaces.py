"""Space operations: org spaces, get, update, delete, restore, duplicate, move, transfer, links."""

from __future__ import annotations

from ..models import EditMode, LinkStatus, Role, Space, SpaceVisibility
from .base import ReadMode
from .collections import TREE_LISTS, move_position
from .content import LinkPager
from .pagination import AsyncPager
from .resource import Resource, body, operation, seg
from .space_paths import space_path


class Spaces(Resource):
    @operation("GET /v1/orgs/{organizationId}/spaces")
    def list_in_org(
        self,
        organization_id: str,
        *,
        limit: int | None = None,
        max_items: int | None = None,
        read: ReadMode | None = None,
    ) -> AsyncPager[Space]:
        """Spaces at the organization's root (those in collections: ``collections.spaces``)."""
        return AsyncPager(
            self._client,
            f"/orgs/{seg(organization_id, 'organization_id')}/spaces",
            Space,
            limit=limit,
            max_items=max_items,
            read=read,
            operation="listSpaces",
        )

    @operation("POST /v1/orgs/{organizationId}/spaces")
    async def create_in_org(
        self,
        organization_id: str,
        *,
        title: str | None = None,
        emoji: str | None = None,
        visibility: SpaceVisibility | str | None = None,
        parent: str | None = None,
    ) -> Space:
        """A new empty space at the organization's root, or in collection ``parent``."""
        invalidates = [f"/collections/{seg(parent, 'parent')}/spaces"] if parent else []
        result: Space = await self._client.send(
            "POST",
            f"/orgs/{seg(organization_id, 'organization_id')}/spaces",
            Space,
            body=body(title=title, emoji=emoji, visibility=visibility, parent=parent),
            invalidates=invalidates,
            operation="createSpace",
        )
        return result

    @operation("GET /v1/spaces/{spaceId}")
    async def get(
        self, space_id: str, *, share_key: str | None = None, read: ReadMode | None = None
    ) -> Space:
        result: Space = await self._client.get(
            space_path(space_id),
            Space,
            params={"shareKey": share_key},
            read=read,
            operation="getSpaceById",
        )
        return result

    @operation("PATCH /v1/spaces/{spaceId}")
    async def update(
        self,
        space_id: str,
        *,
        title: str | None = None,
        emoji: str | None = None,
        icon: str | None = None,
        edit_mode: EditMode | str | None = None,
        default_level: Role | str | None = None,
        visibility: SpaceVisibility | str | None = None,
    ) -> Space:
        """Omitted fields are unchanged; ``default_level=NULL`` inherits from the parent."""
        result: Space = await self._client.send(
            "PATCH",
            space_path(space_id),
            Space,
            body=body(
                title=title,
                emoji=emoji,
                icon=icon,
                editMode=edit_mode,
                defaultLevel=default_level,
                visibility=visibility,
            ),
            invalidates=TREE_LISTS,
            operation="updateSpaceById",
        )
        return result

    @operation("DELETE /v1/spaces/{spaceId}")
    async def delete(self, space_id: str) -> None:
        """Move the space to the trash (it can be restored for 7 days)."""
        await self._client.send(
            "DELETE", space_path(space_id), invalidates=TREE_LISTS, operation="deleteSpaceById"
        )

    @operation("POST /v1/spaces/{spaceId}/restore")
    async def restore(self, space_id: str) -> Space:
        """Bring a deleted space back (only within 7 days of its deletion)."""
        result: Space = await self._client.send(
            "POST",
            f"{space_path(space_id)}/restore",
            Space,
            invalidates=[space_path(space_id), *TREE_LISTS],
            operation="restoreSpace",
        )
        return result

    @operation("POST /v1/spaces/{spaceId}/duplicate")
    async def duplicate(self, space_id: str) -> Space:
        """A copy of the space (its current pages and files), placed next to it."""
        result: Space = await self._client.send(
            "POST",
            f"{space_path(space_id)}/duplicate",
            Space,
            invalidates=TREE_LISTS,
            operation="duplicateSpace",
        )
        return result

    @operation("POST /v1/spaces/{spaceId}/move")
    async def move(
        self,
        space_id: str,
        *,
        parent: str | None = None,
        before: str | None = None,
        after: str | None = None,
    ) -> Space:
        """Move into collection ``parent`` (``parent=NULL``: to the organization's root),
        placed ``before`` / ``after`` a sibling space (default: at the end)."""
        result: Space = await self._client.send(
            "POST",
            f"{space_path(space_id)}/move",
            Space,
            body=body(parent=parent, position=move_position("space", before, after)),
            invalidates=[space_path(space_id), *TREE_LISTS],
            operation="moveSpace",
        )
        return result

    @operation("POST /v1/spaces/{spaceId}/transfer")
    async def transfer(self, space_id: str, organization: str) -> Space:
        """Move the space to the root of another organization (admin of both needed)."""
        result: Space = await self._client.send(
            "POST",
            f"{space_path(space_id)}/transfer",
            Space,
            body={"organization": organization},
            invalidates=[space_path(space_id), *TREE_LISTS],
            operation="transferSpace",
        )
        return result

    @operation("GET /v1/spaces/{spaceId}/links")
    def links(
        self,
        space_id: str,
        *,
        status: LinkStatus | str | None = None,
        limit: int | None = None,
        max_items: int | None = None,
        read: ReadMode | None = None,
    ) -> LinkPager:
        """Links found in the space's content; ``await`` gives a page with ``stats``."""
        return LinkPager(
            self._client,
            f"{space_path(space_id)}/links",
            params={"status": status},
            limit=limit,
            max_items=max_items,
            read=read,
            operation="listSpaceLinks",
        )
