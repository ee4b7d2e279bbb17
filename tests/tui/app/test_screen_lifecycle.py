"""The browser survives being switched away (or the app closing) while its ``on_mount``
still awaits: no query of widgets already removed (``NoMatches 'Breadcrumb'``, seen now and
then in browser tests under load); and the size notice stands in for a terminal too small."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.geometry import Size

from gitbook_tui.cache import ResponseCache
from gitbook_tui.tui.browse.browser_screen import BrowserScreen
from gitbook_tui.tui.browse.tree.workspace_tree import WorkspaceTree
from gitbook_tui.tui.common.size_notice import SizeNoticeScreen
from support.fault_runs import browsing
from support.faults import seed_space, start_browser
from support.waits import run_ready, until, until_screen
from support.worlds import World


@pytest.fixture
def manual(world: World) -> dict[str, str]:
    return seed_space(world)


async def _remember_a_page(
    world: World, manual: dict[str, str], tmp_path: Path, cache: ResponseCache
) -> None:
    async with browsing(world, tmp_path, cache=cache) as (_, pilot, browser, _, _):
        browser.open_page(manual["space"], manual["Home"])
        await until(pilot, lambda: browser.header.title_text == "Home")
        await pilot.press("q")


@pytest.mark.parametrize("how", ["switched", "closed"])
async def test_browser_switched_away_during_its_mount(
    world: World,
    manual: dict[str, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    how: str,
) -> None:
    cache = ResponseCache(tmp_path / "responses.sqlite")
    await _remember_a_page(world, manual, tmp_path, cache)
    gate = asyncio.Event()
    waiting = asyncio.Event()
    hold = {"on": False}
    original = WorkspaceTree.warm_start

    async def held_warm_start(self: WorkspaceTree, *args: Any, **kwargs: Any) -> None:
        if hold["on"]:
            hold["on"] = False
            waiting.set()
            await gate.wait()  # this browser's mount waits here
        await original(self, *args, **kwargs)

    monkeypatch.setattr(WorkspaceTree, "warm_start", held_warm_start)
    async with browsing(world, tmp_path, cache=cache) as (app, pilot, _, _, _):
        hold["on"] = True
        opening = asyncio.ensure_future(app.show_browser(world.org))
        # (no pilot.pause while the mount is held: it waits for the screen to be idle)
        await asyncio.wait_for(waiting.wait(), 10)
        held = app.screen
        assert isinstance(held, BrowserScreen)
        if how == "switched":
            switch = asyncio.ensure_future(app.show_browser(world.org))
        else:
            app.exit()
        await run_ready()  # the held browser is being removed, its mount waiting
        gate.set()
        await asyncio.wait_for(opening, 10)
        if how == "switched":
            await asyncio.wait_for(switch, 10)
            assert app.screen is not held
            browser = await start_browser(app, pilot)
            await until(pilot, lambda: browser.header.title_text == "Home")
    assert app.return_code in (None, 0)


async def test_a_tiny_terminal_shows_the_size_notice_and_comes_back(
    world: World, manual: dict[str, str], tmp_path: Path
) -> None:
    async with browsing(world, tmp_path) as (app, pilot, browser, _, _):
        await pilot.resize_terminal(12, 4)
        # (the screen is pushed before its notice is mounted: wait for both)
        await until(
            pilot,
            lambda: (
                isinstance(app.screen, SizeNoticeScreen) and bool(app.screen.query("#size-notice"))
            ),
        )
        text = str(app.screen.query_one("#size-notice").render())
        assert "too small (12×4)" in text and "30×8" in text
        for key in ("ctrl+p", "pageup", "pagedown", "1", "s", "question_mark", "enter"):
            await pilot.press(key)
        await pilot.pause()
        assert isinstance(app.screen, SizeNoticeScreen)  # nothing opened under it
        await pilot.resize_terminal(80, 24)
        await until(pilot, lambda: app.screen is browser)
        # palette + pageup at 12×4: the palette open when the terminal shrinks
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.resize_terminal(12, 4)
        await until_screen(pilot, SizeNoticeScreen)
        await pilot.press("pageup", "pagedown")
        await pilot.resize_terminal(80, 24)
        await until(pilot, lambda: not isinstance(app.screen, SizeNoticeScreen))
        await pilot.press("pageup", "pagedown", "escape")
        await until(pilot, lambda: app.screen is browser)
    assert app.return_code in (None, 0)


async def test_resizes_in_quick_succession_while_the_notice_mounts(
    world: World, manual: dict[str, str], tmp_path: Path
) -> None:
    """A resize reaching the notice before its text is mounted (seen under load) is fine."""
    async with browsing(world, tmp_path) as (app, pilot, _, _, _):
        notice = SizeNoticeScreen()
        notice.on_resize(events.Resize(Size(17, 24), Size(17, 24)))  # nothing mounted yet
        for width in (17, 25, 16, 100):
            await pilot.resize_terminal(width, 24)
        await until(pilot, lambda: not isinstance(app.screen, SizeNoticeScreen))
    assert app.return_code in (None, 0)
