"""The data of a page's blame: its revisions walked back along first parents, the page's text
read where it changed, each block told the revision that last changed it (no widgets here:
testable without Textual); a walk is kept per (server, space, page, revision), so a second
blame of the same page is instant and one left half-way resumes."""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Literal

from ...api import AsyncGitBook, NotFoundError, PermissionDeniedError
from ...models import Revision, RevisionPage
from .blame_lines import LineBlame
from .history_data import LogEntry, log_entry

__all__ = ["BLAME_CACHE", "BlameCache", "BlameWalk", "Ending", "NotInRevision", "revision_shown"]

Ending = Literal["", "created", "root", "settled", "missing", "unreadable"]
"""Why the walk stopped: not yet (""), the page's first revision reached ("created"), the
space's first ("root"), every block settled before either ("settled"), a parent the server
does not have ("missing") or the reader may not read ("unreadable")."""

THREAD_FROM = 200_000
"""Texts at least this long are aligned in a thread (more than ~50 ms of work)."""


class NotInRevision(LookupError):
    """The page blamed is not in the revision blamed."""


async def revision_shown(client: AsyncGitBook, space_id: str) -> str:
    """The revision a reader of the space sees (Browse reads it so too: the cached copy first)."""
    space = await client.spaces.get(space_id, read="prefer-cache")
    return space.revision or ""


def _page_in(revision: Revision, page_id: str) -> RevisionPage | None:
    return next((p for p in revision.walk_pages() if p.id == page_id), None)


@dataclass
class BlameWalk:
    """The blame of ``page_id`` at ``revision_id``.

    :meth:`advance` walks back until a revision changed the page (or a time slice is
    used up) and settles the blocks that revision brought; ``entries[k]`` is the revision
    that brought step ``k``'s newer text (the oldest revision with that text: walking back,
    the revision after the first one with another text), so a block's origin ``k`` is the
    revision ``entries[k]``."""

    client: AsyncGitBook
    space_id: str
    page_id: str
    revision_id: str
    title: str = ""
    blame: LineBlame | None = None
    entries: list[LogEntry] = field(default_factory=list)
    walked: int = 0
    """Revisions read so far (those that did not change the page included)."""
    reached: LogEntry | None = None
    """The oldest revision read."""
    holder: LogEntry | None = None
    """The oldest revision read with the text being compared (who brought it, if older
    revisions have another)."""
    ending: Ending = ""
    _document: str | None = None
    _next: str | None = None
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)

    @property
    def done(self) -> bool:
        return bool(self.ending)

    async def _revision(self, revision_id: str) -> Revision | Ending:
        try:
            return await self.client.revisions.get(self.space_id, revision_id, read="prefer-cache")
        except NotFoundError:
            return "missing"
        except PermissionDeniedError:
            return "unreadable"

    async def _text(self, revision_id: str) -> str:
        page = await self.client.content.revision_page(
            self.space_id, revision_id, self.page_id, format="markdown", read="prefer-cache"
        )
        return page.markdown or ""

    async def start(self) -> None:
        """The revision blamed and the page's text there. Raises :class:`GitBookError`, or
        :class:`NotInRevision`."""
        if self.blame is not None:
            return
        head = self.revision_id
        revision = await self.client.revisions.get(self.space_id, head, read="prefer-cache")
        page = _page_in(revision, self.page_id)
        if page is None:
            raise NotInRevision(f"the page is not in revision {head}")
        self.title = page.title or "Untitled"
        text = await self._text(head)
        big = len(text) >= THREAD_FROM
        self.blame = await asyncio.to_thread(LineBlame, text) if big else LineBlame(text)
        entry = log_entry(revision, None)
        self.entries, self.reached, self.holder, self.walked = [], entry, entry, 1
        self._document = page.documentId
        self._next = revision.parents[0] if revision.parents else None
        if self._next is None:
            self._end("root")

    def _end(self, ending: Ending) -> list[int]:
        """The walk stops: the blocks still open date from the oldest text read."""
        self.ending = ending
        if self.holder is not None:
            self.entries.append(self.holder)
        return self.blame.finish() if self.blame is not None else []

    async def advance(self, slice_s: float = 0.1) -> list[int]:
        """Walk back for about ``slice_s`` seconds (one revision at least), or to the end:
        the blocks settled meanwhile. Several screens may share one walk (one advances at
        a time)."""
        async with self._lock:
            await self.start()
            settled: list[int] = []
            started = time.monotonic()
            pending: asyncio.Future[Revision | Ending] | None = None
            while not self.done and time.monotonic() - started < slice_s:
                current = self._next
                assert current is not None
                got = await (pending or self._revision(current))
                pending = None
                if isinstance(got, str):  # missing or unreadable: the history ends here
                    settled += self._end(got)
                    break
                page = _page_in(got, self.page_id)
                if got.parents and page is not None:  # asked for while this text is read
                    pending = asyncio.ensure_future(self._revision(got.parents[0]))
                text = None
                if page is not None and page.documentId != self._document:
                    text = await self._text(got.id)
                # From here the state changes as one: a cancelled walk (its screen gone)
                # stays consistent, and the next blame resumes it.
                if text is not None and len(text) >= THREAD_FROM:
                    work = asyncio.to_thread(self._commit, got, page, text)
                    settled += await asyncio.shield(work)
                else:
                    settled += self._commit(got, page, text)
            if pending is not None:
                pending.cancel()
            return settled

    def _commit(self, got: Revision, page: RevisionPage | None, text: str | None) -> list[int]:
        """One revision walked: the blocks its change of the page's text settles (``text``:
        the page's text there, None if the same as the newer revision's)."""
        blame = self.blame
        assert blame is not None
        self.walked += 1
        self.reached = entry = log_entry(got, None)
        self._next = got.parents[0] if got.parents else None
        if page is None:  # the newer revision created the page
            return self._end("created")
        settled: list[int] = []
        if text is not None:  # the holder's revision brought the newer text
            assert self.holder is not None
            settled = blame.step(text)
            self.entries.append(self.holder)
            self._document = page.documentId
            if not blame.open:
                return settled + self._end("settled")  # nothing older can matter
        self.holder = entry
        if self._next is None:
            settled += self._end("root")
        return settled

    def entry_of(self, block: int) -> LogEntry | None:
        """The revision that last changed ``block`` (None while not known)."""
        blame = self.blame
        origin = blame.origin[block] if blame is not None else None
        if origin is None:
            return None
        return self.entries[min(origin, len(self.entries) - 1)]

    def at_or_before(self, block: int) -> bool:
        """Whether ``block`` only dates from the oldest revision that could be read (its
        history cannot be read further back: older changes are unknown)."""
        blame = self.blame
        return (
            self.ending in ("missing", "unreadable")
            and blame is not None
            and blame.origin[block] == len(self.entries) - 1
        )


class BlameCache:
    """The last few walks, by (server, space, page, revision): revisions never change, so a
    walk (finished or not) serves every later blame of that page there."""

    def __init__(self, size: int = 8) -> None:
        self.size = size
        self._walks: OrderedDict[tuple[str, str, str, str], BlameWalk] = OrderedDict()

    def walk(
        self, client: AsyncGitBook, space_id: str, page_id: str, revision_id: str
    ) -> BlameWalk:
        """The walk of that blame: the one kept, else a new one (kept from now on)."""
        key = (str(client.base_url), space_id, page_id, revision_id)
        found = self._walks.get(key)
        if found is None or found.client is not client:
            found = self._walks[key] = BlameWalk(client, space_id, page_id, revision_id)
        self._walks.move_to_end(key)
        while len(self._walks) > self.size:
            self._walks.popitem(last=False)
        return found

    def clear(self) -> None:
        self._walks.clear()


BLAME_CACHE = BlameCache()
"""The app's blames (module-wide: a blame outlives its screen)."""
