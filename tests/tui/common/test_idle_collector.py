"""IdleCollector: the long garbage collections wait for quiet input; nothing stays frozen."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest

from gitbook_tui.tui.common import idle_collector
from gitbook_tui.tui.common.idle_collector import IdleCollector
from support.waits import until

# these tests are about the idle collector
pytestmark = pytest.mark.idle_collection


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def unfrozen() -> Iterator[None]:
    yield
    gc.unfreeze()


class Cycle:
    def __init__(self) -> None:
        self.me = self


def test_collects_and_freezes_only_when_input_is_quiet_and_there_is_work(unfrozen) -> None:
    clock = Clock()
    collector = IdleCollector(clock)
    gc.collect(1)  # a young collection: something to do
    assert not collector.tick()  # not installed: CPython's own rules apply
    collector.install()
    collector.input_seen()
    clock.now += idle_collector.QUIET_SECONDS / 2
    assert not collector.tick()  # typing: never now
    clock.now += idle_collector.QUIET_SECONDS
    assert collector.tick() and collector.collections == 1
    assert gc.get_freeze_count() > 0 and gc.get_count()[2] == 0
    assert not collector.tick()  # nothing new since: an idle app does no work
    collector.uninstall()
    assert gc.get_freeze_count() == 0


def test_what_was_frozen_and_died_is_reclaimed_at_the_next_quiet_moment(unfrozen) -> None:
    clock = Clock()
    collector = IdleCollector(clock)
    collector.install()
    kept = Cycle()
    clock.now += 10
    gc.collect(1)
    assert collector.tick()
    freed = []
    ref = weakref.ref(kept, lambda _: freed.append(True))
    del kept  # a cycle: only a collection frees it, and it was frozen
    gc.collect()
    assert ref() is not None  # a frozen object is not walked
    gc.collect(1)
    assert collector.tick()
    assert ref() is None and freed
    collector.uninstall()


def test_leaves_a_paused_collector_alone(unfrozen) -> None:
    """A parser pauses collection around a large page: the tick does not collect then."""
    clock = Clock()
    collector = IdleCollector(clock)
    collector.install()
    clock.now += 10
    gc.collect(1)
    gc.disable()
    try:
        assert not collector.tick()
    finally:
        gc.enable()
    assert collector.tick()
    collector.uninstall()


async def test_the_app_collects_while_quiet_and_unfreezes_on_exit(unfrozen, tmp_path: Path) -> None:
    """Over 5 s under load: the app runs until its idle collector's first walk (3 s after the start) and quits."""
    from gitbook_tui.api import AsyncGitBook
    from gitbook_tui.tui.app import GitBookApp
    from gitbook_tui.tui.common.config import TuiConfig
    from gitbook_tui.tui.common.state import StateStore

    client = AsyncGitBook("tok", base_url="http://127.0.0.1:9/v1", max_retries=0)
    app = GitBookApp(client, config=TuiConfig(), state_store=StateStore(tmp_path / "s.json"))
    clock = Clock()
    app.idle_collector = IdleCollector(clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("x")
        assert app.idle_collector.quiet_for() == 0  # a key counts as input
        clock.now += 60

        def time_passes() -> int:
            """Each look, a quiet second passes and something is promoted (CPython's own
            full collection may have taken the last): a frozen clock would count every
            young collection of the running app as one burst, 'working' for ever."""
            clock.now += idle_collector.QUIET_SECONDS
            if gc.get_count()[2] == 0:
                gc.collect(1)
            return app.idle_collector.collections

        await until(pilot, time_passes, "its timer (every 0.5 s)")
        assert app.idle_collector.collections >= 1
        assert gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0


def test_waits_while_the_app_keeps_objects_fast(unfrozen) -> None:
    """No input for long, but a load is parsing pages (young collections in quick
    succession): the long walk waits until that has calmed down."""
    clock = Clock()
    collector = IdleCollector(clock)
    collector.install()
    clock.now += 10  # input quiet
    for _ in range(idle_collector.BUSY_YOUNG):
        gc.collect(1)  # what a busy load does many times a second
        clock.now += 0.1
    assert collector.working() and not collector.tick()
    clock.now += idle_collector.QUIET_SECONDS
    assert not collector.working() and collector.tick()
    collector.uninstall()
