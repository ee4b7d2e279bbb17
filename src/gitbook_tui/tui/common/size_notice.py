"""SizeNoticeScreen: shown in place of the app while the terminal is too small to lay it out.

Below :data:`MIN_WIDTH` × :data:`MIN_HEIGHT` cells no pane fits; rather than laying out
widgets that cannot fit (and reaching corners of Textual that break at 12×4), the app
pushes this screen, which says what size is needed, and pops it once the terminal is
big enough again (:func:`too_small`). Only quitting works meanwhile.
"""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.containers import Center, Middle
from textual.geometry import Size
from textual.screen import Screen
from textual.widgets import Static

__all__ = ["MIN_HEIGHT", "MIN_WIDTH", "SizeNoticeScreen", "too_small"]

MIN_WIDTH = 30
MIN_HEIGHT = 8


def too_small(size: Size) -> bool:
    """Whether a terminal of ``size`` is too small for the app (0×0: not known yet)."""
    width, height = size
    if width == 0 and height == 0:
        return False
    return width < MIN_WIDTH or height < MIN_HEIGHT


class SizeNoticeScreen(Screen[None]):
    """'Terminal too small' with the size needed; every key but the app's quit is eaten."""

    DEFAULT_CSS = """
    SizeNoticeScreen { align: center middle; }
    SizeNoticeScreen Static { width: auto; height: auto; text-align: center; }
    """

    def compose(self) -> ComposeResult:
        with Middle(), Center():
            yield Static(self._text(), id="size-notice", markup=False)

    def _text(self) -> str:
        width, height = self.app.size
        return (
            f"Terminal too small ({width}×{height}).\n"
            f"gitbook-tui needs {MIN_WIDTH}×{MIN_HEIGHT}.\nq quits."
        )

    def on_resize(self, event: events.Resize) -> None:
        # a resize may arrive before the notice is mounted (it is composed with the size then)
        for notice in self.query("#size-notice").results(Static):
            notice.update(self._text())

    def on_key(self, event: events.Key) -> None:
        # nothing below may act on a key while it cannot be seen
        if event.key not in ("q", "ctrl+c", "ctrl+q"):
            event.stop()
            event.prevent_default()
