"""ContrastFloor: the app's last line filter, lifting any text still drawn below its floor."""

from __future__ import annotations

from functools import lru_cache

from rich.color import Color as RichColor
from rich.segment import Segment
from rich.style import Style
from textual.color import Color
from textual.filter import LineFilter

from .contrast import BLACK, DIMMED_CONTRAST, TEXT_CONTRAST, WHITE, contrast, readable_on

__all__ = ["ContrastFloor"]


class ContrastFloor(LineFilter):
    """Text a widget draws in a colour that does not read on the background it lands on
    (muted text on a cursor row, a Rich style made for another background) is moved towards
    white or black until it reads at :data:`TEXT_CONTRAST`. Below the floor means under
    :data:`TEXT_CONTRAST`, or under :data:`DIMMED_CONTRAST` for the theme's dimmed colours
    (``dimmed``, hex values; set on each theme change): a dimmed colour lifted is no longer
    the dimmed one, so it is lifted to the full floor. The theme's
    colours are derived with these floors already (``contrast.floored_css_variables``);
    this catches what composing them still produces. Spaces keep their colours, and so
    does reversed text (Textual fills its colours in later: a widget draws it in colours
    chosen to read, e.g. the status bar's current view)."""

    def __init__(self, dimmed: frozenset[str] = frozenset(), enabled: bool = True) -> None:
        super().__init__(enabled=enabled)
        self.dimmed = dimmed

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        dimmed = self.dimmed
        out = []
        for segment in segments:
            style = segment.style
            if style is None or segment.control or not segment.text.strip():
                out.append(segment)
                continue
            floored = _floored(style, background.rich_color, dimmed)
            out.append(segment if floored is style else Segment(segment.text, floored))
        return out


@lru_cache(4096)
def _floored(style: Style, background: RichColor, dimmed: frozenset[str]) -> Style:
    fg, bg = style.color, style.bgcolor or background
    if fg is None or fg.triplet is None or bg.triplet is None or style.reverse:
        return style
    text, ground = Color(*fg.triplet), Color(*bg.triplet)
    floor = DIMMED_CONTRAST if text.hex in dimmed else TEXT_CONTRAST
    if contrast(text, ground) >= floor:
        return style
    extreme = WHITE if contrast(WHITE, ground) >= contrast(BLACK, ground) else BLACK
    lifted = readable_on(text, [ground], extreme, TEXT_CONTRAST)
    return style + Style(color=lifted.rich_color)
