"""Errors stay in the affected pane until resolved or dismissed, name the server, retry
with r, and offer to sign in again after a 401."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from gitbook_tui.tui.account.welcome_screen import WelcomeScreen
from gitbook_tui.tui.app import GitBookApp
from gitbook_tui.tui.browse.browser_screen import BrowserScreen
from gitbook_tui.tui.common.error_banner import ErrorBanner
from support.tree_world import (
    app_and_transport,
    expand,
    move_to,
    reveal_space,
    tree_showing,
    until_browser,
)
from support.waits import settle, until, until_screen


@asynccontextmanager
async def intro_failing(
    world: Any, workspace: dict[str, str], tmp_path: Path, status: int
) -> AsyncIterator[tuple[Any, GitBookApp, BrowserScreen]]:
    """Run the app, open Handbook › Intro with its page read failing once with ``status``
    and yield (pilot, app, browser) once the page's error banner shows."""
    app, transport = app_and_transport(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await reveal_space(pilot, app, workspace["handbook"])
        tree = browser.workspace_tree
        await move_to(pilot, tree, "Intro")
        transport.fail["/content/page/" + tree.node_data(tree.selected_key).id] = status
        await pilot.press("enter")
        await until(pilot, lambda: browser.page_banner.showing)
        yield pilot, app, browser


def banner_text(banner: ErrorBanner) -> str:
    return str(banner.render())


async def test_page_error_stays_names_the_server_and_r_retries(world, workspace, tmp_path):
    async with intro_failing(world, workspace, tmp_path, 500) as (pilot, _app, browser):
        banner = browser.page_banner
        text = banner_text(banner)
        assert "Could not open the page" in text
        assert "http://testserver/v1" in text and "r retry" in text
        assert "[@click=app.quit]boom" in text  # server text shown literally, inert
        assert "S sign in again" not in text
        await settle(pilot)
        assert banner.showing  # no time-out
        assert browser.viewer.has_focus
        await pilot.press("r")
        await until(pilot, lambda: browser.header.title_text == "Intro")
        assert not banner.showing


async def test_x_dismisses_and_401_offers_sign_in_again(world, workspace, tmp_path):
    async with intro_failing(world, workspace, tmp_path, 401) as (pilot, app, browser):
        banner = browser.page_banner
        assert "S sign in again" in banner_text(banner)
        await pilot.press("S")
        await until_screen(pilot, WelcomeScreen)
        await pilot.press("escape")  # back to the browser, not out of the app
        await until(pilot, lambda: app.screen is browser)
        assert app.is_running and banner.showing
        await pilot.press("x")
        assert not banner.showing
        await pilot.press("r")  # no banner: r is no retry of the page now
        await pilot.pause()
        assert browser.header.title_text != "Intro"


async def test_tree_load_error_banner_until_the_node_loads(world, workspace, tmp_path):
    app, transport = app_and_transport(world, tmp_path)
    transport.fail[f"/collections/{workspace['product']}/spaces"] = 500
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await until_browser(pilot, app)
        banner = browser.query_one("#tree-error", ErrorBanner)
        tree = await tree_showing(pilot, app, "▤ Product")
        await expand(pilot, tree, "Product")
        await until(pilot, lambda: banner.showing)
        assert "Could not load Product" in banner_text(banner)
        assert "http://testserver/v1" in banner_text(banner)
        await pilot.press("r")
        await until(pilot, lambda: not banner.showing)
