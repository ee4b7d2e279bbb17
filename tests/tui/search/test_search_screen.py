"""SearchScreen against the in-process local server: space and organization search,
live (debounced) search, no results, server errors, local refusal of long queries,
hostile titles shown literally."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest
from textual.app import App
from textual.widgets import Input, OptionList, Static

from gitbook_tui.api import AsyncGitBook
from gitbook_tui.tui.common.navigator import Navigator
from gitbook_tui.tui.search.hanging_indent import HangingIndent
from gitbook_tui.tui.search.search_results import SearchResult, highlight, section_anchor
from gitbook_tui.tui.search.search_screen import MAX_QUERY, SearchScreen
from support.builders import space_with_pages
from support.nav_app import HOSTILE, RecordingNavigator, page_id
from support.waits import settle, until, until_screen
from support.worlds import World

SIZE = (100, 30)


class Recording(httpx.AsyncBaseTransport):
    """Counts requests; answers ``/search`` with ``search_error`` when set."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.paths: list[str] = []
        self.search_error: tuple[int, str] | None = None

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.paths.append(request.url.path)
        if self.search_error and request.url.path.endswith("/search"):
            status, message = self.search_error
            body = {"error": {"code": status, "message": message}}
            return httpx.Response(status, content=json.dumps(body).encode(), request=request)
        return await self.inner.handle_async_request(request)

    @property
    def searches(self) -> int:
        return sum(p.endswith("/search") for p in self.paths)


class NavApp(RecordingNavigator):
    """The navigator recording notifications (text and severity) too."""

    def __init__(self, client: AsyncGitBook, org: str | None, space: str | None) -> None:
        super().__init__(client, org, space)
        self.notes: list[tuple[str, str]] = []

    def notify(self, message: Any, **kwargs: Any) -> None:  # type: ignore[override]
        self.notes.append((str(message), str(kwargs.get("severity", "information"))))
        super().notify(message, **kwargs)


@asynccontextmanager
async def search_open(
    client: AsyncGitBook, org: str | None, space: str | None
) -> AsyncIterator[tuple[NavApp, Any, list[SearchResult | None]]]:
    """Run a NavApp on ``space`` (None: no space open) with the search screen pushed over
    it; yield (app, pilot, what the screen was dismissed with)."""
    app = NavApp(client, org, space)
    chosen: list[SearchResult | None] = []
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(SearchScreen(), chosen.append)
        await pilot.pause()
        yield app, pilot, chosen


@pytest.fixture
def transport(world: World) -> Recording:
    return Recording(httpx.ASGITransport(app=world.app))


@pytest.fixture
async def client(transport: Recording):
    c = AsyncGitBook("tok-alice", base_url="http://testserver/v1", transport=transport)
    yield c
    await c.close()


@pytest.fixture
def tidewater(world: World) -> str:
    return space_with_pages(
        world,
        "Tidewater",
        [
            ("Install", "# Install\n\n## Linux\n\napt install tidewater"),
            ("Configure", "# Configure\n\n## Ports\n\nTidewater listens on 8080."),
        ],
    )


def status_text(app: App[Any]) -> str:
    return str(app.screen.query_one("#search-status", Static).content)


def prompts(app: App[Any]) -> list[str]:
    results = app.screen.query_one("#search-results", OptionList)
    return [results.get_option_at_index(i).prompt.plain for i in range(results.option_count)]  # type: ignore[union-attr]


def test_navigator_protocol(client: AsyncGitBook) -> None:
    assert isinstance(NavApp(client, "o", "s"), Navigator)
    assert not isinstance(App(), Navigator)


def test_section_anchor_and_highlight() -> None:
    from gitbook_tui.models import SearchSection

    assert section_anchor(SearchSection(id="p1#linux"), "p1") == "linux"
    assert section_anchor(SearchSection(id="p1", resultType="page"), "p1") is None
    assert section_anchor(SearchSection(id="p1", path="install#setup"), "p1") == "setup"
    content = highlight("apt install Tidewater [b]x[/b]", "tidewater")
    assert content.plain == "apt install Tidewater [b]x[/b]"
    assert any(span.start == 12 and span.end == 21 for span in content.spans)


async def test_space_search_enter_picks_section(
    world: World, client: AsyncGitBook, tidewater: str
) -> None:
    async with search_open(client, world.org, tidewater) as (app, pilot, chosen):
        assert "this space" in str(app.screen.query_one("#search-scope", Static).content)
        await pilot.press(*"linux", "enter")
        await settle(pilot)
        lines = prompts(app)
        assert lines[0].startswith("Install")
        assert "install" in lines[0]  # the path
        assert "Linux" in lines[1] and "apt install tidewater" in lines[1]
        results = app.screen.query_one("#search-results", OptionList)
        assert app.focused is results and results.highlighted == 0
        await pilot.press("down", "enter")
        await pilot.pause()
    install = page_id(world, tidewater, "Install")
    assert chosen == [SearchResult(tidewater, install, "linux")]


async def test_page_result_has_no_anchor_and_live_search(
    world: World, client: AsyncGitBook, transport: Recording, tidewater: str
) -> None:
    async with search_open(client, world.org, tidewater) as (app, pilot, chosen):
        await pilot.press("p")  # one character: no live search
        await settle(pilot)
        assert app.screen._timer is None  # type: ignore[attr-defined]  (none armed)
        assert transport.searches == 0
        await pilot.press(*"orts")
        await until(pilot, lambda: transport.searches >= 1)  # debounce: one search for "ports"
        await settle(pilot)
        assert transport.searches == 1
        assert any("Configure" in line for line in prompts(app))
        assert isinstance(app.focused, Input)  # typing keeps the focus in the query
        await pilot.press("enter")  # results already answer the query: go to them
        await pilot.pause()
        assert transport.searches == 1
        await pilot.press("enter")
        await pilot.pause()
    assert chosen == [SearchResult(tidewater, page_id(world, tidewater, "Configure"), None)]


async def test_org_wide_toggle(world: World, client: AsyncGitBook, tidewater: str) -> None:
    other = space_with_pages(
        world, "Harbor", [("Linux notes", "# Linux notes\n\nLinux harbor setup.")]
    )
    async with search_open(client, world.org, tidewater) as (app, pilot, chosen):
        await pilot.press(*"linux", "enter")
        await settle(pilot)
        assert not any("Harbor" in line for line in prompts(app))
        await pilot.press("shift+tab")  # back to the query
        await pilot.press("ctrl+o")
        await settle(pilot)
        assert "whole organization" in str(app.screen.query_one("#search-scope", Static).content)
        lines = prompts(app)
        assert any(line.startswith("▸ Harbor") for line in lines)
        assert any(line.startswith("▸ Tidewater") for line in lines)
        results = app.screen.query_one("#search-results", OptionList)
        headers = [i for i, line in enumerate(lines) if line.startswith("▸")]
        assert all(results.get_option_at_index(i).disabled for i in headers)
        harbor_page = lines.index(next(line for line in lines if line.startswith("Linux notes")))
        results.focus()
        results.highlighted = harbor_page
        await pilot.press("enter")
        await pilot.pause()
    assert chosen == [SearchResult(other, page_id(world, other, "Linux notes"), None)]


async def test_org_scope_without_open_space(
    world: World, client: AsyncGitBook, tidewater: str
) -> None:
    async with search_open(client, world.org, None) as (app, pilot, _):
        assert "whole organization" in str(app.screen.query_one("#search-scope", Static).content)
        await pilot.press("ctrl+o")  # no space open: stays org-wide, says why
        await pilot.pause()
        assert "whole organization" in str(app.screen.query_one("#search-scope", Static).content)
        assert any("No space is open" in note for note, _ in app.notes)


async def test_no_results(world: World, client: AsyncGitBook, tidewater: str) -> None:
    async with search_open(client, world.org, tidewater) as (app, pilot, _):
        await pilot.press(*"zebraquark", "enter")
        await settle(pilot)
        assert status_text(app) == "No results for “zebraquark”"
        assert app.screen.query_one("#search-results", OptionList).option_count == 0
        assert isinstance(app.screen, SearchScreen)


async def test_server_error_keeps_the_query(
    world: World, client: AsyncGitBook, transport: Recording, tidewater: str
) -> None:
    transport.search_error = (400, "query: too long [@click=app.quit]x[/]")
    async with search_open(client, world.org, tidewater) as (app, pilot, _):
        await until(pilot, lambda: isinstance(app.focused, Input))  # (typed keys go there)
        await pilot.press(*"tidewater", "enter")
        await settle(pilot)
        assert app.screen.query_one("#search-input", Input).value == "tidewater"
        errors = [note for note, severity in app.notes if severity == "error"]
        assert errors == ["query: too long [@click=app.quit]x[/]"]
        assert "query: too long" in status_text(app)
        # the server recovers: the same query searches again
        transport.search_error = None
        await pilot.press("enter")
        await settle(pilot)
        assert any("Install" in line for line in prompts(app))
        assert app.is_running


async def test_long_query_refused_locally(
    world: World, client: AsyncGitBook, transport: Recording, tidewater: str
) -> None:
    async with search_open(client, world.org, tidewater) as (app, pilot, _):
        query = app.screen.query_one("#search-input", Input)
        query.value = "x" * (MAX_QUERY + 1)
        await until(pilot, lambda: app.screen._timer is None, "the live search's debounce")  # type: ignore[attr-defined]
        await pilot.press("enter")
        await settle(pilot)
        assert transport.searches == 0
        assert "too long" in status_text(app) and str(MAX_QUERY) in status_text(app)
        assert any("too long" in note for note, severity in app.notes if severity == "warning")
        assert query.value == "x" * (MAX_QUERY + 1)


async def test_escape_closes(world: World, client: AsyncGitBook, tidewater: str) -> None:
    async with search_open(client, world.org, tidewater) as (app, pilot, chosen):
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, SearchScreen)
    assert chosen == [None]


async def test_without_navigator_degrades(client: AsyncGitBook) -> None:
    app: App[None] = App()
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(SearchScreen())
        await pilot.pause()
        await pilot.press(*"tidewater", "enter", "ctrl+o")
        await pilot.pause()
        assert "not available" in status_text(app)
        assert app.is_running


async def test_hostile_titles_are_literal(world: World, client: AsyncGitBook) -> None:
    space = space_with_pages(
        world,
        HOSTILE,
        [(HOSTILE, "# x\n\n## [@click=app.quit] sec\n\nhostile tidewater \x1b[31m text")],
    )
    async with search_open(client, world.org, space) as (app, pilot, chosen):
        await pilot.press(*"tidewater", "enter")
        await settle(pilot)
        lines = prompts(app)
        assert lines[0].startswith("[@click=app.quit]Boom[/] Redevil")
        assert "[@click=app.quit] sec" in lines[1]
        assert not any("\x1b" in line or "\u202e" in line for line in lines)
        await pilot.press("shift+tab", "ctrl+o")  # org-wide: the hostile space title too
        await settle(pilot)
        lines = prompts(app)
        assert "▸ [@click=app.quit]Boom[/] Redevil" in lines
        screenshot = app.export_screenshot()
        assert "[@click=app.quit]Boom[/]" in screenshot.replace("&#160;", " ")
        results = app.screen.query_one("#search-results", OptionList)
        await pilot.click(results, offset=(5, 2))  # on the literal "[@click=…]" page title
        await pilot.pause()
        assert app.is_running
    assert len(chosen) == 1 and chosen[0] is not None and chosen[0].space_id == space


def test_section_snippet_wraps_under_its_first_line() -> None:
    from textual.content import Content
    from textual.style import Style
    from textual.visual import RenderOptions

    body = Content("Linux — " + "apt install tidewater and then configure it " * 3)
    visual = HangingIndent(Content("    ↳ "), body)
    assert visual.plain.startswith("    ↳ Linux — apt install")
    rules: Any = {}
    assert visual.get_height(rules, 40) == body.get_height(rules, 34) > 1
    strips = visual.render_strips(40, None, Style(), RenderOptions(lambda _: Style(), {}))
    lines = ["".join(seg.text for seg in strip) for strip in strips]
    assert len(lines) > 1 and lines[0].startswith("    ↳ Linux")
    for line in lines[1:]:
        assert line.startswith(" " * 6) and line[6] != " ", lines  # under the title, not col 0


async def test_the_scope_chosen_is_kept_for_the_next_search(
    world: World, client: AsyncGitBook, tidewater: str
) -> None:
    """ctrl+o's choice persists (per account): the next ``s`` searches where the last did."""
    app = NavApp(client, world.org, tidewater)

    def scope_line() -> str:
        lines = app.screen.query("#search-scope")
        return str(lines.first(Static).content) if lines else ""

    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(SearchScreen())
        await until(pilot, lambda: "this space" in scope_line(), "the space scope at first")
        assert app.screen.scope == "space"
        await pilot.press("ctrl+o")
        await until(pilot, lambda: app.screen.scope == "org", "the organization scope")
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, SearchScreen), "closed")
        app.push_screen(SearchScreen())
        await until_screen(pilot, SearchScreen)
        await until(pilot, lambda: app.screen.scope == "org", "the scope chosen last time")
