"""Links found in content, their status and statistics, and backlinks to files."""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field

from .common import ApiModel, Open, Page

__all__ = [
    "Backlink",
    "BrokenLinkStats",
    "ContentLocation",
    "LinkItem",
    "LinkList",
    "LinkStats",
    "LinkStatus",
    "VersionContext",
]


class LinkStatus(StrEnum):
    """Status of a link found in content."""

    ok = "ok"
    broken = "broken"
    in_app = "in-app"


class VersionContext(ApiModel):
    """Version in which a location is found: ``{type: "revision", revision}``."""

    type: str | None = None
    revision: str | None = None
    changeRequest: str | None = None


class ContentLocation(ApiModel):
    """A location in content (a link target, where a link is found, a backlink)."""

    kind: str | None = None
    organization: str | None = None
    space: str | None = None
    versionContext: VersionContext | None = None
    file: str | None = None
    page: str | None = None
    anchor: str | None = None
    url: str | None = None


class Backlink(ContentLocation):
    """A place in content that points to a file."""


class LinkItem(ApiModel):
    """A link found in content, with its status and where it appears."""

    status: Open[LinkStatus] | None = None
    relation: str | None = None
    targetReference: ContentLocation | None = None
    locationReferences: list[ContentLocation] = Field(default_factory=list)


class BrokenLinkStats(ApiModel):
    """Counts of broken links."""

    total: int | None = None
    changeRequest: int | None = None


class LinkStats(ApiModel):
    """Link statistics of a link list."""

    total: int | None = None
    broken: BrokenLinkStats | None = None


class LinkList(Page[LinkItem]):
    """A paged list of links with ``stats``."""

    stats: LinkStats | None = None
