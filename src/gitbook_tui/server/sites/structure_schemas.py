"""Request bodies of the site structure routes, and the checks of their move positions."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Literal
from urllib.parse import urlsplit

from pydantic import Field, field_validator

from ...models.paths import dot_segment
from ..core.errors import bad_request
from ..core.schemas import Body, Position, PositionTarget
from .rules import check_path

# Redirect source paths (section 2.9).
SOURCE_RE = re.compile(
    r"^\/(?:[A-Za-z0-9\-._~]|%[0-9A-Fa-f]{2})+(?:\/(?:[A-Za-z0-9\-._~]|%[0-9A-Fa-f]{2})+)*$"
)
SOURCE_RULE = (
    "must be a path like '/old/page': '/'-separated segments of letters, digits, "
    "'-', '.', '_', '~' or %XX escapes"
)


def _normalised(path: str) -> None:
    """A redirect's paths are normalised: a '.' or '..' segment (also percent-encoded) would
    lead a visitor elsewhere than the path says (``/../../etc/passwd``)."""
    found = dot_segment(path)
    if found is not None:
        raise ValueError(f"must not hold a '.' or '..' segment (also encoded): '{found}'")


def _source(value: str | None) -> str | None:
    if value is not None:
        if not SOURCE_RE.match(value):
            raise ValueError(SOURCE_RULE)
        _normalised(value)
    return value


# -- request bodies ---------------------------------------------------------------------


class SectionCreate(Body):
    spaceId: str | None
    title: str | None = Field(None, min_length=2, max_length=128)
    icon: str | None = Field(None, max_length=50)
    description: str | None = Field(None, max_length=256)
    draft: bool = False
    siteSectionGroupId: str | None = Field(None, max_length=64)


class SectionUpdate(Body):
    title: str | None = Field(None, min_length=2, max_length=128)
    path: str | None = Field(None, min_length=1, max_length=100)
    defaultSiteSpace: str | None = None
    condition: str | None = Field(None, max_length=1024)
    icon: str | None = Field(None, max_length=50)
    description: str | None = Field(None, max_length=256)
    draft: bool | None = None
    siteSectionGroupId: str | None = Field(None, max_length=64)

    @field_validator("path")
    @classmethod
    def _path(cls, value: str | None) -> str | None:
        return check_path(value)


class Move(Body):
    """Without a position (or with an empty one) the item moves to the end, as the official
    description says."""

    position: Position | None = None


class GroupCreate(Body):
    title: str = Field(min_length=1, max_length=100)
    icon: str | None = Field(None, max_length=50)
    sections: list[str] = Field(default_factory=list, max_length=100)
    parent: str | None = Field(None, max_length=64)
    draft: bool = False


class GroupUpdate(Body):
    title: str | None = Field(None, min_length=1, max_length=100)
    localizedTitle: dict[str, str] | None = None
    icon: str | None = Field(None, max_length=50)
    draft: bool | None = None
    parentSectionGroupId: str | None = Field(None, max_length=64)


class GroupPointer(Body):
    type: Literal["site-section", "site-section-group"]
    id: str = Field(min_length=1, max_length=64)


class GroupPosition(Body):
    before: GroupPointer | None = None
    after: GroupPointer | None = None


class GroupMove(Body):
    """Without a position the group moves to the end of its level."""

    position: GroupPosition | None = None


class SiteSpaceCreate(Body):
    spaceId: str | None
    sectionId: str | None = None
    title: str | None = Field(None, min_length=2, max_length=128)
    draft: bool = False


class SiteSpaceUpdate(Body):
    path: str | None = Field(None, min_length=1, max_length=100)
    condition: str | None = Field(None, max_length=1024)
    spaceId: str | None = None
    hidden: bool | None = None
    draft: bool | None = None

    @field_validator("path")
    @classmethod
    def _path(cls, value: str | None) -> str | None:
        return check_path(value)


class Destination(Body):
    kind: Literal["site-section", "site-space", "site-page", "external", "path"]
    siteSectionId: str | None = None
    siteSpaceId: str | None = None
    pageId: str | None = None
    url: str | None = Field(None, max_length=2048)
    spaceId: str | None = None
    path: str | None = Field(None, max_length=1024)

    @field_validator("path")
    @classmethod
    def _path(cls, value: str | None) -> str | None:
        if value is not None:
            _normalised(value)
        return value

    @field_validator("url")
    @classmethod
    def _url(cls, value: str | None) -> str | None:
        if value is not None:
            _normalised(urlsplit(value).path)
        return value


class RedirectCreate(Body):
    source: str = Field(max_length=512)
    destination: Destination
    draft: bool = False
    permanent: bool = False
    captureWildcard: bool = False

    @field_validator("source")
    @classmethod
    def _check_source(cls, value: str | None) -> str | None:
        return _source(value)


class RedirectUpdate(Body):
    source: str | None = Field(None, max_length=512)
    destination: Destination | None = None
    draft: bool | None = None
    permanent: bool | None = None
    captureWildcard: bool | None = None

    @field_validator("source")
    @classmethod
    def _check_source(cls, value: str | None) -> str | None:
        return _source(value)


def _anchor(target: PositionTarget | None, kind: str, field: str) -> str | None:
    if target is None:
        return None
    key = "siteSection" if kind == "site-section" else "siteSpace"
    anchor = getattr(target, key)
    if target.type != kind or not anchor:
        raise bad_request(f"{field}: give {{type: '{kind}', {key}: <id>}}")
    return str(anchor)


def anchors(position: Position | None, kind: str) -> tuple[str | None, str | None]:
    """(before, after) ids of a move; both None move the item to the end."""
    if position is None:
        return None, None
    return (
        _anchor(position.before, kind, "position.before"),
        _anchor(position.after, kind, "position.after"),
    )


def other_anchors(
    before: str | None, after: str | None, item_id: str, noun: str
) -> Iterator[tuple[str, str]]:
    """The (field, id) anchors given, each refused (400) if it is the moved item itself.

    A generator, so that each anchor is checked right before the caller looks it up: the
    first problem in field order is the one reported.
    """
    for field, anchor in (("position.before", before), ("position.after", after)):
        if anchor is None:
            continue
        if anchor == item_id:
            raise bad_request(f"{field}: cannot place {noun} relative to itself")
        yield field, anchor
