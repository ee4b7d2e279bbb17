"""CommentCounts: open comment threads per page of a space, counted from the space's list
of open threads (the API gives a count per space, ``Space.comments``, but none per page).

One listing per space (pages of up to :data:`PAGE_SIZE` threads: one request for most
spaces), read ``prefer-cache`` the first time and kept; :meth:`CommentCounts.refreshed`
brings the server's answer when the cached one was shown. :meth:`CommentCounts.changed`
tells, from the cache alone, whether a write made the kept counts stale (the client drops
the cached list whenever a comment of the space is posted, edited, resolved or deleted).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ...api import AsyncGitBook, CacheMissError, GitBookError, ReadMode, response_meta
from ...models import Comment, Page

__all__ = ["PAGE_SIZE", "CommentCounts", "SpaceCounts"]

PAGE_SIZE = 1000
"""Threads asked for per request (the most the API allows)."""


@dataclass(frozen=True)
class SpaceCounts:
    """Open threads per page id of one space (pages with none are absent)."""

    space_id: str
    pages: Mapping[str, int]
    total: int = 0
    """Open threads of the whole space in the list (also those on no page): newer than a
    ``Space.comments`` read before them (e.g. while the demo was still seeding)."""
    refresh: tuple[asyncio.Task[Any], ...] = field(default=(), compare=False)
    """The background refreshes of the cached pages of the list these counts came from."""

    def of_page(self, page_id: str) -> int:
        return self.pages.get(page_id, 0)


def _count(pages: list[Page[Comment]]) -> tuple[dict[str, int], int]:
    """Open threads per page id, and open threads in all."""
    counts: Counter[str] = Counter()
    total = 0
    for page in pages:
        for comment in page.items:
            if comment.is_resolved:
                continue
            total += 1
            target = comment.target.page if comment.target is not None else None
            if target is not None and target.id:
                counts[target.id] += 1
    return dict(counts), total


class CommentCounts:
    """Open threads per page, per space, read once per space and kept (see the module)."""

    def __init__(self, client: AsyncGitBook) -> None:
        self._client = client
        self._known: dict[str, SpaceCounts] = {}

    def of_space(self, space_id: str) -> SpaceCounts | None:
        """The counts kept for a space (None: not read yet)."""
        return self._known.get(space_id)

    async def load(self, space_id: str, *, read: ReadMode = "prefer-cache") -> SpaceCounts:
        """Read the space's open threads and count them per page (kept for the space)."""
        listing = self._client.comments.list(
            space_id, status="open", format="markdown", limit=PAGE_SIZE, read=read
        )
        pages = [page async for page in listing.pages()]
        refresh = tuple(
            meta.refresh
            for meta in (response_meta(page) for page in pages)
            if meta is not None and meta.refresh is not None
        )
        per_page, total = _count(pages)
        counts = SpaceCounts(space_id, per_page, total, refresh)
        self._known[space_id] = counts
        return counts

    async def refreshed(self, counts: SpaceCounts) -> SpaceCounts | None:
        """The server's counts when ``counts`` came from the cache and the server has a
        different list now (None: nothing newer, or the server could not say)."""
        if not counts.refresh:
            return None
        try:
            fresh = await asyncio.gather(*counts.refresh)
        except GitBookError:
            return None
        if all(page is None for page in fresh):
            return None  # the server confirmed every cached page
        # the refreshes stored the server's pages: read them back from the cache
        try:
            return await self.load(counts.space_id, read="cache-only")
        except CacheMissError:
            return await self.load(counts.space_id, read="network")

    async def changed(self, space_id: str) -> bool:
        """Whether the kept counts of the space may be stale: its cached list of open
        threads is gone (a write through this client dropped it). Reads the cache only,
        no request; False for a space whose counts were never read."""
        if space_id not in self._known:
            return False
        try:
            await self._client.comments.list(
                space_id, status="open", format="markdown", limit=PAGE_SIZE, read="cache-only"
            ).page()
        except GitBookError:  # (CacheMissError: gone from the cache, or no cache at all)
            return True
        return False
