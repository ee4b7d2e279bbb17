"""Debouncer: save a composer's text ~1 s after the last keystroke, off the event loop."""

from __future__ import annotations

import asyncio
import itertools
import threading
import time
import weakref
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .files import log
from .keys import DraftKey
from .store import Draft, DraftStore

Saved = Callable[[DraftKey, Draft | None], None]
Failed = Callable[[DraftKey, Exception], None]

_LIVE: weakref.WeakSet[Debouncer] = weakref.WeakSet()
"""Every Debouncer of the process, so an exit path can write what they hold."""
_SEQUENCE = itertools.count(1)
"""Orders the changes of all drafts: a write never replaces newer text with older."""


def flush_all_now() -> int:
    """Write, synchronously and in this thread, every draft text still pending in any live
    Debouncer of the process; returns how many were written. For the last moments of the
    process (SIGHUP, SIGTERM, after the event loop ended): no event loop is needed, and
    a write already under way in a thread is waited for, never overtaken."""
    return sum(debouncer.flush_now() for debouncer in list(_LIVE))


@dataclass(eq=False)
class _Unsaved:
    text: str
    title: str | None
    extra: dict[str, Any] | None
    since: float  # clock time of the oldest change not yet on disk
    last: float  # clock time of the newest change
    seq: int = field(default_factory=lambda: next(_SEQUENCE))  # order of the newest change
    timer: asyncio.Task[None] | None = field(default=None, repr=False)


class Debouncer:
    """Call ``schedule`` on every keystroke (cheap, never blocks): the text is written
    ``delay`` seconds after typing pauses, and at least every ``max_wait`` seconds while it
    goes on. ``flush()`` writes everything now (call it on send, on suspend and on exit);
    ``discard()`` drops a draft the server accepted. Writes run in a thread, one at a time
    per draft and in order, so a late save never resurrects a discarded draft.

    ``sleep`` and ``clock`` are injectable for tests; ``on_saved`` / ``on_error`` tell the
    UI ("draft saved", "could not save draft: …"). Must be used from one event loop."""

    def __init__(
        self,
        store: DraftStore,
        *,
        delay: float = 1.0,
        max_wait: float = 5.0,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        clock: Callable[[], float] = time.monotonic,
        on_saved: Saved | None = None,
        on_error: Failed | None = None,
    ) -> None:
        self.store = store
        self.delay = delay
        self.max_wait = max_wait
        self._sleep = sleep
        self._clock = clock
        self._on_saved = on_saved
        self._on_error = on_error
        self._unsaved: dict[DraftKey, _Unsaved] = {}
        self._locks: dict[DraftKey, asyncio.Lock] = {}
        self._write_guard = threading.Lock()  # one file write at a time, any thread
        self._written: dict[DraftKey, int] = {}  # seq of the newest text on disk per key
        _LIVE.add(self)

    # -- typing ---------------------------------------------------------------------------
    def schedule(
        self,
        key: DraftKey,
        text: str,
        *,
        title: str | None = None,
        extra: Mapping[str, Any] | None = None,
    ) -> None:
        """Remember ``text`` as the newest content of ``key`` and (re)arm its timer."""
        fields = dict(extra) if extra is not None else None
        now = self._clock()
        entry = self._unsaved.get(key)
        if entry is None:
            entry = _Unsaved(text, title, fields, since=now, last=now)
            self._unsaved[key] = entry
        else:
            entry.text, entry.last, entry.seq = text, now, next(_SEQUENCE)
            entry.title = title if title is not None else entry.title
            entry.extra = fields if fields is not None else entry.extra
        if entry.timer is None or entry.timer.done():
            entry.timer = asyncio.get_running_loop().create_task(self._wait_then_save(key, entry))

    def unsaved(self, key: DraftKey) -> str | None:
        """The text of ``key`` typed but not yet written, if any."""
        entry = self._unsaved.get(key)
        return entry.text if entry else None

    @property
    def dirty(self) -> bool:
        """Whether any text is not yet on disk (or being written)."""
        return bool(self._unsaved) or any(lock.locked() for lock in self._locks.values())

    async def _wait_then_save(self, key: DraftKey, entry: _Unsaved) -> None:
        while True:
            due = min(entry.last + self.delay, entry.since + self.max_wait)
            wait = due - self._clock()
            if wait <= 0:
                break
            await self._sleep(wait)
            if self._unsaved.get(key) is not entry:
                return  # flushed or discarded meanwhile
        await self._save(key)

    def _lock(self, key: DraftKey) -> asyncio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock

    async def _save(self, key: DraftKey) -> None:
        async with self._lock(key):
            entry = self._unsaved.pop(key, None)
            if entry is None:
                return
            try:
                written, draft = await asyncio.to_thread(self._write, key, entry)
            except Exception as exc:
                # Keep the words in memory (unless newer ones came): the next flush retries.
                log.warning("could not save the %s draft: %s", key.kind, exc)
                if key not in self._unsaved:
                    entry.timer = None
                    self._unsaved[key] = entry
                if self._on_error is not None:
                    self._on_error(key, exc)
                return
        if written and self._on_saved is not None:
            self._on_saved(key, draft)

    def _write(self, key: DraftKey, entry: _Unsaved) -> tuple[bool, Draft | None]:
        """Store ``entry`` unless newer text of ``key`` is already on disk (an exit-time
        ``flush_now`` may overtake a write queued in a thread). Any thread."""
        with self._write_guard:
            if entry.seq <= self._written.get(key, 0):
                return False, None
            draft = self.store.save(key, entry.text, title=entry.title, extra=entry.extra)
            self._written[key] = entry.seq
            return True, draft

    def flush_now(self) -> int:
        """Write every pending text synchronously in this thread (exit paths: a signal
        handler, after the loop ended); returns how many drafts were written. Timers are
        left to find their entry gone. Errors are logged, never raised: the process is
        going away and the other drafts must still be written."""
        count = 0
        for key in list(self._unsaved):
            entry = self._unsaved.pop(key, None)
            if entry is None:
                continue
            try:
                written, _ = self._write(key, entry)
            except Exception as exc:
                log.warning("could not save the %s draft on exit: %s", key.kind, exc)
                self._unsaved.setdefault(key, entry)
                continue
            count += written
        return count

    def _stop_timer(self, entry: _Unsaved | None) -> None:
        # A timer still holding an entry in _unsaved has not started writing it (the
        # write pops the entry first), so cancelling it never interrupts a write.
        if entry is not None and entry.timer is not None:
            if entry.timer is not asyncio.current_task():
                entry.timer.cancel()
            entry.timer = None

    # -- on demand ------------------------------------------------------------------------
    async def flush(self, key: DraftKey | None = None) -> None:
        """Write now: ``key``, or every draft with unsaved text. Returns when written
        (including writes already under way)."""
        if key is not None:
            keys = [key]
        else:
            busy = [k for k, lock in self._locks.items() if lock.locked()]
            keys = list(dict.fromkeys([*self._unsaved, *busy]))
        for k in keys:
            self._stop_timer(self._unsaved.get(k))
            await self._save(k)

    async def load(self, key: DraftKey) -> Draft | None:
        """The draft of ``key`` including text not yet written (written first)."""
        await self.flush(key)
        return await asyncio.to_thread(self.store.load, key)

    async def discard(self, key: DraftKey, *, sent_text: str | None = None) -> None:
        """The server accepted the draft: drop unsaved text and the file. With
        ``sent_text``, words typed after what was sent are kept (draft and unsaved text)."""
        entry = self._unsaved.get(key)
        if entry is not None and (sent_text is None or entry.text == sent_text):
            self._stop_timer(self._unsaved.pop(key))
        async with self._lock(key):
            if sent_text is None:
                await asyncio.to_thread(self.store.delete, key)
            else:
                await asyncio.to_thread(self.store.delete_if_text, key, sent_text)

    async def close(self) -> None:
        """Write everything still unsaved (call before the app exits or suspends)."""
        await self.flush()
