"""Spaces: containers of pages and files, with their visibility, edit mode and git sync state."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from .common import ApiModel, Open, Role, Urls
from .lenient import Count, Timestamp

__all__ = [
    "EditMode",
    "GitSync",
    "Space",
    "SpacePermissions",
    "SpaceVisibility",
    "VisitorAuth",
]


class SpaceVisibility(StrEnum):
    """Who can access a space's published content."""

    public = "public"
    unlisted = "unlisted"
    share_link = "share-link"
    visitor_auth = "visitor-auth"
    in_collection = "in-collection"
    private = "private"


class EditMode(StrEnum):
    """How a space can be edited: directly (``live``) or not at all (``locked``)."""

    live = "live"
    locked = "locked"


class GitSync(ApiModel):
    """Git synchronization state of a space or site."""

    repoName: str | None = None
    installationProvider: str | None = None
    installationStatus: str | None = None
    installationId: str | None = None
    integration: str | None = None
    url: str | None = None
    updatedAt: Timestamp | None = None
    operation: dict[str, Any] | None = None


class VisitorAuth(ApiModel):
    """Visitor authentication settings of a space."""

    backend: str | None = None
    integration: str | None = None


class SpacePermissions(ApiModel):
    """What the caller may do with a space."""

    view: bool | None = None
    access: bool | None = None
    admin: bool | None = None
    viewInviteLinks: bool | None = None
    edit: bool | None = None
    triggerGitSync: bool | None = None
    comment: bool | None = None
    merge: bool | None = None
    review: bool | None = None
    installIntegration: bool | None = None


class Space(ApiModel):
    """A space: a container of pages and files."""

    object: str = "space"
    id: str
    title: str
    emoji: str | None = None
    visibility: Open[SpaceVisibility] | None = None
    createdAt: Timestamp | None = None
    updatedAt: Timestamp | None = None
    deletedAt: Timestamp | None = None
    editMode: Open[EditMode] | None = None
    type: str | None = None
    urls: Urls | None = None
    organization: str | None = None
    parent: str | None = None
    language: str | None = None
    gitSync: GitSync | None = None
    visitorAuth: VisitorAuth | None = None
    revision: str | None = None
    defaultLevel: Open[Role] | None = None
    comments: Count | None = None
    changeRequests: Count | None = None
    changeRequestsOpen: Count | None = None
    changeRequestsDraft: Count | None = None
    mergeRules: dict[str, Any] | None = None
    permissions: SpacePermissions | None = None

    @property
    def is_deleted(self) -> bool:
        """True when the space is in the trash (``deletedAt`` is set)."""
        return self.deletedAt is not None
