"""Organization administration: teams, invites and translation settings."""

from __future__ import annotations

from pydantic import Field

from .common import ApiModel, Open, Role, Urls
from .lenient import Count, Timestamp

__all__ = [
    "Invite",
    "InviteResult",
    "Team",
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
