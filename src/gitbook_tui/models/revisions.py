"""Revisions of a space's content: pages (nested), files, reusable contents, tags, imports."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import Field

from .change_requests import ChangeRequest
from .common import ApiModel, ContentRef, GitBlob, GitCommit, Open, Urls, Variables
from .lenient import Count, Timestamp

__all__ = [
    "ComputedSource",
    "CoverSize",
    "File",
    "FileDimensions",
    "ImportResult",
    "PageCover",
    "PageLayout",
    "PageTag",
    "PageType",
    "ReusableContent",
    "Revision",
    "RevisionPage",
    "RevisionPages",
    "RevisionTag",
    "RevisionType",
]


class RevisionType(StrEnum):
    """How a revision was created."""

    edits = "edits"
    merge = "merge"
    rollback = "rollback"
    update = "update"
    computed = "computed"


class PageType(StrEnum):
    """Kind of page in a revision."""

    document = "document"
    group = "group"
    link = "link"
    computed = "computed"


class CoverSize(StrEnum):
    """Size of a page cover."""

    hero = "hero"
    full = "full"
    background = "background"


class FileDimensions(ApiModel):
    """Width and height of an image file."""

    width: float | None = None
    height: float | None = None


class File(ApiModel):
    """A file stored in a revision."""

    id: str
    name: str | None = None
    contentType: str | None = None
    downloadURL: str | None = None
    size: Count | None = None
    dimensions: FileDimensions | None = None
    git: GitBlob | None = None


class PageLayout(ApiModel):
    """Layout options of a document page."""

    width: str | None = None
    cover: bool | None = None
    coverSize: Open[CoverSize] | None = None
    coverMask: str | None = None
    title: bool | None = None
    description: bool | None = None
    tableOfContents: bool | None = None
    outline: bool | None = None
    pagination: bool | None = None
    metadata: bool | None = None
    tags: bool | None = None
    actions: bool | None = None
    anchors: bool | None = None


class PageCover(ApiModel):
    """Cover image of a page (``ref``/``refDark`` are file or URL references)."""

    ref: ContentRef | None = None
    refDark: ContentRef | None = None
    yPos: float | None = None
    height: float | None = None
    textColor: str | None = None
    textColorDark: str | None = None


class ComputedSource(ApiModel):
    """Source of computed content, e.g. ``{type: "builtin:openapi", dependencies, props}``."""

    type: str | None = None
    dependencies: dict[str, Any] = Field(default_factory=dict)
    props: dict[str, Any] = Field(default_factory=dict)


class PageTag(ApiModel):
    """A tag attached to a page."""

    tag: ContentRef | None = None
    primary: bool | None = None


class RevisionPage(ApiModel):
    """A page of a revision (document, group, link or computed); ``pages`` nests children."""

    id: str
    title: str | None = None
    linkTitle: str | None = None
    emoji: str | None = None
    icon: str | None = None
    createdAt: Timestamp | None = None
    updatedAt: Timestamp | None = None
    type: Open[PageType] | None = None
    kind: str | None = None
    markdown: str | None = None
    document: dict[str, Any] | None = None
    urls: Urls | None = None
    slug: str | None = None
    path: str | None = None
    description: str | None = None
    documentId: str | None = None
    pages: list[RevisionPage] = Field(default_factory=list)
    git: GitBlob | None = None
    layout: PageLayout | str | None = None
    cover: PageCover | None = None
    variables: Variables | None = None
    hidden: bool | None = None
    noIndex: bool | None = None
    noRobotsIndex: bool | None = None
    computed: ComputedSource | None = None
    computedSeed: str | None = None
    target: ContentRef | None = None
    href: str | None = None
    condition: str | None = None
    tags: list[PageTag] = Field(default_factory=list)

    def walk(self) -> list[RevisionPage]:
        """This page followed by all its descendants, depth first."""
        result = [self]
        for child in self.pages:
            result.extend(child.walk())
        return result


class RevisionPages(ApiModel):
    """Answer of the ``.../content/pages`` and ``.../revisions/{id}/pages`` endpoints."""

    pages: list[RevisionPage] = Field(default_factory=list)


class ReusableContent(ApiModel):
    """A reusable content block of a revision."""

    id: str
    title: str | None = None
    document: Any = None
    git: GitBlob | None = None
    computed: ComputedSource | None = None
    computedSeed: str | None = None


class RevisionTag(ApiModel):
    """A tag available in a revision."""

    slug: str | None = None
    label: str | None = None
    color: str | None = None
    emoji: str | None = None
    icon: str | None = None


class Revision(ApiModel):
    """A content revision of a space or change request (edits, merge, rollback, update, computed)."""

    object: str = "revision"
    id: str
    type: Open[RevisionType] | None = None
    parents: list[str] = Field(default_factory=list)
    pages: list[RevisionPage] = Field(default_factory=list)
    files: list[File] = Field(default_factory=list)
    reusableContents: list[ReusableContent] = Field(default_factory=list)
    tags: list[RevisionTag] = Field(default_factory=list)
    variables: Variables | None = None
    createdAt: Timestamp | None = None
    git: GitCommit | None = None
    urls: Urls | None = None
    mergedFrom: ChangeRequest | None = None
    sourceRevision: str | None = None

    def walk_pages(self) -> list[RevisionPage]:
        """Every page of the revision, depth first."""
        result: list[RevisionPage] = []
        for page in self.pages:
            result.extend(page.walk())
        return result


class ImportResult(ApiModel):
    """Answer of a content import."""

    revision: str | None = None
    importedResources: int | None = None
    totalResources: int | None = None
