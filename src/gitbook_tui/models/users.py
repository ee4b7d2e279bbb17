"""Users, organization members, content permission entries and contributors."""

from __future__ import annotations

from .common import ApiModel, Open, Role, Urls
from .lenient import Count, Timestamp

__all__ = ["Contributor", "Member", "PermissionEntry", "User"]


class User(ApiModel):
    """A GitBook user (also what ``GET /v1/user`` returns for the token's owner)."""

    object: str = "user"
    id: str
    displayName: str | None = None
    email: str | None = None
    photoURL: str | None = None
    urls: Urls | None = None


class Member(ApiModel):
    """Membership of a user in an organization; ``role`` is ``None`` for guests."""

    object: str = "member"
    id: str
    role: Open[Role] | None = None
    user: User | None = None
    disabled: bool | None = None
    joinedAt: Timestamp | None = None
    lastSeenAt: Timestamp | None = None
    sso: bool | None = None
    spaces: Count | None = None
    teams: Count | None = None
    sites: Count | None = None


class PermissionEntry(ApiModel):
    """A user's role on a space or collection (permission lists)."""

    permission: Open[Role] | None = None
    user: User | None = None


class Contributor(ApiModel):
    """A user who contributed to content (comment repliers, change request contributors)."""

    user: User | None = None
    count: Count | None = None
    updatedAt: Timestamp | None = None
    actionType: str | None = None
