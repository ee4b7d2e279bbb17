"""A screen made with preset_breakpoints has, before it is mounted, the breakpoint classes
Textual gives it at its first resize (so that resize restyles nothing), and still follows
the terminal's size after."""

from __future__ import annotations

from typing import ClassVar

import pytest
from textual.app import App
from textual.screen import Screen

from gitbook_tui.tui.common.breakpoints import breakpoint_class, preset_breakpoints
from support.waits import until

_CLASSES = ("-short", "-tall", "-narrow", "-wide")


class _Sized(Screen[None]):
    VERTICAL_BREAKPOINTS: ClassVar[list[tuple[int, str]]] = [(0, "-short"), (32, "-tall")]

    def __init__(self, *, preset: bool) -> None:
        super().__init__()
        if preset:
            preset_breakpoints(self)
        self.made_with = {c for c in _CLASSES if self.has_class(c)}


class _App(App[None]):
    HORIZONTAL_BREAKPOINTS: ClassVar[list[tuple[int, str]]] = [(0, "-narrow"), (100, "-wide")]


def test_the_class_of_the_largest_threshold_reached() -> None:
    steps = [(0, "-short"), (32, "-tall")]
    assert breakpoint_class(10, steps) == "-short"
    assert breakpoint_class(32, steps) == "-tall"
    assert breakpoint_class(31, [(32, "-tall")]) is None


def test_a_screen_made_outside_an_app_is_left_to_its_first_resize() -> None:
    assert _Sized(preset=True).made_with == set()


@pytest.mark.parametrize(
    ("size", "wanted"), [((120, 40), {"-wide", "-tall"}), ((80, 24), {"-narrow", "-short"})]
)
async def test_a_preset_screen_starts_with_the_classes_its_first_resize_gives(
    size: tuple[int, int], wanted: set[str]
) -> None:
    app = _App()
    async with app.run_test(size=size) as pilot:
        preset, plain = _Sized(preset=True), _Sized(preset=False)
        assert preset.made_with == wanted
        assert plain.made_with == set()  # (Textual adds them at the first resize)
        for screen in (plain, preset):
            await app.push_screen(screen)
            await until(pilot, lambda s=screen: s.has_class(*wanted), "the first resize")
            assert {c for c in _CLASSES if screen.has_class(c)} == wanted
        await pilot.resize_terminal(80 if size[0] > 80 else 120, 24 if size[1] > 24 else 40)
        await until(pilot, lambda: not preset.has_class(*wanted), "the classes to follow")
