"""Measures the contrast of every drawn character of the app's screen, in every built-in
theme: foreground against background of each cell, as the terminal gets it.

Skipped cells (nothing to read): spaces and the decoration glyphs of borders, rules and
scrollbars — box drawing (U+2500–U+257F) and block elements (U+2580–U+259F). Under a modal
dialog the screens below are faded on purpose (not meant to be read): only the cells of the
dialog's own widgets are measured there. ANSI themes
(``ansi-dark``, ``ansi-light``) are skipped too: they draw in the terminal's own palette,
whose contrast is the terminal's. ``dim`` text is measured as Textual draws it (the
colour blended towards the background); colours with alpha reach the compositor already
blended, so each cell holds two opaque colours.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rich.cells import cell_len
from rich.color import Color as RichColor
from textual.color import Color
from textual.screen import ModalScreen

from gitbook_tui.tui.common.contrast import (
    DIMMED_CONTRAST,
    TEXT_CONTRAST,
    contrast,
    dimmed_colours,
    floored_css_variables,
)
from gitbook_tui.tui.textual_compat import (
    composed_screen,
    drawn_only_on_demand,
    restyled_top_screen_only,
)
from support.waits import settle, until

DECORATION = (range(0x2500, 0x2580), range(0x2580, 0x25A0))
"""Box drawing and block elements: borders, rules, scrollbars, the focus bar."""


@dataclass(frozen=True)
class Failure:
    """A character drawn below its contrast floor."""

    theme: str
    row: int
    column: int
    text: str
    ratio: float
    floor: float
    colours: str

    def __str__(self) -> str:
        return (
            f"{self.theme}: row {self.row} col {self.column} {self.text!r} "
            f"{self.ratio:.2f}:1 (< {self.floor:g}; {self.colours})"
        )


def measurable_themes(app: Any) -> list[str]:
    """The built-in themes with colours of their own (not the terminal's ANSI palette)."""
    return [name for name in app.available_themes if not app.get_theme(name).ansi]


def _visible(char: str) -> bool:
    if not char.strip() or char == "\xa0":
        return False
    code = ord(char)
    return not any(code in block for block in DECORATION)


def _opaque(color: RichColor | None) -> Color | None:
    if color is None or color.triplet is None:
        return None
    return Color(*color.triplet)


def screen_failures(app: Any, theme: str) -> list[Failure]:
    """Every visible character of the composed screen below its floor: 4.5:1, or 3:1 for
    text drawn ``dim`` or in the theme's muted/disabled colours (see ``DIMMED_CONTRAST``)."""
    dimmed = dimmed_colours(floored_css_variables(app.theme_variables))
    on_top = _on_top(app)
    # a modal's own cells do not depend on the (faded, unmeasured) screens under it
    below = not isinstance(app.screen, ModalScreen)
    failures: list[Failure] = []
    for y, strip in enumerate(composed_screen(app, screens_below=below)):
        x = 0
        runs: dict[tuple[int, float, float, str], list[str]] = {}
        for segment in strip:
            text, style = segment.text, segment.style
            width = cell_len(text)
            if style is None or not any(_visible(c) for c in text) or not on_top(x, y):
                x += width
                continue
            fg, bg = _opaque(style.color), _opaque(style.bgcolor)
            if style.reverse:
                fg, bg = bg, fg
            ratio = 0.0 if fg is None or bg is None else contrast(fg, bg)
            floor = DIMMED_CONTRAST if fg is not None and fg.hex in dimmed else TEXT_CONTRAST
            if ratio < floor - 0.005:
                colours = f"{fg.hex if fg else None} on {bg.hex if bg else None}"
                key = (x, round(ratio, 2), floor, colours)
                runs.setdefault(key, []).append(text)
            x += width
        failures += [
            Failure(theme, y, x0, "".join(texts).strip(), ratio, floor, colours)
            for (x0, ratio, floor, colours), texts in runs.items()
        ]
    return failures


def _on_top(app: Any) -> Callable[[int, int], bool]:
    """Whether a cell belongs to the top screen: every cell, unless that screen is a modal
    dialog, whose widgets' cells only are (the screens below show through, faded)."""
    screen = app.screen
    if not isinstance(screen, ModalScreen):
        return lambda x, y: True
    regions = [w.region for w in screen.query("*") if w.display and w.region]
    return lambda x, y: any(region.contains(x, y) for region in regions)


def own_theme_failures(pilot: Any) -> list[Failure]:
    """The screen measured in the theme it is drawn in."""
    return screen_failures(pilot.app, pilot.app.theme)


async def every_theme_failures(pilot: Any) -> list[Failure]:
    """The screen measured in every measurable theme (the app's own theme restored and
    redrawn after)."""
    app = pilot.app
    original = app.theme
    failures: list[Failure] = []
    # workers the test left running on purpose (an action waiting on its dialog) stay so
    running = tuple({worker.group for worker in app.workers if not worker.is_finished})
    collecting = gc.isenabled()
    gc.disable()  # (the app's idle collector would walk the heap between two switches)
    try:
        # drawn once a theme, when measured (Textual would draw each refresh of a switch);
        # only the top screen restyled per theme (every screen once the theme is restored)
        with drawn_only_on_demand(app), restyled_top_screen_only(app):
            for theme in measurable_themes(app):
                await _switch(pilot, theme, running)
                failures += screen_failures(app, theme)
            await _switch(pilot, original, running)
    finally:
        if collecting:
            gc.enable()
    return failures


async def _switch(pilot: Any, theme: str, running: tuple[str, ...]) -> None:
    app = pilot.app
    if app.theme == theme:
        return
    before = app.theme_variables
    app.theme = theme
    # the CSS is refreshed (its variables replaced) a message later; widgets then restyle
    await until(pilot, lambda: app.theme_variables is not before, f"the CSS of {theme}")
    await settle(pilot, ignore=running, rounds=1)
