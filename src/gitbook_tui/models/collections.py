"""Collections: groups of spaces inside an organization."""

from __future__ import annotations

from .common import ApiModel, Open, Role, Urls

__all__ = ["Collection", "CollectionPermissions"]


class CollectionPermissions(ApiModel):
    """What the caller may do with a collection."""

    view: bool | None = None
    admin: bool | None = None
    viewInviteLinks: bool | None = None
    create: bool | None = None


class Collection(ApiModel):
    """A collection of spaces (may be nested in a parent collection)."""

    object: str = "collection"
    id: str
    title: str
    description: str | None = None
    organization: str | None = None
    parent: str | None = None
    defaultLevel: Open[Role] | None = None
    urls: Urls | None = None
    permissions: CollectionPermissions | None = None
