"""Space content: revisions, pages, files, links, backlinks, search, imports and content changes."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import Field

from .change_requests import ChangeRequest
from .common import (
    ApiModel,
    ContentRef,
    DocumentBody,
    GitBlob,
    GitCommit,
    Open,
    Page,
    Urls,
    Variables,
)

__all__ = [
    "Backlink",
    "BrokenLinkStats",
    "ChangeRequestContentChange",
    "ChangeRequestContentUpdate",
    "ChangedFile",
    "ChangedPage",
    "ChangedPageParent",
    "ChangedReusableContent",
    "ChangedTag",
    "ComputedSource",
    "ContentChangeOperation",
    "ContentLocation",
    "CoverSize",
    "File",
    "FileDimensions",
    "ImportResult",
    "InsertFile",
    "LinkItem",
    "LinkList",
    "LinkStats",
    "LinkStatus",
    "PageCover",
    "PageLayout",
    "PageTag",
    "PageType",
    "ReusableContent",
    "Revision",
    "RevisionPage",
    "RevisionPages",
    "RevisionSemanticChange",
    "RevisionSemanticChanges",
    "RevisionTag",
    "RevisionType",
    "SearchAncestor",
    "SearchSection",
    "SemanticChangeType",
    "SpaceSearchItem",
    "UpdatedPage",
    "UpdatedPageRef",
    "VersionContext",
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


class LinkStatus(StrEnum):
    """Status of a link found in content."""

    ok = "ok"
    broken = "broken"
    in_app = "in-app"


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


class ContentChangeOperation(StrEnum):
    """Operation of one item of a change request content batch."""

    update_page = "update_page"
    insert_page = "insert_page"
    delete_page = "delete_page"
    revert_page = "revert_page"
    insert_files = "insert_files"


# --- files, pages, revisions ------------------------------------------------------------------------


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
    size: int | None = None
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
    createdAt: datetime | None = None
    updatedAt: datetime | None = None
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
    createdAt: datetime | None = None
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


# --- links, backlinks, search, import ---------------------------------------------------------------


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


class SearchSection(ApiModel):
    """A matching section of a page in search results."""

    id: str
    title: str | None = None
    path: str | None = None
    body: str | None = None
    score: float | None = None
    resultType: str | None = None
    urls: Urls | None = None


class SearchAncestor(ApiModel):
    """An ancestor page of a search result."""

    title: str | None = None


class SpaceSearchItem(ApiModel):
    """A page matching a search, with its matching sections."""

    id: str
    title: str | None = None
    description: str | None = None
    path: str | None = None
    score: float | None = None
    rank: int | None = None
    resultType: str | None = None
    sections: list[SearchSection] = Field(default_factory=list)
    ancestors: list[SearchAncestor] = Field(default_factory=list)
    urls: Urls | None = None


class ImportResult(ApiModel):
    """Answer of a content import."""

    revision: str | None = None
    importedResources: int | None = None
    totalResources: int | None = None


# --- semantic changes ---------------------------------------------------------------------------------


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
    more: int | None = None
    mergedFrom: ChangeRequest | None = None


# --- change request content batch -----------------------------------------------------------------------


class InsertFile(ApiModel):
    """A file to upload in an ``insert_files`` change (from ``url`` or ``base64``)."""

    name: str
    ref: str | None = None
    contentType: str | None = None
    url: str | None = None
    base64: str | None = None


class ChangeRequestContentChange(ApiModel):
    """One item of ``POST .../change-requests/{id}/content`` (``{changes: [...]}``).

    Dump with ``model_dump(mode="json")``: fields never set are left out, while an explicit
    ``into=None`` (move to the root) is kept as ``null``.
    """

    operation: Open[ContentChangeOperation]
    page: str | None = None
    document: DocumentBody | None = None
    title: str | None = None
    slug: str | None = None
    emoji: str | None = None
    icon: str | None = None
    description: str | None = None
    hidden: bool | None = None
    noIndex: bool | None = None
    noRobotsIndex: bool | None = None
    condition: str | None = None
    into: str | None = None
    at: int | None = None
    ref: str | None = None
    revision: str | None = None
    block: list[str] | None = None
    files: list[InsertFile] | None = None

    @classmethod
    def update_markdown(cls, page: str, markdown: str) -> ChangeRequestContentChange:
        """Replace the body of ``page`` with ``markdown``."""
        return cls(
            operation=ContentChangeOperation.update_page,
            page=page,
            document=DocumentBody(markdown=markdown),
        )

    @classmethod
    def insert_markdown(
        cls, title: str, markdown: str, into: str | None = None, at: int | None = None
    ) -> ChangeRequestContentChange:
        """Create a page titled ``title`` with body ``markdown`` (under ``into`` if given)."""
        fields: dict[str, Any] = {
            "operation": ContentChangeOperation.insert_page,
            "title": title,
            "document": DocumentBody(markdown=markdown),
        }
        if into is not None:
            fields["into"] = into
        if at is not None:
            fields["at"] = at
        return cls.model_validate(fields)

    @classmethod
    def delete(cls, page: str) -> ChangeRequestContentChange:
        """Delete ``page``."""
        return cls(operation=ContentChangeOperation.delete_page, page=page)


class UpdatedPageRef(ApiModel):
    """A page created or modified by a content batch, with its API location."""

    object: str = "page"
    id: str
    urls: Urls | None = None


class UpdatedPage(ApiModel):
    """One affected page in a content batch answer (``created_page``/``updated_page``/...)."""

    object: str | None = None
    ref: str | None = None
    page: UpdatedPageRef | None = None


class ChangeRequestContentUpdate(ApiModel):
    """Answer of a content batch with ``compat=false``: the change request and affected pages."""

    changeRequest: ChangeRequest | None = None
    changes: list[UpdatedPage] = Field(default_factory=list)
    insertedFiles: list[File] = Field(default_factory=list)
