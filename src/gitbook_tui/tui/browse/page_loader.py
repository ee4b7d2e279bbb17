"""PageLoader: the one way a page is read — fetch, sanitise, parse — with its freshness.

Widget-free: the browser screen presents what it returns, and tests use it the same way.
Server text is always cleaned (:func:`~gitbook_tui.markdown.clean_text`) *before* it is
parsed: parsed first, a sequence such as ``ESC [0m`` inside link brackets would be cut and
leave ``0m`` behind (or the link lose its text) once the ESC is dropped.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from ...api import APIConnectionError, AsyncGitBook, GitBookError, ReadMode, response_meta
from ...markdown import Document, Paragraph, Span, clean_text, parse
from ...models import RevisionPage
from ..common.freshness import Freshness
from .page_includes import load_includes

__all__ = ["LoadedPage", "PageLoader", "parse_page"]


def parse_page(markdown: str | None) -> Document:
    """The page's markdown, cleaned of control sequences, as a document. A parser bug
    does not escape: the document then says the page could not be displayed, and why."""
    try:
        return parse(clean_text(markdown or ""))
    except Exception as exc:  # a parser bug must not take the app down
        reason = clean_text(str(exc))[:200]
        return Document((Paragraph((Span(f"This page could not be displayed: {reason}"),)),))


@dataclass(frozen=True)
class LoadedPage:
    """A page read and parsed. ``freshness`` is None when nothing is known about it."""

    page: RevisionPage
    document: Document
    freshness: Freshness | None
    space_id: str = ""


class PageLoader:
    """Reads pages of ``client`` (parsing in a thread, so the UI never waits on it)."""

    def __init__(self, client: AsyncGitBook) -> None:
        self._client = client

    async def load(
        self, space_id: str, page_id: str, *, read: ReadMode = "prefer-cache"
    ) -> LoadedPage:
        """The page, parsed. Raises :class:`GitBookError` when it cannot be read (an
        :class:`APIConnectionError` when the server cannot be reached and nothing is cached)."""
        page = await self._client.content.get_page(space_id, page_id, format="markdown", read=read)
        return await self._parsed(space_id, page, Freshness.of_meta(response_meta(page)))

    async def refreshed(self, loaded: LoadedPage) -> LoadedPage | None:
        """When ``loaded`` came from the cache while the server is asked (``prefer-cache``):
        the answer. The same page and document with ``online`` freshness when the server
        confirmed it, the fresh page parsed when it changed, ``offline`` when the server
        could not be reached. None when there is nothing to wait for or the server failed."""
        meta = response_meta(loaded.page)
        if meta is None or meta.refresh is None:
            return None
        try:
            fresh = await meta.refresh
        except APIConnectionError:
            return LoadedPage(
                loaded.page, loaded.document, Freshness.offline(meta.age), loaded.space_id
            )
        except GitBookError:
            return None
        if fresh is None:
            return LoadedPage(loaded.page, loaded.document, Freshness.online(), loaded.space_id)
        return await self._parsed(loaded.space_id, fresh, Freshness.online())

    async def _parsed(
        self, space_id: str, page: RevisionPage, freshness: Freshness | None
    ) -> LoadedPage:
        document = await asyncio.to_thread(parse_page, page.markdown)
        if space_id:
            # {% include %} blocks filled from the space's reusable contents
            document = await load_includes(self._client, space_id, document)
        return LoadedPage(page, document, freshness, space_id)
