"""The data of a page's blame: its revisions walked back along first parents, the page's text
read where it changed, each block told the revision that last changed it (no widgets here:
testable without Textual); a walk is kept per (server, space, page, revision), so a second
blame of the same page is instant and one left half-way resumes."""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict, deque
from dataclasses import dataclass, field
from typing import Any, Literal

from ...api import AsyncGitBook, GitBookError, NotFoundError, PermissionDeniedError
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

AHEAD = 8
"""Revisions read ahead of the alignment (their texts asked for meanwhile)."""

AHEAD_LARGE = 3
"""The same for a page of at least ``THREAD_FROM`` characters (each text read ahead is held
until aligned)."""


class NotInRevision(LookupError):
    """The page blamed is not in the revision blamed."""


async def revision_shown(client: AsyncGitBook, space_id: str) -> str:
    """The revision a reader of the space sees (Browse reads it so too: the cached copy first)."""
    space = await client.spaces.get(space_id, read="prefer-cache")
    return space.revision or ""


def _page_in(revision: Revision, page_id: str) -> RevisionPage | None:
    return next((p for p in revision.walk_pages() if p.id == page_id), None)


@dataclass
class _Read:
    """One revision read ahead of the alignment: the revision (or why the history ends
    there, or the error that stopped the reading) and the page's text there, asked for at
    once if its document changed (None: the same text as the newer revision's)."""

    revision_id: str
    got: Revision | Ending | GitBookError
    page: RevisionPage | None = None
    text: asyncio.Future[str] | None = None


@dataclass
class BlameWalk:
    """The blame of ``page_id`` at ``revision_id``.

    :meth:`advance` walks back for a time slice and settles the blocks each revision that
    changed the page brought; ``entries[k]`` is the revision
    that brought step ``k``'s newer text (the oldest revision with that text: walking back,
    the revision after the first one with another text), so a block's origin ``k`` is the
    revision ``entries[k]``.

    The revisions are read ahead of the alignment (up to :attr:`ahead`, one after the
    other: each names the next), and the page's text at each that changed it is asked for
    as soon as that is known, so the texts come in while the chain is still being read
    and the alignment never waits on a round trip it could have started earlier."""

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
    ahead: int = AHEAD
    """Revisions read ahead of the alignment at most (fewer for a large page: their texts
    are held meanwhile)."""
    _document: str | None = None
    """The page's document in the last revision aligned."""
    _next: str | None = None
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    _reads: deque[_Read] = field(default_factory=deque, repr=False)
    _chain: str | None = None
    """The next revision to read ahead (the first parent of the last one read)."""
    _chain_document: str | None = None
    """The page's document in the last revision read ahead."""
    _reader: asyncio.Task[None] | None = field(default=None, repr=False)
    _arrived: asyncio.Event = field(default_factory=asyncio.Event, repr=False)

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
        if big:
            self.ahead = min(self.ahead, AHEAD_LARGE)
        entry = log_entry(revision, None)
        self.entries, self.reached, self.holder, self.walked = [], entry, entry, 1
        self._document = self._chain_document = page.documentId
        self._next = self._chain = revision.parents[0] if revision.parents else None
        if self._next is None:
            self._end("root")

    def _end(self, ending: Ending) -> list[int]:
        """The walk stops: the blocks still open date from the oldest text read."""
        self.ending = ending
        if self.holder is not None:
            self.entries.append(self.holder)
        return self.blame.finish() if self.blame is not None else []

    # -- reading ahead -----------------------------------------------------------------------
    async def _read_ahead(self) -> None:
        """Read revisions along first parents until :attr:`ahead` wait to be aligned."""
        while self._chain is not None and len(self._reads) < self.ahead:
            revision_id = self._chain
            try:
                got: Revision | Ending | GitBookError = await self._revision(revision_id)
            except GitBookError as error:
                got = error
            read = _Read(revision_id, got)
            self._chain = None
            if isinstance(got, Revision):
                read.page = page = _page_in(got, self.page_id)
                if page is not None and page.documentId != self._chain_document:
                    read.text = asyncio.ensure_future(self._text(revision_id))
                    read.text.add_done_callback(_consume)
                if page is not None:
                    self._chain_document = page.documentId
                    self._chain = got.parents[0] if got.parents else None
            self._reads.append(read)
            self._arrived.set()

    def _read_more(self) -> None:
        reader = self._reader
        if (reader is None or reader.done()) and self._chain is not None:
            self._reader = asyncio.ensure_future(self._read_ahead())
            self._reader.add_done_callback(_consume)

    async def _next_read(self) -> _Read:
        """The next revision to align (its text asked for), read ahead meanwhile."""
        while True:
            reader = self._reader
            if not self._reads and reader is not None and reader.done():
                self._reader = None
                if not reader.cancelled() and reader.exception() is not None:
                    raise reader.exception()  # type: ignore[misc]  # a bug: not swallowed
            self._read_more()
            if self._reads:
                return self._reads[0]
            reader = self._reader
            assert reader is not None  # nothing read yet: the reader is on its way
            self._arrived.clear()
            arrived = asyncio.ensure_future(self._arrived.wait())
            try:
                await asyncio.wait({arrived, reader}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                arrived.cancel()

    def _stop_reading(self) -> None:
        """Forget what was read ahead (the walk ended, or failed)."""
        if self._reader is not None:
            self._reader.cancel()
            self._reader = None
        for read in self._reads:
            if read.text is not None:
                read.text.cancel()
        self._reads.clear()
        self._chain = None

    def _read_again_from(self, revision_id: str) -> None:
        """After an error: the next advance reads again from ``revision_id``."""
        self._stop_reading()
        self._chain, self._chain_document = revision_id, self._document

    # -- aligning ----------------------------------------------------------------------------
    async def advance(self, slice_s: float = 0.1) -> list[int]:
        """Walk back for about ``slice_s`` seconds, or to the end: the blocks settled
        meanwhile. An answer still awaited when the slice is over is not waited for (the
        next call takes it up): what is settled is shown without waiting on slower
        answers. Several screens may share one walk (one advances at a time)."""
        async with self._lock:
            await self.start()
            settled: list[int] = []
            deadline = time.monotonic() + slice_s
            while not self.done:
                try:
                    read = await asyncio.wait_for(self._next_read(), _left(deadline))
                except TimeoutError:
                    break
                got = read.got
                if isinstance(got, GitBookError):
                    self._read_again_from(read.revision_id)
                    raise got
                if isinstance(got, str):  # missing or unreadable: the history ends here
                    self._reads.popleft()
                    settled += self._end(got)
                    break
                text = None
                if read.text is not None:
                    try:  # shielded: a text not in yet is taken up by the next call
                        text = await asyncio.wait_for(asyncio.shield(read.text), _left(deadline))
                    except TimeoutError:
                        break
                    except GitBookError:
                        self._read_again_from(read.revision_id)
                        raise
                self._reads.popleft()
                # From here the state changes as one: a cancelled walk (its screen gone)
                # stays consistent, and the next blame resumes it.
                if text is not None and len(text) >= THREAD_FROM:
                    work = asyncio.to_thread(self._commit, got, read.page, text)
                    settled += await asyncio.shield(work)
                else:
                    settled += self._commit(got, read.page, text)
                if time.monotonic() >= deadline:
                    break
            if self.done:
                self._stop_reading()
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


def _left(deadline: float) -> float:
    """Seconds to wait for an answer that is not in yet (one in already is taken at once)."""
    return max(0.0, deadline - time.monotonic())


def _consume(task: asyncio.Future[Any]) -> None:
    """Reading ahead for a walk given up (its screen gone, its client closed) fails quietly
    (a failure the walk meets is raised by :meth:`BlameWalk.advance`)."""
    if not task.cancelled():
        task.exception()
