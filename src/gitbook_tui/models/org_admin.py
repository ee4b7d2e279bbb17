"""Organization administration: teams, invites and translation settings."""

from __future__ import annotations

from pydantic import Field

from .common import ApiModel, Open, Role, Urls
from .lenient import Count, Timestamp
from .spaces import Space
from .users import Member

__all__ = [
    "Invite",
    "InviteResult",
    "MemberSpace",
    "Team",
    "TeamGrant",
    "TeamMember",
    "TeamMembership",
    "TeamPermissions",
    "TranslationSettings",
    "TranslationSettingsPermissions",
]


class TeamPermissions(ApiModel):
    """What the caller may do with a team."""

    admin: bool | None = None
    view: bool | None = None


class Team(ApiModel):
    """A team of organization members (only ``object`` and ``id`` when nested elsewhere)."""

    object: str = "team"
    id: str
    title: str | None = None
    members: Count | None = None
    spaces: Count | None = None
    createdAt: Timestamp | None = None
    permissions: TeamPermissions | None = None


class Invite(ApiModel):
    """A link invite to the organization."""

    object: str = "invite"
    id: str
    role: Open[Role] | None = None
    redundant: bool | None = None


class InviteResult(ApiModel):
    """Answer of ``POST /v1/orgs/{organizationId}/invites``."""

    users: list[str] = Field(default_factory=list)
    invited: Count | None = None
    failedSSOEmails: list[str] = Field(default_factory=list)


class TranslationSettingsPermissions(ApiModel):
    """What the caller may do with translation settings."""

    view: bool | None = None
    edit: bool | None = None


class TranslationSettings(ApiModel):
    """Translation settings of an organization: a title and target languages."""

    object: str = "translation-settings"
    id: str
    title: str | None = None
    languages: list[str] = Field(default_factory=list)
    createdAt: Timestamp | None = None
    updatedAt: Timestamp | None = None
    permissions: TranslationSettingsPermissions | None = None
    urls: Urls | None = None


class TeamMembership(ApiModel):
    """A member's place in a team (``owner`` or ``member``)."""

    role: str | None = None


class TeamMember(ApiModel):
    """One member of a team: the organization member and their team role."""

    organization: Member | None = None
    team: TeamMembership | None = None


class TeamGrant(ApiModel):
    """A team's role on a space or collection (``GET …/permissions/teams``)."""

    permission: Open[Role] | None = None
    team: Team | None = None


class MemberSpace(ApiModel):
    """A space an organization member can reach, with their role there."""

    permission: Open[Role] | None = None
    space: Space | None = None
