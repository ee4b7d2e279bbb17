"""ReplayLoop: the app-wide outbox — how many items wait, and replaying them in order as soon
as the server is reachable again (any answer from it, or a cheap probe with backoff)."""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Awaitable, Callable

from ..api import APIStatusError, AsyncGitBook, GitBookError, response_meta
from .files import log
from .outbox import Outbox
from .outbox_action import OutboxAction
from .outbox_state import OutboxItem
from .replay import Replayer, ReplayResult
from .store import DraftStore

__all__ = ["MAX_PROBE_SECONDS", "MIN_PROBE_SECONDS", "ReplayLoop", "client_probe"]

MIN_PROBE_SECONDS = 5.0
MAX_PROBE_SECONDS = 300.0
RECOUNT_SECONDS = 60.0
"""Idle: the queue is counted again this often (another app instance may have queued)."""

Probe = Callable[[], Awaitable[bool]]
Listener = Callable[[], None]
ResultListener = Callable[[ReplayResult], None]


def client_probe(client: AsyncGitBook) -> Probe:
    """Whether the server answers: one small read (the signed-in user, revalidated by ETag)."""

    async def probe() -> bool:
        try:
            me = await client.users.me(read="network")
        except APIStatusError as exc:
            return exc.status < 500 and exc.status not in (401, 408, 429)
        except GitBookError:
            return False
        meta = response_meta(me)
        return not (meta is not None and meta.offline)

    return probe


class ReplayLoop:
    """One per account while the app runs (:meth:`run` in a worker). Items are queued with
    :meth:`enqueue`; :attr:`queued` and :attr:`replaying` say what the status bar shows.

    While something is queued and the server was last unreachable, a probe runs after
    :attr:`min_delay` seconds, doubling up to :attr:`max_delay` while it fails; any answer
    the app gets from the server meanwhile (:meth:`reachable`, wired to the client's
    ``watch_answers``) replays at once instead. A replay stopped by a transient error
    (offline, 401, 429, 5xx) waits for the next probe; refused items are reported to the
    :meth:`on_result` listeners (their text is a draft again)."""

    def __init__(
        self,
        outbox: Outbox,
        replayer: Replayer,
        probe: Probe,
        *,
        min_delay: float = MIN_PROBE_SECONDS,
        max_delay: float = MAX_PROBE_SECONDS,
    ) -> None:
        self.outbox = outbox
        self.replayer = replayer
        self.probe = probe
        self.min_delay = min_delay
        self.max_delay = max_delay
        self.queued = 0
        self.replaying = False
        self.offline = False
        """The last attempt could not reach the server (a probe runs before the next replay)."""
        self.probes = 0  # probes made (tests: never hammering)
        self.waits: deque[float] = deque(maxlen=32)  # the last waits, in seconds (tests)
        self.replays = 0
        """Replays that sent or refused something (a view compares it with the last it saw)."""
        self._known = False  # the reachability is unknown until an answer or a probe
        self._hints = True  # an answer to another request may start a replay
        self._busy = False
        self._version = 0  # enqueues so far: a count started before one is stale
        self._wake = asyncio.Event()
        self._listeners: list[Listener] = []
        self._result_listeners: list[ResultListener] = []

    @classmethod
    def for_client(
        cls, account: str, client: AsyncGitBook, *, root: str | None = None, **delays: float
    ) -> ReplayLoop:
        """The loop of ``client``'s account (``account``: its fingerprint)."""
        outbox = Outbox(account, root, drafts=DraftStore(account))
        return cls(outbox, Replayer.for_client(outbox, client), client_probe(client), **delays)

    @property
    def account(self) -> str:
        return self.outbox.account

    # -- listeners ----------------------------------------------------------------------------
    def watch(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener()`` when :attr:`queued` or :attr:`replaying` changes."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def on_result(self, listener: ResultListener) -> Callable[[], None]:
        """Call ``listener(result)`` after each replay that sent or refused something."""
        self._result_listeners.append(listener)
        return lambda: self._result_listeners.remove(listener)

    def _changed(self) -> None:
        for listener in list(self._listeners):
            try:
                listener()
            except Exception:
                log.exception("outbox listener failed")

    def _set(self, *, queued: int | None = None, replaying: bool | None = None) -> None:
        before = (self.queued, self.replaying)
        if queued is not None:
            self.queued = queued
        if replaying is not None:
            self.replaying = replaying
        if (self.queued, self.replaying) != before:
            self._changed()

    # -- inputs -------------------------------------------------------------------------------
    async def enqueue(self, action: OutboxAction) -> OutboxItem:
        """Queue ``action`` (the server was just found unreachable); durable when this returns."""
        self._version += 1
        item = await asyncio.to_thread(self.outbox.enqueue, action)
        self.offline, self._known, self._hints = True, True, True
        await self._recount()
        self._wake.set()
        return item

    async def _recount(self) -> None:
        """Count the queue; a count overtaken by an enqueue meanwhile is dropped (the
        enqueue counts again): the number shown never goes back."""
        version = self._version
        count = await asyncio.to_thread(self.outbox.count)
        if version == self._version:
            self._set(queued=count)

    def reachable(self) -> None:
        """The server answered a request: replay now if anything waits (cheap)."""
        if self._busy or not self._hints:
            return  # the loop's own requests; or a replay the server itself put off
        self.offline, self._known = False, True
        if self.queued:
            self._wake.set()

    def poke(self) -> None:
        """Count again and replay if the server is not known to be unreachable."""
        self._wake.set()

    # -- the loop -----------------------------------------------------------------------------
    async def run(self) -> None:
        """Until cancelled."""
        delay = self.min_delay
        while True:
            self._wake.clear()  # (before counting: a wake from now on is not lost)
            await self._recount()
            if not self.queued:
                delay = self.min_delay
                await self._sleep(RECOUNT_SECONDS)
                continue
            if self.offline:
                woken = await self._sleep(delay)
                if woken and self.offline:
                    continue  # queued more meanwhile: still waiting (counted again)
                if not woken:
                    delay = min(delay * 2, self.max_delay)
                    if not await self._probe():
                        continue
            elif not self._known and not await self._probe():
                continue  # the app starts offline with a queue: wait and probe again
            result = await self.replay()
            if result.stopped is not None or result.busy:
                self.offline = True
                # after a 5xx, 401 or 429 the server answering other requests says nothing
                # about this one: only the probe's backoff retries it
                self._hints = result.offline
            else:
                delay = self.min_delay

    async def _sleep(self, seconds: float) -> bool:
        """Wait ``seconds`` or until woken; True if woken."""
        self.waits.append(seconds)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), seconds)
            return True
        return False

    async def _probe(self) -> bool:
        self.probes += 1
        self._busy = True
        try:
            ok = await self.probe()
        except Exception:
            log.exception("outbox probe failed")
            ok = False
        finally:
            self._busy = False
        self.offline, self._known = not ok, True
        if ok:
            self._hints = True
        return ok

    async def replay(self) -> ReplayResult:
        """Send what is queued now, in order (see :class:`Replayer`)."""
        self._busy = True
        self._set(replaying=True)
        version = self._version
        try:
            result = await self.replayer.replay()
        finally:
            self._busy = False
            self._set(replaying=False)
        if version == self._version:
            self._set(queued=result.remaining)
        else:
            await self._recount()  # queued more while replaying
        if result.sent or result.failed:
            self.replays += 1
            for listener in list(self._result_listeners):
                try:
                    listener(result)
                except Exception:
                    log.exception("outbox result listener failed")
        return result
