"""Semantic changes between revisions: pages, files, reusable contents and tags changed."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import Field

from .change_requests import ChangeRequest
from .common import ApiModel, Open
from .lenient import Count
from .revisions import PageType

__all__ = [
    "ChangedFile",
    "ChangedPage",
    "ChangedPageParent",
    "ChangedReusableContent",
    "ChangedTag",
    "RevisionSemanticChange",
    "RevisionSemanticChanges",
    "SemanticChangeType",
]


class SemanticChangeType(StrEnum):
    """Kind of semantic change between two revisions."""

    page_created = "page_created"
    page_edited = "page_edited"
    page_deleted = "page_deleted"
    page_moved = "page_moved"
    file_created = "file_created"
    file_edited = "file_edited"
    file_deleted = "file_deleted"
    variables_edited = "variables_edited"
    custom_fields_edited = "custom_fields_edited"
    reusable_content_created = "reusable_content_created"
    reusable_content_edited = "reusable_content_edited"
    reusable_content_deleted = "reusable_content_deleted"
    tag_created = "tag_created"
    tag_deleted = "tag_deleted"
    tag_edited = "tag_edited"


class ChangedPage(ApiModel):
    """A page as described in a semantic change."""

    id: str
    type: Open[PageType] | None = None
    title: str | None = None
    path: str | None = None


class ChangedPageParent(ApiModel):
    """Parent of a moved page, before and after the move."""

    before: ChangedPage | None = None
    after: ChangedPage | None = None


class ChangedFile(ApiModel):
    """A file as described in a semantic change."""

    id: str
    name: str | None = None
    contentType: str | None = None
    downloadURL: str | None = None


class ChangedReusableContent(ApiModel):
    """A reusable content as described in a semantic change."""

    id: str
    title: str | None = None
    document: str | None = None


class ChangedTag(ApiModel):
    """A tag as described in a semantic change."""

    slug: str | None = None
    label: str | None = None


class RevisionSemanticChange(ApiModel):
    """One semantic change; ``attributes`` maps an attribute to ``{before, after}``."""

    type: Open[SemanticChangeType]
    page: ChangedPage | None = None
    file: ChangedFile | None = None
    reusableContent: ChangedReusableContent | None = None
    tag: ChangedTag | None = None
    parent: ChangedPageParent | None = None
    attributes: dict[str, Any] = Field(default_factory=dict)
    variables: dict[str, Any] | None = None


class RevisionSemanticChanges(ApiModel):
    """Semantic changes of a change request against its base (``.../changes``)."""

    changes: list[RevisionSemanticChange] = Field(default_factory=list)
    more: Count | None = None
    mergedFrom: ChangeRequest | None = None
