"""A stopped clock for the status bar and the response cache, so snapshots never tick."""

from __future__ import annotations

import pytest


class FrozenClock:
    """Stands in for the ``time`` module of the status bar and of the response cache: the
    bar's "updated 0 s ago" never ticks while a loaded machine draws the frame."""

    def __init__(self, at: float) -> None:
        self.at = at

    def time(self) -> float:
        return self.at

    def monotonic(self) -> float:
        return self.at


def freeze_clocks(monkeypatch: pytest.MonkeyPatch, at: float) -> None:
    """Stop the status bar's and the response cache's clocks at ``at`` (epoch seconds)."""
    clock = FrozenClock(at)
    monkeypatch.setattr("gitbook_tui.tui.common.status_bar.time", clock)
    monkeypatch.setattr("gitbook_tui.cache.store.time", clock)
