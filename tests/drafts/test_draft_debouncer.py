"""Debouncer: writes after a pause (or max_wait), flush/discard/close, never resurrects a draft.

Time is a fake clock advanced by the test: no test sleeps for real."""

from __future__ import annotations

import asyncio
import gc
import threading
import weakref
from pathlib import Path
from typing import Any

import pytest

from gitbook_tui.cache import account_fingerprint
from gitbook_tui.drafts import Debouncer, Draft, DraftKey, DraftStore, flush_all_now

KEY = DraftKey("reply", space="s", target="comment-1")
OTHER = DraftKey("comment", space="s", target="page-1")


class FakeTimer:
    """``sleep``/``clock`` for the debouncer: sleepers wake only when the test advances."""

    def __init__(self) -> None:
        self.now = 0.0
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, delay: float) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._sleepers.append((self.now + delay, future))
        await future

    @property
    def sleeping(self) -> int:
        return sum(1 for _, f in self._sleepers if not f.done())

    @staticmethod
    async def settle() -> None:
        for _ in range(10):  # let ready tasks run up to their next await
            await asyncio.sleep(0)

    async def advance(self, seconds: float) -> None:
        await self.settle()  # timers armed just now start sleeping at the current time
        self.now += seconds
        for deadline, future in self._sleepers:
            if deadline <= self.now + 1e-9 and not future.done():
                future.set_result(None)
        self._sleepers = [(d, f) for d, f in self._sleepers if not f.done()]
        await self.settle()


class SlowStore(DraftStore):
    """A store whose writes wait for the test to let them finish (a slow disk)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.started = threading.Event()
        self.release = threading.Event()
        self.fail: Exception | None = None

    def save(self, *args: Any, **kwargs: Any) -> Draft | None:
        self.started.set()
        assert self.release.wait(10)
        if self.fail is not None:
            raise self.fail
        return super().save(*args, **kwargs)


async def write_under_way(deb: Debouncer, store: SlowStore, timer: FakeTimer, text: str) -> None:
    """``text`` typed, the pause over: its write has started and waits for ``store.release``."""
    store.release.clear()
    deb.schedule(KEY, text)
    await timer.advance(1.0)
    assert await asyncio.to_thread(store.started.wait, 10)


class Recorder:
    def __init__(self) -> None:
        self.saved: list[tuple[DraftKey, str | None]] = []
        self.errors: list[Exception] = []
        self._changed = asyncio.Event()

    def on_saved(self, key: DraftKey, draft: Draft | None) -> None:
        self.saved.append((key, draft.text if draft else None))
        self._changed.set()

    def on_error(self, key: DraftKey, error: Exception) -> None:
        self.errors.append(error)
        self._changed.set()

    async def wait_saves(self, count: int) -> None:
        async def reached() -> None:
            while len(self.saved) < count:
                self._changed.clear()
                await self._changed.wait()

        await asyncio.wait_for(reached(), timeout=10)


@pytest.fixture
def timer() -> FakeTimer:
    return FakeTimer()


@pytest.fixture
def store(tmp_path: Path) -> SlowStore:
    s = SlowStore(account_fingerprint("http://x/v1", "tok"), tmp_path)
    s.release.set()  # fast unless a test holds it
    return s


@pytest.fixture
def rec() -> Recorder:
    return Recorder()


@pytest.fixture
def deb(store: SlowStore, timer: FakeTimer, rec: Recorder) -> Debouncer:
    return Debouncer(
        store,
        sleep=timer.sleep,
        clock=timer.clock,
        on_saved=rec.on_saved,
        on_error=rec.on_error,
    )


def on_disk(store: DraftStore, key: DraftKey = KEY) -> str | None:
    draft = store.load(key)
    return draft.text if draft else None


async def test_writes_once_a_second_after_typing_pauses(
    deb: Debouncer, store: SlowStore, timer: FakeTimer, rec: Recorder
) -> None:
    for n in range(1, 6):
        deb.schedule(KEY, "Good catch"[: n * 2], title="Reply to Lee", extra={"node": "n1"})
    assert deb.dirty and deb.unsaved(KEY) == "Good catch"
    await timer.advance(0.5)
    assert on_disk(store) is None and rec.saved == []
    await timer.advance(0.5)
    await rec.wait_saves(1)
    draft = store.load(KEY)
    assert draft is not None and draft.text == "Good catch"
    assert draft.title == "Reply to Lee" and draft.extra == {"node": "n1"}
    assert rec.saved == [(KEY, "Good catch")] and not deb.dirty
    await timer.advance(10)
    assert len(rec.saved) == 1 and timer.sleeping == 0


async def test_each_keystroke_restarts_the_wait(
    deb: Debouncer, store: SlowStore, timer: FakeTimer, rec: Recorder
) -> None:
    deb.schedule(KEY, "a")
    await timer.advance(0.9)
    deb.schedule(KEY, "ab")
    await timer.advance(0.8)  # 1.7 s after the first key, 0.8 s after the last
    assert rec.saved == []
    await timer.advance(0.2)
    await rec.wait_saves(1)
    assert rec.saved == [(KEY, "ab")]


async def test_non_stop_typing_is_still_saved_every_max_wait(
    deb: Debouncer, timer: FakeTimer, rec: Recorder
) -> None:
    for n in range(10):  # a key every 0.5 s for 5 s: typing never pauses a whole second
        deb.schedule(KEY, f"text {n}")
        await timer.advance(0.5)
    await rec.wait_saves(1)
    assert rec.saved == [(KEY, "text 9")]


async def test_flush_writes_now_and_stops_the_timer(
    deb: Debouncer, store: SlowStore, timer: FakeTimer, rec: Recorder
) -> None:
    deb.schedule(KEY, "draft one")
    deb.schedule(OTHER, "draft two")
    await deb.flush(KEY)
    assert on_disk(store) == "draft one" and on_disk(store, OTHER) is None
    await deb.flush()
    assert on_disk(store, OTHER) == "draft two"
    assert timer.sleeping == 0 and not deb.dirty
    await timer.advance(5)
    assert len(rec.saved) == 2


async def test_flush_waits_for_a_write_already_under_way(
    deb: Debouncer, store: SlowStore, timer: FakeTimer
) -> None:
    await write_under_way(deb, store, timer, "slow words")
    assert deb.dirty and deb.unsaved(KEY) is None  # taken by the write
    flushing = asyncio.create_task(deb.flush())
    await FakeTimer.settle()
    assert not flushing.done()
    store.release.set()
    await asyncio.wait_for(flushing, 10)
    assert on_disk(store) == "slow words"


async def test_discard_removes_the_draft_and_a_late_timer_never_brings_it_back(
    deb: Debouncer, store: SlowStore, timer: FakeTimer, rec: Recorder
) -> None:
    deb.schedule(KEY, "sent text")
    await timer.advance(1.0)
    await rec.wait_saves(1)
    deb.schedule(KEY, "sent text!")  # a last keystroke before ctrl+s
    await deb.discard(KEY)
    assert on_disk(store) is None and not deb.dirty
    await timer.advance(10)
    assert on_disk(store) is None and len(rec.saved) == 1


async def test_discard_during_a_write_wins(
    deb: Debouncer, store: SlowStore, timer: FakeTimer
) -> None:
    await write_under_way(deb, store, timer, "being written")
    discarding = asyncio.create_task(deb.discard(KEY))
    await FakeTimer.settle()
    store.release.set()
    await asyncio.wait_for(discarding, 10)
    assert on_disk(store) is None


async def test_discard_with_sent_text_keeps_words_typed_since(
    deb: Debouncer, store: SlowStore, timer: FakeTimer
) -> None:
    deb.schedule(KEY, "first reply")
    await deb.flush()
    deb.schedule(KEY, "first reply, and more")  # typed while the send was under way
    await deb.discard(KEY, sent_text="first reply")
    assert deb.unsaved(KEY) == "first reply, and more"
    await deb.flush()
    assert on_disk(store) == "first reply, and more"
    await deb.discard(KEY, sent_text="something else")
    assert on_disk(store) == "first reply, and more"


async def test_load_includes_text_not_yet_written(deb: Debouncer, store: SlowStore) -> None:
    deb.schedule(KEY, "typed just now", title="Reply")
    draft = await deb.load(KEY)
    assert draft is not None and draft.text == "typed just now" and draft.title == "Reply"
    assert await deb.load(OTHER) is None


async def test_a_failed_write_keeps_the_text_for_the_next_flush(
    deb: Debouncer, store: SlowStore, rec: Recorder
) -> None:
    store.fail = OSError(28, "No space left on device")
    deb.schedule(KEY, "precious words")
    await deb.flush()
    assert [str(e) for e in rec.errors] == ["[Errno 28] No space left on device"]
    assert deb.unsaved(KEY) == "precious words" and on_disk(store) is None
    store.fail = None
    await deb.close()
    assert on_disk(store) == "precious words" and not deb.dirty


async def test_close_writes_every_unsaved_draft(deb: Debouncer, store: SlowStore) -> None:
    deb.schedule(KEY, "one")
    deb.schedule(OTHER, "two")
    await deb.close()
    assert (on_disk(store), on_disk(store, OTHER)) == ("one", "two")


async def test_default_timer_really_saves(store: SlowStore) -> None:
    saved = asyncio.Event()
    deb = Debouncer(store, delay=0.01, on_saved=lambda key, draft: saved.set())
    deb.schedule(KEY, "with the real clock")
    await asyncio.wait_for(saved.wait(), 10)
    assert on_disk(store) == "with the real clock"


# -- exit paths: flush_all_now (SIGHUP/SIGTERM, after the loop ended) ------------------------


async def test_flush_all_now_writes_every_live_debouncer_at_once(
    deb: Debouncer, store: SlowStore, timer: FakeTimer, rec: Recorder, tmp_path: Path
) -> None:
    other_store = DraftStore(account_fingerprint("http://y/v1", "tok"), tmp_path)
    other = Debouncer(other_store, sleep=timer.sleep, clock=timer.clock)
    deb.schedule(KEY, "typed just now")
    other.schedule(OTHER, "and in another composer")
    assert flush_all_now() >= 2  # synchronous: nothing awaited
    assert on_disk(store) == "typed just now"
    assert on_disk(other_store, OTHER) == "and in another composer"
    assert not deb.dirty and not other.dirty
    await timer.advance(5.0)  # the timers find nothing left: no second write
    assert rec.saved == []


async def test_flush_all_now_waits_for_an_older_write_and_never_loses_to_it(
    deb: Debouncer, store: SlowStore, timer: FakeTimer, rec: Recorder
) -> None:
    await write_under_way(deb, store, timer, "older")  # "older" is being written
    deb.schedule(KEY, "older and newer")
    flushing = asyncio.create_task(asyncio.to_thread(flush_all_now))
    store.release.set()
    await asyncio.wait_for(flushing, 10)
    await rec.wait_saves(1)
    assert on_disk(store) == "older and newer"


def test_flush_all_now_after_the_event_loop_ended(store: SlowStore) -> None:
    """A crash or an exit that skipped the flush: text still pending is written."""
    holder: list[Debouncer] = []

    async def type_and_leave() -> None:
        holder.append(Debouncer(store, delay=60.0))
        holder[0].schedule(KEY, "never waited for")

    asyncio.run(type_and_leave())
    assert on_disk(store) is None
    assert flush_all_now() >= 1  # (other tests' leftovers may be written too)
    assert on_disk(store) == "never waited for"


def test_the_registry_does_not_keep_debouncers_alive(store: SlowStore) -> None:
    deb = Debouncer(store)
    ref = weakref.ref(deb)
    del deb
    gc.collect()
    assert ref() is None
