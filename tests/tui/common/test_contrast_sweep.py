"""The contrast sweep of the snapshot tests (``support.screen_contrast``) still fails on text
unreadable in one theme only, reads a modal's own cells only, and leaves every screen drawn
in the app's own theme after."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.screen import ModalScreen, Screen
from textual.widgets import Label

from gitbook_tui.tui.textual_compat import composed_screen
from support.screen_contrast import every_theme_failures, measurable_themes
from support.waits import until_screen

UNREADABLE_IN = """
.-theme-dracula .bad-in-dracula { color: $background; background: $background; }
.-theme-nord .bad-in-nord { color: $background; background: $background; }
"""


class Base(Screen[None]):
    def compose(self) -> ComposeResult:
        yield Label("fine everywhere")
        yield Label("BELOW", classes="bad-in-dracula")


class Dialog(ModalScreen[None]):
    DEFAULT_CSS = "Dialog { align: center middle; } Dialog > Label { background: $background; }"

    def compose(self) -> ComposeResult:
        yield Label("dialog text")
        yield Label("DIALOG", classes="bad-in-nord")


class Swept(App[None]):
    CSS = UNREADABLE_IN

    def on_mount(self) -> None:
        self.theme = "textual-dark"
        self.push_screen(Base())


def _cells(app: App[None]) -> list[list[tuple[str, object]]]:
    return [[(s.text, s.style) for s in strip] for strip in composed_screen(app)]


async def test_the_sweep_fails_on_text_unreadable_in_one_theme_only() -> None:
    app = Swept()
    async with app.run_test(size=(40, 8)) as pilot:
        await until_screen(pilot, Base)
        assert {"dracula", "nord"} <= set(measurable_themes(app))
        failures = await every_theme_failures(pilot)
        assert {(f.theme, f.text) for f in failures} == {("dracula", "BELOW")}
        assert (failures[0].row, failures[0].column, failures[0].ratio) == (1, 0, 1.0)
        assert app.theme == "textual-dark"


async def test_under_a_modal_only_its_own_cells_are_read_and_every_screen_is_restored() -> None:
    app = Swept()
    async with app.run_test(size=(40, 8)) as pilot:
        await until_screen(pilot, Base)
        app.push_screen(Dialog())
        await until_screen(pilot, Dialog)
        await pilot.pause()
        before = _cells(app)
        failures = await every_theme_failures(pilot)
        # the unreadable text of the faded screen below is not read; the dialog's is
        assert {(f.theme, f.text) for f in failures} == {("nord", "DIALOG")}
        await pilot.pause()
        # the screen below is restyled in the app's theme again, as it was drawn before
        assert app.theme == "textual-dark"
        assert _cells(app) == before
