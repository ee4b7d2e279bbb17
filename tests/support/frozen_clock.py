"""A stopped clock and a steady screen for snapshots: no clock ticks, no cursor blinks."""

from __future__ import annotations

import pytest
from textual.widgets import Input, TextArea


class FrozenClock:
    """Stands in for the ``time`` module of the status bar and of the response cache: the
    bar's "updated 0 s ago" never ticks while a loaded machine draws the frame. A test may
    move ``at`` on to show time passing."""

    def __init__(self, at: float) -> None:
        self.at = at

    def time(self) -> float:
        return self.at

    def monotonic(self) -> float:
        return self.at


def freeze_clocks(monkeypatch: pytest.MonkeyPatch, at: float) -> FrozenClock:
    """Stop the status bar's and the response cache's clocks at ``at`` (epoch seconds)."""
    clock = FrozenClock(at)
    monkeypatch.setattr("gitbook_tui.tui.common.status_bar.time", clock)
    monkeypatch.setattr("gitbook_tui.cache.store.time", clock)
    return clock


def steady_screen(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a screenshot must not depend on: a blinking cursor (an input's or a text area's
    is on or off depending on when the screenshot is taken, which the contrast check moves
    by seconds) and the machine's keyring."""
    monkeypatch.setattr(Input.cursor_blink, "_default", False)
    monkeypatch.setattr(TextArea.cursor_blink, "_default", False)
    monkeypatch.setattr("gitbook_tui.api.auth.keyring_usable", lambda: False)
    monkeypatch.setattr("gitbook_tui.api.config.keyring_token", lambda profile: None)
