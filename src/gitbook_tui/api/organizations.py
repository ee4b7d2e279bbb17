"""Organization operations: list, get, update, search, email domains, members, current user."""

from __future__ import annotations

import builtins
from typing import Any

from ..models import (
    EmailDomainOrganizations,
    Member,
    MemberSpace,
    Organization,
    OrgSearchItem,
    Role,
    User,
)
from .base import ReadMode
from .pagination import AsyncPager
from .resource import Resource, body, operation, seg


class Organizations(Resource):
    @operation("GET /v1/orgs")
    def list(
        self,
        *,
        limit: int | None = None,
        max_items: int | None = None,
        read: ReadMode | None = None,
    ) -> AsyncPager[Organization]:
        return AsyncPager(
            self._client,
            "/orgs",
            Organization,
            limit=limit,
            max_items=max_items,
            read=read,
            operation="listOrganizationsForAuthenticatedUser",
        )

    @operation("GET /v1/orgs/{organizationId}")
    async def get(self, organization_id: str, *, read: ReadMode | None = None) -> Organization:
        result: Organization = await self._client.get(
            f"/orgs/{seg(organization_id, 'organization_id')}",
            Organization,
            read=read,
            operation="getOrganizationById",
        )
        return result

    @operation("PATCH /v1/orgs/{organizationId}")
    async def update(
        self,
        organization_id: str,
        *,
        title: str | None = None,
        email_domains: builtins.list[str] | None = None,
        hostname: str | None = None,
        default_role: str | None = None,
        default_content: dict[str, Any] | None = None,
        logo: str | None = None,
        sso: bool | None = None,
        ai: bool | None = None,
        invite_links: bool | None = None,
    ) -> Organization:
        result: Organization = await self._client.send(
            "PATCH",
            f"/orgs/{seg(organization_id, 'organization_id')}",
            Organization,
            body=body(
                title=title,
                emailDomains=email_domains,
                hostname=hostname,
                defaultRole=default_role,
                defaultContent=default_content,
                logo=logo,
                sso=sso,
                ai=ai,
                inviteLinks=invite_links,
            ),
            invalidates=["/orgs"],
            operation="updateOrganizationById",
        )
        return result

    @operation("GET /v1/orgs/{organizationId}/search")
    def search(
        self,
        organization_id: str,
        query: str,
        *,
        limit: int | None = None,
        max_items: int | None = None,
        read: ReadMode | None = None,
    ) -> AsyncPager[OrgSearchItem]:
        return AsyncPager(
            self._client,
            f"/orgs/{seg(organization_id, 'organization_id')}/search",
            OrgSearchItem,
            params={"query": query},
            limit=limit,
            max_items=max_items,
            read=read,
            operation="searchOrganizationContent",
        )

    @operation("GET /v1/email-domains/{emailDomain}/orgs")
    async def list_for_email_domain(
        self, email_domain: str, *, read: ReadMode | None = None
    ) -> builtins.list[Organization]:
        # An envelope like every other answer: members beyond ``organizations`` are allowed.
        data: EmailDomainOrganizations = await self._client.get(
            f"/email-domains/{seg(email_domain, 'email_domain')}/orgs",
            EmailDomainOrganizations,
            read=read,
            operation="listOrganizationsForEmailDomain",
        )
        return data.organizations

    @operation("GET /v1/orgs/{organizationId}/members")
    def members(
        self,
        organization_id: str,
        *,
        role: str | None = None,
        limit: int | None = None,
        max_items: int | None = None,
        read: ReadMode | None = None,
    ) -> AsyncPager[Member]:
        return AsyncPager(
            self._client,
            f"/orgs/{seg(organization_id, 'organization_id')}/members",
            Member,
            params={"role": role},
            limit=limit,
            max_items=max_items,
            read=read,
            operation="listMembersInOrganizationById",
        )

    @operation("GET /v1/orgs/{organizationId}/members/{userId}")
    async def member(
        self, organization_id: str, user_id: str, *, read: ReadMode | None = None
    ) -> Member:
        result: Member = await self._client.get(
            f"{_members(organization_id)}/{seg(user_id, 'user_id')}",
            Member,
            read=read,
            operation="getMemberInOrganizationById",
        )
        return result

    @operation("PATCH /v1/orgs/{organizationId}/members/{userId}")
    async def update_member(
        self, organization_id: str, user_id: str, *, role: Role | str | None
    ) -> Member:
        """Change a member's role (``None``: a guest)."""
        members = _members(organization_id)
        result: Member = await self._client.send(
            "PATCH",
            f"{members}/{seg(user_id, 'user_id')}",
            Member,
            body={"role": role},
            invalidates=[members],
            operation="updateMemberInOrganizationById",
        )
        return result

    @operation("DELETE /v1/orgs/{organizationId}/members/{userId}")
    async def remove_member(self, organization_id: str, user_id: str) -> None:
        """Remove a member (with their direct grants and team memberships)."""
        members = _members(organization_id)
        await self._client.send(
            "DELETE",
            f"{members}/{seg(user_id, 'user_id')}",
            invalidates=[members],
            operation="removeMemberFromOrganizationById",
        )

    @operation("GET /v1/orgs/{organizationId}/members/{userId}/spaces")
    def member_spaces(
        self,
        organization_id: str,
        user_id: str,
        *,
        limit: int | None = None,
        max_items: int | None = None,
        read: ReadMode | None = None,
    ) -> AsyncPager[MemberSpace]:
        """The spaces the member can reach, with their role in each."""
        return AsyncPager(
            self._client,
            f"{_members(organization_id)}/{seg(user_id, 'user_id')}/spaces",
            MemberSpace,
            limit=limit,
            max_items=max_items,
            read=read,
            operation="listSpacesForOrganizationMember",
        )


def _members(organization_id: str) -> str:
    return f"/orgs/{seg(organization_id, 'organization_id')}/members"


class Users(Resource):
    @operation("GET /v1/user")
    async def me(self, *, read: ReadMode | None = None) -> User:
        result: User = await self._client.get(
            "/user", User, read=read, operation="getAuthenticatedUser"
        )
        return result

    @operation("GET /v1/users/{userId}")
    async def get(self, user_id: str, *, read: ReadMode | None = None) -> User:
        result: User = await self._client.get(
            f"/users/{seg(user_id, 'user_id')}", User, read=read, operation="getUserById"
        )
        return result
