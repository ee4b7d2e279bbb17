"""StartingScreen: shown while the bundled demo server gets ready (the first run seeds its
workspace, a few seconds), so the terminal is never blank; dismissed once it serves."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import LoadingIndicator, Static

__all__ = ["StartingScreen"]

POLL_SECONDS = 0.05  # the server is often ready in the next moment: notice it soon


class StartingScreen(Screen[bool]):
    """Polls ``ready`` (True once the server serves; raises why it cannot start) and
    dismisses with True; on a failure it says why and ``q`` quits."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q,escape", "app.quit", "Quit", id="starting.quit"),
    ]

    DEFAULT_CSS = """
    StartingScreen { align: center middle; }
    StartingScreen > #starting-box { width: 64; max-width: 100%; height: auto; padding: 1 2; }
    StartingScreen #starting-text { text-align: center; }
    StartingScreen LoadingIndicator { height: 1; }
    """

    def __init__(self, ready: Callable[[], bool], message: str) -> None:
        super().__init__()
        self._ready = ready
        self._message = message
        self._since = time.monotonic()

    def compose(self) -> ComposeResult:
        with Vertical(id="starting-box"):
            yield Static(self._message, id="starting-text", markup=False)
            yield LoadingIndicator()
            yield Static("", id="starting-elapsed", markup=False)

    def on_mount(self) -> None:
        self._timer = self.set_interval(POLL_SECONDS, self._poll)
        self._poll()

    def _poll(self) -> None:
        try:
            ready = self._ready()
        except Exception as exc:
            self._timer.stop()
            self.query_one(LoadingIndicator).display = False
            self.query_one("#starting-text", Static).update(f"{exc}\n\nq quits.")
            return
        if ready:
            self._timer.stop()
            self.dismiss(True)
            return
        elapsed = time.monotonic() - self._since
        self.query_one("#starting-elapsed", Static).update(f"{elapsed:.0f} s")
