"""BrowserCommentCounts: the open comment threads of the open page and its space, in the
page header and on the tree's rows.

A space's count is the API's (``Space.comments``, on the tree's space rows) until its
open threads have been listed, then the list's; a page's is counted from those threads (:class:`.comment_counts.CommentCounts`), read in a
worker when a page of the space is first shown — never in the way of the tree or the
page. When the browser shows again (after the Comments view, a dialog…), the cache says
without a request whether a comment of the space was posted, edited, resolved or
deleted meanwhile (the client dropped the cached list); then the counts and the space
are read again. A count not known is left out, never shown as 0.

A helper the browser screen holds (``screen.counts``), reaching it through
:class:`.browser_host.BrowserHost`; the reads are :class:`.comment_counts.CommentCounts`' and
:func:`.browse_reads.space_comment_total` (no Textual there).
"""

from __future__ import annotations

from functools import partial

from ...api import AsyncGitBook
from .browse_reads import space_comment_total
from .browser_host import BrowserHost
from .comment_counts import CommentCounts, SpaceCounts
from .tree.workspace_tree import space_key

__all__ = ["BrowserCommentCounts"]


class BrowserCommentCounts:
    """Open-thread counts of the open page and space (see the module)."""

    def __init__(self, host: BrowserHost, client: AsyncGitBook) -> None:
        self._host = host
        self._client = client
        self.comment_counts = CommentCounts(client)
        self._counting: set[str] = set()  # spaces whose counts are being read
        # spaces whose threads could not be read: tried again when the browser shows
        # again, not on every page opened
        self._uncounted: set[str] = set()

    def show_comment_counts(self) -> None:
        """The open page's counts in the header, as far as they are known."""
        current = self._host.current_page
        if current is None:
            return
        space_id, page_id = current
        known = self.comment_counts.of_space(space_id)
        data = self._host.workspace_tree.node_data(space_key(space_id))
        self._host.header.show_comments(
            page=None if known is None else known.of_page(page_id),
            space=None if data is None else data.comments,
        )

    def count_comments(self, space_id: str) -> None:
        """Show what is known of the counts now; make sure they are known and current
        (in a worker, started after the next frame: a warm start sends no request
        before its first frame)."""
        self.show_comment_counts()
        self._host.call_after_refresh(self._count_comments, space_id)

    def screen_resumed(self) -> None:
        """The browser shows again: comments are only written in other views, so their
        changes are looked for now."""
        current = self._host.current_page
        if current is not None:
            self._uncounted.discard(current[0])
            self._host.call_after_refresh(partial(self._count_comments, current[0], check=True))

    def _count_comments(self, space_id: str, *, check: bool = False) -> None:
        """Read the counts of the space if they are not known (or, ``check``, if a write
        made them stale); one read per space at a time: opening pages quickly never
        restarts it."""
        busy = space_id in self._counting or space_id in self._uncounted
        known = self.comment_counts.of_space(space_id) is not None
        if not busy and not (known and not check) and not self._host.leaving:
            self._counting.add(space_id)
            self._host.run_worker(
                partial(self._read_counts, space_id), group="browser-counts", exit_on_error=False
            )

    async def _read_counts(self, space_id: str) -> None:
        try:
            await self._read_counts_of(space_id)
        finally:
            self._counting.discard(space_id)

    async def _read_counts_of(self, space_id: str) -> None:
        counts = self.comment_counts
        try:
            if counts.of_space(space_id) is None:
                known = await counts.load(space_id)
            elif await counts.changed(space_id):
                total = await space_comment_total(self._client, space_id)
                self._host.workspace_tree.show_comment_counts(space_id, space=total)
                known = await counts.load(space_id, read="network")
            else:
                return
            self._counts_known(known)
            fresh = await counts.refreshed(known)
        except Exception:  # (the counts stay as they were: nothing depends on them)
            self._uncounted.add(space_id)
            return
        if fresh is not None:
            self._counts_known(fresh)

    def _counts_known(self, counts: SpaceCounts) -> None:
        # the list is newer than the space's own count when that was read first
        self._host.workspace_tree.show_comment_counts(
            counts.space_id, space=counts.total, pages=counts.pages
        )
        current = self._host.current_page
        if current is not None and current[0] == counts.space_id:
            self.show_comment_counts()
