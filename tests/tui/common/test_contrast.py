"""common.contrast: the theme's text colours floored, dimmed text apart from enabled text,
the contrast floor filter, and checkbox state shown by a glyph."""

from __future__ import annotations

from rich.color import Color as RichColor
from rich.segment import Segment
from rich.style import Style
from textual.app import App, ComposeResult
from textual.color import Color

from gitbook_tui.tui.common.contrast import (
    DIMMED_CONTRAST,
    DISTINCT,
    TEXT_CONTRAST,
    contrast,
    dimmed_colours,
    floored_css_variables,
    opaque,
)
from gitbook_tui.tui.common.contrast_floor import ContrastFloor
from gitbook_tui.tui.common.marked_checkbox import MarkedCheckbox


def _themes() -> list[dict[str, str]]:
    app = App[None]()
    found = []
    for name in app.available_themes:
        if app.get_theme(name).ansi:
            continue
        app.theme = name
        found.append({"name": name, **app.get_css_variables()})
    return found


def test_every_builtin_theme_gets_readable_and_distinct_text() -> None:
    failures = []
    for raw in _themes():
        name = raw.pop("name")
        floored = floored_css_variables(raw)
        background = Color.parse(floored["background"])
        grounds = [background] + [
            opaque(Color.parse(floored[g]), background) for g in ("surface", "panel")
        ]
        text = Color.parse(floored["foreground"])
        muted = Color.parse(floored["text-muted"])
        for ground in grounds:
            for what, colour, floor in (
                ("text", text, TEXT_CONTRAST),
                ("muted", muted, DIMMED_CONTRAST),
                ("error", Color.parse(floored["text-error"]), TEXT_CONTRAST),
            ):
                if contrast(colour, ground) < floor:
                    failures.append((name, what, ground.hex, round(contrast(colour, ground), 2)))
        if contrast(text, muted) < DISTINCT:
            failures.append((name, "muted too close to text", round(contrast(text, muted), 2)))
        cursor = Color.parse(floored["block-cursor-background"])
        on_cursor = Color.parse(floored["block-cursor-foreground"])
        if contrast(on_cursor, cursor) < TEXT_CONTRAST:
            failures.append((name, "cursor row", round(contrast(on_cursor, cursor), 2)))
        footer = opaque(Color.parse(floored["footer-background"]), background)
        for key in ("footer-key-foreground", "footer-description-foreground"):
            if contrast(Color.parse(floored[key]), footer) < TEXT_CONTRAST:
                failures.append((name, key))
        if contrast(Color.parse(floored["text-disabled"]), footer) < DIMMED_CONTRAST:
            failures.append((name, "text-disabled (the footer's denied keys)"))
    assert not failures, failures


def test_ansi_themes_are_left_to_the_terminal() -> None:
    variables = {"background": "ansi_default", "foreground": "ansi_default"}
    assert floored_css_variables(variables) == variables


def test_the_floor_filter_lifts_text_below_its_floor_and_leaves_the_rest() -> None:
    black = RichColor.parse("#000000")
    grey = RichColor.parse("#333333")  # 1.7:1 on black
    floor = ContrastFloor(dimmed=frozenset({"#777777"}))
    lifted, spaces, fine, muted = floor.apply(
        [
            Segment("low", Style(color=grey, bgcolor=black)),
            Segment("   ", Style(color=grey, bgcolor=black)),
            Segment("ok", Style(color=RichColor.parse("#ffffff"), bgcolor=black)),
            Segment("dim", Style(color=RichColor.parse("#777777"), bgcolor=black)),
        ],
        Color(0, 0, 0),
    )
    assert lifted.style is not None and lifted.style.color is not None
    assert lifted.style.color.triplet is not None
    assert contrast(Color(*lifted.style.color.triplet), Color(0, 0, 0)) >= TEXT_CONTRAST
    assert spaces.style is not None and spaces.style.color == grey
    assert fine.style is not None and fine.style.color == RichColor.parse("#ffffff")
    assert muted.style is not None and muted.style.color == RichColor.parse("#777777")  # 4.7


def test_dimmed_colours_are_the_floored_muted_ones() -> None:
    raw = _themes()[0]
    raw.pop("name")
    floored = floored_css_variables(raw)
    assert floored["text-muted"] in dimmed_colours(floored)
    assert floored["foreground"] not in dimmed_colours(floored)


class Boxes(App[None]):
    def compose(self) -> ComposeResult:
        yield MarkedCheckbox("Published", True, id="on")
        yield MarkedCheckbox("Adaptive", False, id="off")


async def test_a_checkbox_shows_its_state_by_a_glyph() -> None:
    app = Boxes()
    async with app.run_test() as pilot:
        on, off = app.query_one("#on", MarkedCheckbox), app.query_one("#off", MarkedCheckbox)
        assert "✓" in on.render().plain and "✓" not in off.render().plain
        off.toggle()
        await pilot.pause()
        assert "✓" in off.render().plain
