"""The process-wide collector pause: overlapping pauses of different callers end once."""

from __future__ import annotations

import gc

from gitbook_tui.api.parsing import collector_paused as parsing_pause
from gitbook_tui.collector_pause import collector_paused
from gitbook_tui.markdown.diff.chunks import paused_gc


def test_a_parse_ending_inside_a_diff_does_not_restart_the_collector() -> None:
    """A large answer parsed (event loop) while a large page is diffed (a worker), the
    parse started first and done first: the collector stays paused until the diff is done
    too, and runs again after."""
    assert gc.isenabled()
    parse, diff = parsing_pause(True), paused_gc("x" * 100_000)
    parse.__enter__()
    diff.__enter__()
    parse.__exit__(None, None, None)
    assert not gc.isenabled()  # the diff still works
    diff.__exit__(None, None, None)
    assert gc.isenabled()


def test_the_last_pause_restores_the_collector_as_the_first_found_it() -> None:
    gc.disable()
    try:
        with collector_paused(True), paused_gc("x" * 100_000):
            pass
        assert not gc.isenabled()  # it was off: left off
    finally:
        gc.enable()


def test_objects_made_join_the_frozen_ones_only_when_a_pause_asked_for_it() -> None:
    frozen = gc.get_freeze_count()
    with collector_paused(True):
        plain = [[k] for k in range(1_000)]
    assert gc.get_freeze_count() == frozen or frozen == 0
    with collector_paused(True), collector_paused(True, join_frozen=True):
        joined = [[k] for k in range(1_000)]
    if frozen:
        assert gc.get_freeze_count() >= frozen + len(joined)
    assert plain and joined
