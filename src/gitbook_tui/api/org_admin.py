"""Organization administration operations: invites, link invites, teams and translations."""

from __future__ import annotations

import builtins
from typing import Any

from ..models import Invite, InviteResult, Role, Team, TeamMember, TranslationSettings
from .base import ReadMode
from .pagination import AsyncPager
from .resource import Resource, body, operation, seg


def _org(organization_id: str) -> str:
    return f"/orgs/{seg(organization_id, 'organization_id')}"


class OrgAdmin(Resource):
    # -- invites --------------------------------------------------------------------------
    @operation("POST /v1/orgs/{organizationId}/invites")
    async def invite(
        self,
        organization_id: str,
        emails: builtins.list[str | dict[str, Any]],
        *,
        role: Role | str | None = None,
        sso: bool | None = None,
    ) -> InviteResult:
        """Invite ``emails`` (or ``{email, role}`` items) as pending members with ``role``
        (omitted: the organization's default role; ``NULL``: guests)."""
        org = _org(organization_id)
        result: InviteResult = await self._client.send(
            "POST",
            f"{org}/invites",
            InviteResult,
            body=body(emails=emails, role=role, sso=sso),
            invalidates=[f"{org}/members"],
            operation="inviteUsersToOrganization",
        )
        return result

    @operation("POST /v1/orgs/{organizationId}/invites/{inviteId}")
    async def resend_invite(self, organization_id: str, invite_id: str) -> None:
        """Use invite ``invite_id`` as the caller: join with a link invite, or accept the
        caller's own email invite."""
        org = _org(organization_id)
        await self._client.send(
            "POST",
            f"{org}/invites/{seg(invite_id, 'invite_id')}",
            invalidates=["/orgs", "/user"],
            operation="joinOrganizationWithInvite",
        )

    # -- link invites ---------------------------------------------------------------------
    @operation("GET /v1/orgs/{organizationId}/link-invites")
    def link_invites(
        self,
        organization_id: str,
        *,
        limit: int | None = None,
        max_items: int | None = None,
        read: ReadMode | None = None,
    ) -> AsyncPager[Invite]:
        return AsyncPager(
            self._client,
            f"{_org(organization_id)}/link-invites",
            Invite,
            limit=limit,
            max_items=max_items,
            read=read,
            operation="listOrganizationInviteLinks",
        )

    @operation("POST /v1/orgs/{organizationId}/link-invites")
    async def create_link_invite(self, organization_id: str, role: Role | str | None) -> Invite:
        """A link invite giving ``role`` (``None``: joins as a guest)."""
        result: Invite = await self._client.send(
            "POST",
            f"{_org(organization_id)}/link-invites",
            Invite,
            body={"role": role},
            operation="createOrganizationInvite",
        )
        return result

    @operation("GET /v1/orgs/{organizationId}/link-invites/{inviteId}")
    async def link_invite(
        self, organization_id: str, invite_id: str, *, read: ReadMode | None = None
    ) -> Invite:
        result: Invite = await self._client.get(
            f"{_org(organization_id)}/link-invites/{seg(invite_id, 'invite_id')}",
            Invite,
            read=read,
            operation="getOrganizationInviteLink",
        )
        return result

    @operation("PATCH /v1/orgs/{organizationId}/link-invites/{inviteId}")
    async def update_link_invite(
        self, organization_id: str, invite_id: str, role: Role | str | None
    ) -> Invite:
        result: Invite = await self._client.send(
            "PATCH",
            f"{_org(organization_id)}/link-invites/{seg(invite_id, 'invite_id')}",
            Invite,
            body={"role": role},
            operation="updateOrganizationInviteById",
        )
        return result

    @operation("DELETE /v1/orgs/{organizationId}/link-invites/{inviteId}")
    async def delete_link_invite(self, organization_id: str, invite_id: str) -> None:
        await self._client.send(
            "DELETE",
            f"{_org(organization_id)}/link-invites/{seg(invite_id, 'invite_id')}",
            operation="deleteOrganizationInviteById",
        )

    # -- teams ----------------------------------------------------------------------------
    @operation("GET /v1/orgs/{organizationId}/teams")
    def teams(
        self,
        organization_id: str,
        *,
        owner: str | None = None,
        title: str | None = None,
        limit: int | None = None,
        max_items: int | None = None,
        read: ReadMode | None = None,
    ) -> AsyncPager[Team]:
        """Teams; ``owner``: only those this member can manage; ``title`` contains."""
        return AsyncPager(
            self._client,
            f"{_org(organization_id)}/teams",
            Team,
            params={"owner": owner, "title": title},
            limit=limit,
            max_items=max_items,
            read=read,
            operation="listTeamsInOrganizationById",
        )

    @operation("PUT /v1/orgs/{organizationId}/teams")
    async def create_team(
        self, organization_id: str, title: str, *, members: builtins.list[str] | None = None
    ) -> Team:
        """A new team of ``members`` (user ids of organization members)."""
        org = _org(organization_id)
        result: Team = await self._client.send(
            "PUT",
            f"{org}/teams",
            Team,
            body=body(title=title, members=members),
            invalidates=[f"{org}/members"],
            operation="createOrganizationTeam",
        )
        return result

    @operation("GET /v1/orgs/{organizationId}/teams/{teamId}")
    async def team(
        self, organization_id: str, team_id: str, *, read: ReadMode | None = None
    ) -> Team:
        result: Team = await self._client.get(
            f"{_org(organization_id)}/teams/{seg(team_id, 'team_id')}",
            Team,
            read=read,
            operation="getTeamInOrganizationById",
        )
        return result

    @operation("PATCH /v1/orgs/{organizationId}/teams/{teamId}")
    async def update_team(self, organization_id: str, team_id: str, title: str) -> Team:
        org = _org(organization_id)
        result: Team = await self._client.send(
            "PATCH",
            f"{org}/teams/{seg(team_id, 'team_id')}",
            Team,
            body={"title": title},
            invalidates=[f"{org}/members"],
            operation="updateTeamInOrganizationById",
        )
        return result

    @operation("DELETE /v1/orgs/{organizationId}/teams/{teamId}")
    async def delete_team(self, organization_id: str, team_id: str) -> None:
        """Delete the team and the permissions it was granted."""
        org = _org(organization_id)
        await self._client.send(
            "DELETE",
            f"{org}/teams/{seg(team_id, 'team_id')}",
            invalidates=[f"{org}/members", "/spaces", "/collections"],
            operation="removeTeamFromOrganizationById",
        )

    @operation("GET /v1/orgs/{organizationId}/teams/{teamId}/members")
    def team_members(
        self,
        organization_id: str,
        team_id: str,
        *,
        limit: int | None = None,
        max_items: int | None = None,
        read: ReadMode | None = None,
    ) -> AsyncPager[TeamMember]:
        """The members of a team."""
        return AsyncPager(
            self._client,
            f"{_org(organization_id)}/teams/{seg(team_id, 'team_id')}/members",
            TeamMember,
            limit=limit,
            max_items=max_items,
            read=read,
            operation="listTeamMembersInOrganizationById",
        )

    @operation("PUT /v1/orgs/{organizationId}/teams/{teamId}/members")
    async def update_team_members(
        self,
        organization_id: str,
        team_id: str,
        *,
        add: builtins.list[str] | None = None,
        remove: builtins.list[str] | None = None,
    ) -> None:
        """Add and remove team members (user ids or emails)."""
        org = _org(organization_id)
        team = f"{org}/teams/{seg(team_id, 'team_id')}"
        await self._client.send(
            "PUT",
            f"{team}/members",
            body=body(add=add, remove=remove),
            invalidates=[f"{org}/teams", f"{org}/members"],
            operation="updateMembersInOrganizationTeam",
        )

    # -- translations ---------------------------------------------------------------------
    @operation("GET /v1/orgs/{organizationId}/translations")
    def translations(
        self,
        organization_id: str,
        *,
        limit: int | None = None,
        max_items: int | None = None,
        read: ReadMode | None = None,
    ) -> AsyncPager[TranslationSettings]:
        return AsyncPager(
            self._client,
            f"{_org(organization_id)}/translations",
            TranslationSettings,
            limit=limit,
            max_items=max_items,
            read=read,
            operation="listTranslations",
        )

    @operation("POST /v1/orgs/{organizationId}/translations")
    async def create_translation(
        self, organization_id: str, title: str, *, languages: builtins.list[str] | None = None
    ) -> TranslationSettings:
        result: TranslationSettings = await self._client.send(
            "POST",
            f"{_org(organization_id)}/translations",
            TranslationSettings,
            body=body(title=title, languages=languages),
            operation="createTranslation",
        )
        return result

    @operation("GET /v1/orgs/{organizationId}/translations/{translationSettingsId}")
    async def translation(
        self, organization_id: str, translation_settings_id: str, *, read: ReadMode | None = None
    ) -> TranslationSettings:
        result: TranslationSettings = await self._client.get(
            f"{_org(organization_id)}/translations/{seg(translation_settings_id, 'translation_settings_id')}",
            TranslationSettings,
            read=read,
            operation="getTranslation",
        )
        return result

    @operation("PUT /v1/orgs/{organizationId}/translations/{translationSettingsId}")
    async def update_translation(
        self,
        organization_id: str,
        translation_settings_id: str,
        title: str,
        *,
        languages: builtins.list[str] | None = None,
    ) -> TranslationSettings:
        """Replace the settings (omitted ``languages``: none)."""
        result: TranslationSettings = await self._client.send(
            "PUT",
            f"{_org(organization_id)}/translations/{seg(translation_settings_id, 'translation_settings_id')}",
            TranslationSettings,
            body=body(title=title, languages=languages),
            operation="updateTranslation",
        )
        return result

    @operation("DELETE /v1/orgs/{organizationId}/translations/{translationSettingsId}")
    async def delete_translation(self, organization_id: str, translation_settings_id: str) -> None:
        await self._client.send(
            "DELETE",
            f"{_org(organization_id)}/translations/{seg(translation_settings_id, 'translation_settings_id')}",
            operation="deleteTranslation",
        )
