"""Snapshots of the History view at 80×24 and 120×40: the log (with a revision marked) and a
revision's diff. Deterministic like ``review/test_review_snapshots.py``: the fixed-clock
in-process server, the status bar and cache clocks frozen, no cursor blink. Regenerate with
``--snapshot-update`` and look at the SVGs in ``__snapshots__/test_history_snapshots/``
before committing them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from gitbook_tui.tui.history.revision_screen import RevisionScreen
from support.history_world import open_history
from support.review_world import make_app
from support.waits import settle, until
from support.worlds import START

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]
Snap = Callable[..., bool]


class FrozenClock:
    def time(self) -> float:
        return START.timestamp() + 3600

    def monotonic(self) -> float:
        return START.timestamp() + 3600


@pytest.fixture(autouse=True)
def frozen(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    clock = FrozenClock()
    monkeypatch.setattr("gitbook_tui.tui.common.status_bar.time", clock)
    monkeypatch.setattr("gitbook_tui.cache.store.time", clock)
    monkeypatch.setattr(Input.cursor_blink, "_default", False)
    monkeypatch.setattr("gitbook_tui.api.auth.keyring_usable", lambda: False)
    monkeypatch.setattr("gitbook_tui.api.config.keyring_token", lambda profile: None)
    yield


@pytest.mark.parametrize("size", SIZES)
def test_log(snap_compare: Snap, world, story, tmp_path, size) -> None:
    """The space's log, newest first, the second revision marked to compare."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await open_history(pilot.app, pilot, story["space"])
        await settle(pilot)
        await pilot.press("j", "space", "k")
        await settle(pilot)

    app = make_app(world, tmp_path, pin_rate=True)
    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_revision_diff(snap_compare: Snap, world, story, tmp_path, size) -> None:
    """The newest direct edit: its one changed page and the diff against its parent."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await open_history(pilot.app, pilot, story["space"])
        await settle(pilot)
        await pilot.press("j", "enter")
        await until(pilot, lambda: isinstance(pilot.app.screen, RevisionScreen))
        screen = pilot.app.screen
        assert isinstance(screen, RevisionScreen)
        await until(pilot, lambda: screen.change is not None, timeout=20)
        await settle(pilot)

    app = make_app(world, tmp_path, pin_rate=True)
    assert snap_compare(app, terminal_size=size, run_before=run_before)
