"""HelpScreen: every active binding of the screen below, grouped, with keys and ids."""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import OptionList, Static

from gitbook_tui.tui.screens.help_screen import HelpScreen, binding_groups

SIZE = (100, 30)


class Pages(OptionList):
    BINDINGS = [Binding("ctrl+e", "noop", "Expand all", id="pages.expand")]

    def action_noop(self) -> None:
        pass


class Browser(Screen[None]):
    BINDINGS = [
        Binding("ctrl+o", "noop", "Open in browser", id="browser.open"),
        Binding("h", "noop", "Hidden pages", show=False, id="browser.hidden"),
    ]

    def compose(self) -> ComposeResult:
        yield Pages("one", "two", id="pages")

    def action_noop(self) -> None:
        pass


class HelpApp(App[None]):
    BINDINGS = [
        Binding("question_mark", "help", "Help", id="app.help"),
        Binding("slash", "noop", "Search", id="app.search"),
    ]

    def on_mount(self) -> None:
        self.push_screen(Browser())

    def action_help(self) -> None:
        self.push_screen(HelpScreen())

    def action_noop(self) -> None:
        pass


def help_text(app: App[Any]) -> str:
    return "\n".join(str(s.content) for s in app.screen.query(Static))


async def test_lists_every_binding_with_ids_grouped() -> None:
    app = HelpApp()
    async with app.run_test(size=SIZE) as pilot:
        app.screen.query_one(Pages).focus()
        await pilot.pause()
        below = app.screen
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = help_text(app)
        for binding_id in ("browser.open", "browser.hidden", "pages.expand", "app.help"):
            assert binding_id in text, binding_id
        assert "Open in browser" in text and "Expand all" in text
        assert "^o" in text and "^e" in text  # keys as the app displays them
        groups = [title for title, _ in binding_groups(app, below)]
        assert groups[0] == "Screen — Browser"
        assert groups[-1] == "App"
        assert "Focused widget — Pages" in groups
        assert "Screen — Browser" in text and "Focused widget — Pages" in text
        # the focused widget's own (Textual) bindings are listed too
        assert "Down" in text or "cursor_down" in text
        rows = dict(binding_groups(app, below))
        assert {"browser.open", "browser.hidden"} <= {r.id for r in rows["Screen — Browser"]}
        assert "pages.expand" in {r.id for r in rows["Focused widget — Pages"]}
        assert {"app.help", "app.search"} <= {r.id for r in rows["App"]}


async def test_closes_with_escape_question_mark_and_q() -> None:
    app = HelpApp()
    async with app.run_test(size=SIZE) as pilot:
        for key in ("escape", "question_mark", "q"):
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, Browser), key


async def test_scrolls_when_long() -> None:
    class Many(Screen[None]):
        BINDINGS = [
            Binding(f"ctrl+{c}", "noop", f"Action {c}", id=f"many.{c}") for c in "abdfgjklnrtuvwxy"
        ]

        def action_noop(self) -> None:
            pass

    class ManyApp(App[None]):
        def on_mount(self) -> None:
            self.push_screen(Many())

    app = ManyApp()
    async with app.run_test(size=(80, 12)) as pilot:
        app.push_screen(HelpScreen())
        await pilot.pause()
        scroll = app.screen.query_one("#help-dialog")
        assert app.focused is scroll
        assert scroll.max_scroll_y > 0
        await pilot.press("end")
        await pilot.pause()
        assert scroll.scroll_y == scroll.max_scroll_y
        assert "many.y" in help_text(app)


async def test_explicit_screen_and_no_bindings() -> None:
    class Bare(Screen[None]):
        pass

    app: App[None] = App()
    async with app.run_test(size=SIZE) as pilot:
        bare = Bare()
        await app.push_screen(bare)
        await pilot.pause()
        app.push_screen(HelpScreen(bare))
        await pilot.pause()
        text = help_text(app)
        assert "App" in text  # the app's own bindings (ctrl+q…) are still listed
        assert app.is_running
