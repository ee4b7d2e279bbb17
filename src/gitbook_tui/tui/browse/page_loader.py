"""PageLoader: the one way a page is read — fetch, sanitise, parse — with its freshness.

Widget-free: the browser screen presents what it returns, and tests use it the same way.
Large pages are parsed progressively (:class:`~gitbook_tui.markdown.progressive.ProgressiveParse`):
a loaded page holds the document of its first few kilobytes (enough for the first screen)
and, in ``rest``, the documents that follow as the parse goes on in a thread.
Server text is always cleaned (:func:`~gitbook_tui.markdown.clean_text`) *before* it is
parsed: parsed first, a sequence such as ``ESC [0m`` inside link brackets would be cut and
leave ``0m`` behind (or the link lose its text) once the ESC is dropped.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import TYPE_CHECKING, TypeAlias

from ...api import APIConnectionError, AsyncGitBook, GitBookError, ReadMode, response_meta
from ...markdown.sanitize import clean_text
from ..common.freshness import Freshness
from .page_includes import load_includes

if TYPE_CHECKING:  # (the block model: imported with the first page, not at the app's start)
    from ...markdown import Document
    from ...markdown.progressive import ProgressiveParse
    from ...models import RevisionPage

__all__ = ["LoadedPage", "PageLoader", "PageRest", "parse_page", "parse_progressively"]

PageRest: TypeAlias = "AsyncIterator[tuple[Document, float]]"
"""The rest of a progressively parsed page: ``(document so far, share of the page it
covers)``, each document extending the one before, until the whole page (share 1.0)."""


def parse_page(markdown: str | None) -> Document:
    """The page's markdown, cleaned of control sequences, as a document. A parser bug
    does not escape: the document then says the page could not be displayed, and why."""
    from ...markdown import parse  # (markdown-it: imported with the first page, not at start)
    from ...markdown.model import Document, Paragraph, Span

    try:
        return parse(clean_text(markdown or ""))
    except Exception as exc:  # a parser bug must not take the app down
        reason = clean_text(str(exc))[:200]
        return Document((Paragraph((Span(f"This page could not be displayed: {reason}"),)),))


async def parse_progressively(
    markdown: str | None, *, first_step: int | None = None
) -> tuple[Document, float, PageRest | None]:
    """The first step of the page's parse (in a thread), the share of the page it covers,
    and the rest (None when the first step was the whole page)."""
    from ...markdown.progressive import ProgressiveParse

    text = clean_text(markdown or "")
    progress = (
        ProgressiveParse(text)
        if first_step is None
        else ProgressiveParse(text, first_step=first_step)
    )
    document = await asyncio.to_thread(progress.step)
    if progress.done:
        return document, 1.0, None
    return document, progress.parsed_share, _parse_rest(progress)


async def _parse_rest(progress: ProgressiveParse) -> PageRest:
    while not progress.done:
        document = await asyncio.to_thread(progress.step)
        yield document, progress.parsed_share


@dataclass(frozen=True)
class LoadedPage:
    """A page read and parsed. ``freshness`` is None when nothing is known about it.

    ``document`` may be the first part of a large page: ``rest`` then brings the rest
    (see :data:`PageRest`; it can be consumed once) and ``share`` says how much of the
    page ``document`` covers."""

    page: RevisionPage
    document: Document
    freshness: Freshness | None
    space_id: str = ""
    rest: PageRest | None = field(default=None, compare=False, repr=False)
    share: float = 1.0
    revision: str = ""
    """The past revision of the space the page is shown at ("": its current text)."""
    revision_at: datetime | None = None


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

    async def load_at(self, space_id: str, page_id: str, revision_id: str) -> LoadedPage:
        """The page as it was at a past revision of its space (and when that was). Revisions
        never change: read from the cache when there, never refreshed."""
        page, revision = await asyncio.gather(
            self._client.content.revision_page(
                space_id, revision_id, page_id, format="markdown", read="prefer-cache"
            ),
            self._client.revisions.get(space_id, revision_id, read="prefer-cache"),
        )
        loaded = await self._parsed(space_id, page, Freshness.of_meta(response_meta(page)))
        return replace(loaded, revision=revision_id, revision_at=revision.createdAt)

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
        parsed, share, rest = await parse_progressively(page.markdown)
        document = parsed
        if space_id:
            # {% include %} blocks filled from the space's reusable contents
            document = await load_includes(self._client, space_id, parsed)
            if rest is not None:
                rest = self._with_includes(space_id, parsed, document, rest)
        return LoadedPage(page, document, freshness, space_id, rest, share)

    async def _with_includes(
        self, space_id: str, parsed: Document, shown: Document, rest: PageRest
    ) -> PageRest:
        """``rest`` with includes expanded in the blocks each step adds (the blocks shown
        already stay the same objects, so the viewer only lays out what is new)."""
        from ...markdown.model import Document

        async for document, share in rest:
            count = len(parsed.blocks)
            old, blocks = parsed.blocks, document.blocks
            if len(blocks) >= count and all(a is b for a, b in zip(old, blocks, strict=False)):
                tail = await load_includes(self._client, space_id, Document(blocks[count:]))
                shown = replace(document, blocks=(*shown.blocks, *tail.blocks))
            else:  # the parse replaced what it had (see ProgressiveParse)
                shown = await load_includes(self._client, space_id, document)
            parsed = document
            yield shown, share
