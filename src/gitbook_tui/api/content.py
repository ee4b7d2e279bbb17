"""Space content (main, a change request's, or a past revision's): pages, files, links, search."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any, cast

from ..models import (
    Backlink,
    DocumentFormat,
    File,
    ImportResult,
    LinkItem,
    LinkList,
    LinkStatus,
    ReusableContent,
    Revision,
    RevisionPage,
    RevisionPages,
    SpaceSearchItem,
)
from .base import BaseClient, ReadMode
from .document_text import Unreadable, document_markdown, document_parts, document_readable
from .pagination import AsyncPager
from .resource import Resource, operation, seg, segments
from .space_paths import change_requests_path, content_root, revision_path, space_path

__all__ = [
    "Content",
    "LinkPager",
    "Unreadable",
    "content_root",
    "document_markdown",
    "document_parts",
]

SPACE = "/v1/spaces/{spaceId}"
CR = "/v1/spaces/{spaceId}/change-requests/{changeRequestId}"


def _options(
    metadata: bool | None,
    computed: bool | None,
    format: DocumentFormat | str | None = None,
    evaluated: bool | str | None = None,
) -> dict[str, Any]:
    return {"metadata": metadata, "computed": computed, "format": format, "evaluated": evaluated}


class LinkPager(AsyncPager[LinkItem]):
    """A list of links: ``await`` gives a :class:`LinkList` (with ``stats``)."""

    def __init__(self, client: BaseClient, path: str, **options: Any) -> None:
        super().__init__(client, path, LinkItem, **options)
        self._page_type = LinkList

    async def page(self, token: str | None = None, *, limit: int | None = None) -> LinkList:
        return cast(LinkList, await super().page(token, limit=limit))

    def __await__(self) -> Generator[Any, None, LinkList]:
        return self.page().__await__()


class Content(Resource):
    """Content reads take ``change_request=`` (id or number) to read a change request's."""

    @operation(f"GET {SPACE}/content", f"GET {CR}/content")
    async def revision(
        self,
        space_id: str,
        *,
        change_request: str | int | None = None,
        metadata: bool | None = None,
        computed: bool | None = None,
        read: ReadMode | None = None,
    ) -> Revision:
        """The current revision: its page tree, files and variables."""
        return await self._read(
            f"{content_root(space_id, change_request)}/content",
            Revision,
            "getCurrentRevision",
            params=_options(metadata, computed),
            read=read,
        )

    @operation(f"POST {SPACE}/content/import", f"POST {CR}/content/import")
    async def import_content(
        self,
        space_id: str,
        url: str,
        source: str,
        *,
        change_request: str | int | None = None,
    ) -> ImportResult:
        """Import ``url`` (a page, or a Git Sync folder) as new pages of the space or
        change request; ``source`` is e.g. ``website``, ``markdown``, ``git-sync``."""
        root = content_root(space_id, change_request)
        # A change request may be named by its number or its id: drop both forms.
        invalidates = [root if change_request is None else change_requests_path(space_id)]
        result: ImportResult = await self._client.send(
            "POST",
            f"{root}/content/import",
            ImportResult,
            body={"url": url, "source": source},
            invalidates=invalidates,
            operation="importContent",
        )
        return result

    @operation(f"GET {SPACE}/content/pages", f"GET {CR}/content/pages")
    async def pages(
        self,
        space_id: str,
        *,
        change_request: str | int | None = None,
        metadata: bool | None = None,
        computed: bool | None = None,
        read: ReadMode | None = None,
    ) -> RevisionPages:
        """The page tree (``.pages``, nested) without content."""
        return await self._read(
            f"{content_root(space_id, change_request)}/content/pages",
            RevisionPages,
            "listPages",
            params=_options(metadata, computed),
            read=read,
        )

    @operation(f"GET {SPACE}/content/files", f"GET {CR}/content/files")
    def files(
        self,
        space_id: str,
        *,
        change_request: str | int | None = None,
        metadata: bool | None = None,
        computed: bool | None = None,
        limit: int | None = None,
        max_items: int | None = None,
        read: ReadMode | None = None,
    ) -> AsyncPager[File]:
        return self._list(
            f"{content_root(space_id, change_request)}/content/files",
            File,
            "listFiles",
            params=_options(metadata, computed),
            limit=limit,
            max_items=max_items,
            read=read,
        )

    @operation(f"GET {SPACE}/content/files/{{fileId}}", f"GET {CR}/content/files/{{fileId}}")
    async def file(
        self,
        space_id: str,
        file_id: str,
        *,
        change_request: str | int | None = None,
        metadata: bool | None = None,
        computed: bool | None = None,
        read: ReadMode | None = None,
    ) -> File:
        return await self._read(
            f"{content_root(space_id, change_request)}/content/files/{seg(file_id, 'file_id')}",
            File,
            "getFileById",
            params=_options(metadata, computed),
            read=read,
        )

    @operation(
        f"GET {SPACE}/content/files/{{fileId}}/backlinks",
        f"GET {CR}/content/files/{{fileId}}/backlinks",
    )
    def file_backlinks(
        self,
        space_id: str,
        file_id: str,
        *,
        change_request: str | int | None = None,
        limit: int | None = None,
        max_items: int | None = None,
        read: ReadMode | None = None,
    ) -> AsyncPager[Backlink]:
        """Places in the content that point to the file."""
        return self._list(
            f"{content_root(space_id, change_request)}/content/files/{seg(file_id, 'file_id')}/backlinks",
            Backlink,
            "getFileBacklinks",
            limit=limit,
            max_items=max_items,
            read=read,
        )

    @operation(f"GET {SPACE}/content/reusable-contents/{{reusableContentId}}")
    async def reusable_content(
        self,
        space_id: str,
        reusable_content_id: str,
        *,
        metadata: bool | None = None,
        read: ReadMode | None = None,
    ) -> ReusableContent:
        """A reusable content block of the space's current revision (no body)."""
        return await self._read(
            f"{space_path(space_id)}/content/reusable-contents/{seg(reusable_content_id, 'reusable_content_id')}",
            ReusableContent,
            "getReusableContentById",
            params=_options(metadata, None),
            read=read,
        )

    @operation(
        f"GET {SPACE}/revisions/{{revisionId}}/reusable-contents/{{reusableContentId}}/document"
    )
    async def reusable_content_document(
        self,
        space_id: str,
        revision_id: str,
        reusable_content_id: str,
        *,
        read: ReadMode | None = None,
    ) -> dict[str, Any]:
        """The body of a reusable content at a revision, as a JSON document (see
        :func:`document_markdown` for its text)."""
        result: dict[str, Any] = await self._client.get(
            f"{revision_path(space_id, revision_id)}"
            f"/reusable-contents/{seg(reusable_content_id, 'reusable_content_id')}/document",
            dict[str, Any],
            read=read,
            operation="getReusableContentDocumentInRevisionById",
            readable=document_readable,  # a body with a block that does not convert is not kept
        )
        return result

    @operation(f"GET {SPACE}/content/page/{{pageId}}", f"GET {CR}/content/page/{{pageId}}")
    async def get_page(
        self,
        space_id: str,
        page_id: str,
        *,
        change_request: str | int | None = None,
        format: DocumentFormat | str | None = None,
        evaluated: bool | str | None = None,
        metadata: bool | None = None,
        computed: bool | None = None,
        read: ReadMode | None = None,
    ) -> RevisionPage:
        """One page with its content (``format="markdown"``: ``.markdown``, else ``.document``)."""
        return await self._read(
            f"{content_root(space_id, change_request)}/content/page/{seg(page_id, 'page_id')}",
            RevisionPage,
            "getPageById",
            params=_options(metadata, computed, format, evaluated),
            read=read,
        )

    @operation(
        f"GET {SPACE}/content/page/{{pageId}}/links", f"GET {CR}/content/page/{{pageId}}/links"
    )
    def page_links(
        self,
        space_id: str,
        page_id: str,
        *,
        change_request: str | int | None = None,
        status: LinkStatus | str | None = None,
        limit: int | None = None,
        max_items: int | None = None,
        read: ReadMode | None = None,
    ) -> LinkPager:
        """Links found in the page; ``await`` gives a page with ``stats``."""
        return LinkPager(
            self._client,
            f"{content_root(space_id, change_request)}/content/page/{seg(page_id, 'page_id')}/links",
            params={"status": status},
            limit=limit,
            max_items=max_items,
            read=read,
            operation="getPageLinks",
        )

    @operation(f"GET {SPACE}/content/path/{{pagePath}}")
    async def page_by_path(
        self,
        space_id: str,
        path: str,
        *,
        change_request: str | int | None = None,
        format: DocumentFormat | str | None = None,
        evaluated: bool | str | None = None,
        metadata: bool | None = None,
        computed: bool | None = None,
        read: ReadMode | None = None,
    ) -> RevisionPage:
        """The page at ``path`` (e.g. ``"guides/install"``; ``""``: the first page)."""
        return await self._read(
            f"{content_root(space_id, change_request)}/content/path/{segments(path, 'path')}",
            RevisionPage,
            "getPageByPath",
            params=_options(metadata, computed, format, evaluated),
            read=read,
        )

    @operation(f"GET {SPACE}/search")
    def search(
        self,
        space_id: str,
        query: str,
        *,
        limit: int | None = None,
        max_items: int | None = None,
        read: ReadMode | None = None,
    ) -> AsyncPager[SpaceSearchItem]:
        """Pages of the space's main content matching ``query`` (best first)."""
        return self._list(
            f"{space_path(space_id)}/search",
            SpaceSearchItem,
            "searchSpaceContent",
            params={"query": query},
            limit=limit,
            max_items=max_items,
            read=read,
        )

    @operation(f"GET {SPACE}/revisions/{{revisionId}}/pages")
    async def revision_pages(
        self,
        space_id: str,
        revision_id: str,
        *,
        metadata: bool | None = None,
        computed: bool | None = None,
        read: ReadMode | None = None,
    ) -> RevisionPages:
        """The page tree at a past revision of the space (e.g. a change request's base)."""
        return await self._read(
            f"{revision_path(space_id, revision_id)}/pages",
            RevisionPages,
            "getPagesInRevisionById",
            params=_options(metadata, computed),
            read=read,
        )

    @operation(f"GET {SPACE}/revisions/{{revisionId}}/page/{{pageId}}")
    async def revision_page(
        self,
        space_id: str,
        revision_id: str,
        page_id: str,
        *,
        format: DocumentFormat | str | None = None,
        evaluated: bool | str | None = None,
        metadata: bool | None = None,
        computed: bool | None = None,
        read: ReadMode | None = None,
    ) -> RevisionPage:
        """One page with its content at a past revision of the space."""
        return await self._read(
            f"{revision_path(space_id, revision_id)}/page/{seg(page_id, 'page_id')}",
            RevisionPage,
            "getPageInRevisionById",
            params=_options(metadata, computed, format, evaluated),
            read=read,
        )
