"""HelpScreen: every binding of the screen below, grouped, with keys and ids (those that do
nothing at the moment dimmed, with the reason)."""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Input, OptionList, Static

from gitbook_tui.tui.common.help_screen import HelpScreen, binding_groups

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


class ScreenApp(App[None]):
    """An app that shows ``first`` (a screen with the bindings under test) on start."""

    def __init__(self, first: Screen[None]) -> None:
        super().__init__()
        self.first = first

    def on_mount(self) -> None:
        self.push_screen(self.first)


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
        curated = help_text(app)
        assert "pages.expand" in curated and "Down" not in curated  # the app's own only
        assert curated.index("pages.expand") < curated.index("browser.open")  # focus first
        await pilot.press("question_mark")  # ? again: every binding
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
        for keys in (["escape"], ["question_mark", "question_mark"], ["q"]):
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            await pilot.press(*keys)
            await pilot.pause()
            assert isinstance(app.screen, Browser), keys


async def test_scrolls_when_long() -> None:
    class Many(Screen[None]):
        BINDINGS = [
            Binding(f"ctrl+{c}", "noop", f"Action {c}", id=f"many.{c}") for c in "abdfgjklnrtuvwxy"
        ]

        def action_noop(self) -> None:
            pass

    app = ScreenApp(Many())
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
        app.push_screen(HelpScreen(bare, show_all=True))
        await pilot.pause()
        text = help_text(app)
        assert "App" in text  # the app's own bindings (ctrl+q…) are still listed
        assert app.is_running


async def test_lists_disabled_overridden_and_typed_bindings_dimmed() -> None:
    """Nothing is dropped: a binding whose action is off now (check_action False or None),
    one whose key a binding nearer the focus takes, and one whose key the focused input
    takes as text are listed, marked, with their ids."""

    class TabbedPages(Pages):
        BINDINGS = [Binding("ctrl+t", "noop", "List tab", id="pages.tab")]

    class Form(Screen[None]):
        BINDINGS = [
            Binding("ctrl+e", "edit", "Edit", id="form.edit"),  # check_action: False
            Binding("ctrl+s", "save", "Save", id="form.save"),  # check_action: None
            Binding("ctrl+r", "noop", "Refresh", id="form.refresh"),
            Binding("ctrl+t", "noop", "Screen tab", id="form.tab"),  # the list's wins
            Binding("x", "noop", "Cut", id="form.cut"),  # typed into the input
        ]

        def compose(self) -> ComposeResult:
            yield TabbedPages("one", id="pages")
            yield Input(id="name")

        def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
            return {"edit": False, "save": None}.get(action, True)

        def action_noop(self) -> None:
            pass

    app = ScreenApp(Form())
    async with app.run_test(size=SIZE) as pilot:
        form = app.screen
        form.query_one(Pages).focus()
        await pilot.pause()
        rows = {r.id: r for _, group in binding_groups(app, form) for r in group}
        assert rows["form.refresh"].enabled and rows["form.refresh"].note == ""
        assert not rows["form.edit"].enabled and rows["form.edit"].note == "off now"
        assert not rows["form.save"].enabled and rows["form.save"].note == "off now"
        assert rows["pages.tab"].enabled
        assert not rows["form.tab"].enabled and rows["form.tab"].note == "overridden"
        assert rows["form.cut"].enabled  # the list does not take x

        form.query_one(Input).focus()
        await pilot.pause()
        rows = {r.id: r for _, group in binding_groups(app, form) for r in group}
        assert not rows["form.cut"].enabled and rows["form.cut"].note == "typed as text"
        assert rows["form.refresh"].enabled

        app.push_screen(HelpScreen(show_all=True))
        await pilot.pause()
        lines = help_text(app).splitlines()
        edit = next(line for line in lines if "Edit" in line)
        assert "(off now)" in edit and edit.split()[-1] == "form.edit"  # the id stays last
        cut = next(line for line in lines if "Cut" in line)
        assert "(typed as text)" in cut and cut.split()[-1] == "form.cut"
        tables = app.screen.query(".help-table").results(Static)
        table = next(s for s in tables if "form.edit" in str(s.content))
        content = table.content
        assert isinstance(content, Content)
        start = content.plain.index("Edit")
        assert any(  # dimmed
            "$text-muted" in str(span.style) and span.start <= start < span.end
            for span in content.spans
        )
