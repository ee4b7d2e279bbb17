"""Permissions of spaces and collections: invite, user and team grants (list, update,
remove) and everyone with access (aggregate)."""

from __future__ import annotations

import builtins

from ..models import PermissionEntry, Role, TeamGrant
from .base import ReadMode
from .pagination import AsyncPager
from .resource import Resource, operation, seg


def permissions_path(space_id: str | None, collection_id: str | None) -> str:
    """``/spaces/{id}/permissions`` or ``/collections/{id}/permissions`` (exactly one id)."""
    if (space_id is None) == (collection_id is None):
        raise ValueError("give exactly one of space_id= or collection_id=")
    if space_id is not None:
        return f"/spaces/{seg(space_id, 'space_id')}/permissions"
    return f"/collections/{seg(collection_id or '', 'collection_id')}/permissions"


class Permissions(Resource):
    """Each method works on a space (``space_id=``) or a collection (``collection_id=``)."""

    @operation(
        "POST /v1/spaces/{spaceId}/permissions",
        "POST /v1/collections/{collectionId}/permissions",
    )
    async def invite(
        self,
        *,
        role: Role | str | None,
        users: builtins.list[str] | None = None,
        teams: builtins.list[str] | None = None,
        space_id: str | None = None,
        collection_id: str | None = None,
    ) -> None:
        """Grant ``role`` (``None``: guest, read-only access) to ``users`` and/or ``teams``."""
        path = permissions_path(space_id, collection_id)
        payload: dict[str, object] = {"role": role}
        if users is not None:
            payload["users"] = users
        if teams is not None:
            payload["teams"] = teams
        await self._client.send(
            "POST",
            path,
            body=payload,
            operation="inviteToSpace" if space_id is not None else "inviteToCollection",
        )

    @operation(
        "GET /v1/spaces/{spaceId}/permissions/users",
        "GET /v1/collections/{collectionId}/permissions/users",
    )
    def list_users(
        self,
        *,
        space_id: str | None = None,
        collection_id: str | None = None,
        limit: int | None = None,
        max_items: int | None = None,
        read: ReadMode | None = None,
    ) -> AsyncPager[PermissionEntry]:
        """Users granted a role directly on the space or collection."""
        return AsyncPager(
            self._client,
            f"{permissions_path(space_id, collection_id)}/users",
            PermissionEntry,
            limit=limit,
            max_items=max_items,
            read=read,
            operation="listUserPermissions",
        )

    @operation(
        "PATCH /v1/spaces/{spaceId}/permissions/users/{userId}",
        "PATCH /v1/collections/{collectionId}/permissions/users/{userId}",
    )
    async def update_user(
        self,
        user_id: str,
        *,
        role: Role | str | None,
        space_id: str | None = None,
        collection_id: str | None = None,
    ) -> None:
        """Change a direct grant's role (``None``: guest)."""
        await self._grant(
            "PATCH",
            "users",
            seg(user_id, "user_id"),
            space_id,
            collection_id,
            operation="updateUserPermission",
            body={"role": role},
        )

    @operation(
        "DELETE /v1/spaces/{spaceId}/permissions/users/{userId}",
        "DELETE /v1/collections/{collectionId}/permissions/users/{userId}",
    )
    async def remove_user(
        self, user_id: str, *, space_id: str | None = None, collection_id: str | None = None
    ) -> None:
        """Remove a user's direct grant (nothing happens when there is none)."""
        await self._grant(
            "DELETE",
            "users",
            seg(user_id, "user_id"),
            space_id,
            collection_id,
            operation="removeUserPermission",
        )

    @operation(
        "GET /v1/spaces/{spaceId}/permissions/aggregate",
        "GET /v1/collections/{collectionId}/permissions/aggregate",
    )
    def aggregate(
        self,
        *,
        space_id: str | None = None,
        collection_id: str | None = None,
        role: Role | str | None = None,
        limit: int | None = None,
        max_items: int | None = None,
        read: ReadMode | None = None,
    ) -> AsyncPager[PermissionEntry]:
        """Everyone who can access the space or collection, with their effective role."""
        return AsyncPager(
            self._client,
            f"{permissions_path(space_id, collection_id)}/aggregate",
            PermissionEntry,
            params={"role": role},
            limit=limit,
            max_items=max_items,
            read=read,
            operation="listPermissionsAggregate",
        )

    @operation(
        "GET /v1/spaces/{spaceId}/permissions/teams",
        "GET /v1/collections/{collectionId}/permissions/teams",
    )
    def list_teams(
        self,
        *,
        space_id: str | None = None,
        collection_id: str | None = None,
        limit: int | None = None,
        max_items: int | None = None,
        read: ReadMode | None = None,
    ) -> AsyncPager[TeamGrant]:
        """Teams granted a role on the space or collection."""
        return AsyncPager(
            self._client,
            f"{permissions_path(space_id, collection_id)}/teams",
            TeamGrant,
            limit=limit,
            max_items=max_items,
            read=read,
            operation="listTeamPermissions",
        )

    @operation(
        "PATCH /v1/spaces/{spaceId}/permissions/teams/{teamId}",
        "PATCH /v1/collections/{collectionId}/permissions/teams/{teamId}",
    )
    async def update_team(
        self,
        team_id: str,
        *,
        role: Role | str | None,
        space_id: str | None = None,
        collection_id: str | None = None,
    ) -> None:
        """Change a team grant's role."""
        await self._grant(
            "PATCH",
            "teams",
            seg(team_id, "team_id"),
            space_id,
            collection_id,
            operation="updateTeamPermission",
            body={"role": role},
        )

    @operation(
        "DELETE /v1/spaces/{spaceId}/permissions/teams/{teamId}",
        "DELETE /v1/collections/{collectionId}/permissions/teams/{teamId}",
    )
    async def remove_team(
        self, team_id: str, *, space_id: str | None = None, collection_id: str | None = None
    ) -> None:
        """Remove a team's grant (nothing happens when there is none)."""
        await self._grant(
            "DELETE",
            "teams",
            seg(team_id, "team_id"),
            space_id,
            collection_id,
            operation="removeTeamPermission",
        )

    async def _grant(
        self,
        method: str,
        kind: str,
        member: str,
        space_id: str | None,
        collection_id: str | None,
        *,
        operation: str,
        body: dict[str, object] | None = None,
    ) -> None:
        """One user's or team's grant on a space or collection changed or removed (the
        grants listed there are stale then)."""
        path = permissions_path(space_id, collection_id)
        await self._client.send(
            method, f"{path}/{kind}/{member}", body=body, invalidates=[path], operation=operation
        )
