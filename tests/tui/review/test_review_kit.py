"""The shared review-desk kit: numbered views, confirmation panels and denied actions."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import httpx
import pytest
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Static

from gitbook_tui.api import AsyncGitBook
from gitbook_tui.tui import app_navigation as app_module
from gitbook_tui.tui.app import GitBookApp
from gitbook_tui.tui.browse.browser_screen import BrowserScreen
from gitbook_tui.tui.common.config import TuiConfig
from gitbook_tui.tui.common.confirm_screen import ConfirmScreen
from gitbook_tui.tui.common.denial import denial_of, gated
from gitbook_tui.tui.common.hint_footer import HintFooter
from gitbook_tui.tui.common.state import StateStore
from gitbook_tui.tui.views import View
from support.waits import until, until_screen

BASE = "http://testserver/v1"


class DemoView(Screen[None]):
    """A view with one allowed and one denied action."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("x", "resolve", "Resolve", id="demo.resolve"),
        Binding("e", "edit", "Edit", id="demo.edit"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.resolved = 0
        self.edited = 0

    def compose(self) -> ComposeResult:
        yield Static("demo view", id="demo-body")
        yield HintFooter(compact=True)

    def denial_reason(self, action: str) -> str | None:
        return "Only the author can edit [b]this[/b]" if action == "edit" else None

    @gated
    def action_resolve(self) -> None:
        self.resolved += 1

    @gated
    def action_edit(self) -> None:
        self.edited += 1


def make_app(world: Any, tmp_path: Path) -> GitBookApp:
    client = AsyncGitBook(
        "tok-eve", base_url=BASE, transport=httpx.ASGITransport(app=world.app), max_retries=0
    )
    return GitBookApp(client, config=TuiConfig(), state_store=StateStore(tmp_path / "s.json"))


async def test_numbered_view_is_built_once_and_kept(world, tmp_path, monkeypatch):
    built: list[DemoView] = []

    def factory(_nav: Any) -> DemoView:
        built.append(DemoView())
        return built[-1]

    views = (View("1", "browse", "Browse"), View("3", "demo", "Demo", factory))
    monkeypatch.setattr(app_module, "view_named", lambda n: next(v for v in views if v.name == n))
    app = make_app(world, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await until_screen(pilot, BrowserScreen)
        await app.run_action("show_view('demo')")
        await until_screen(pilot, DemoView)
        await pilot.press("x")
        await app.run_action("show_view('browse')")
        await until_screen(pilot, BrowserScreen)
        await app.run_action("show_view('demo')")
        await until_screen(pilot, DemoView)
        assert len(built) == 1 and app.screen is built[0] and built[0].resolved == 1


async def test_denied_action_is_dimmed_and_says_why():
    class KitApp(App[None]):
        def on_mount(self) -> None:
            self.push_screen(DemoView())

    app = KitApp()
    async with app.run_test(size=(80, 24)) as pilot:
        view = await until_screen(pilot, DemoView)
        assert denial_of(view, "edit") == "Only the author can edit [b]this[/b]"
        assert denial_of(view, "resolve") is None
        footer = view.query_one(HintFooter)
        await until(pilot, lambda: len(footer.children) >= 2)
        keys = {k.key: k.has_class("-disabled") for k in footer.children if hasattr(k, "key")}
        assert keys["e"] is True and keys["x"] is False
        await pilot.press("e")
        await until(pilot, lambda: app._notifications)
        (note,) = list(app._notifications)
        assert note.message == "Only the author can edit [b]this[/b]" and not note.markup
        assert view.edited == 0
        await pilot.press("x")
        assert view.resolved == 1


@pytest.mark.parametrize(
    ("typed", "keys", "expected"),
    [
        (None, ["enter"], True),
        (None, ["escape"], False),
        ("5", ["4", "enter", "escape"], False),
        ("5", ["5", "enter"], True),
    ],
)
async def test_confirm_screen(typed, keys, expected):
    results: list[bool] = []

    class KitApp(App[None]):
        def on_mount(self) -> None:
            self.push_screen(
                ConfirmScreen("Merge #5", "Merges [red]#5[/red]", typed=typed), results.append
            )

    app = KitApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await until_screen(pilot, ConfirmScreen)
        effect = app.screen.query_one("#confirm-effect", Static)
        assert "[red]" in str(effect.render())  # server text stays inert
        for key in keys:
            await pilot.press(key)
        await until(pilot, lambda: results)
        assert results == [expected]
