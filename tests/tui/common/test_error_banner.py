"""Errors stay in the affected pane until resolved or dismissed, name the server, retry
with r, and offer to sign in again after a 401."""

from __future__ import annotations

from gitbook_tui.tui.account.welcome_screen import WelcomeScreen
from gitbook_tui.tui.browse.browser_screen import BrowserScreen
from gitbook_tui.tui.common.error_banner import ErrorBanner
from support import tree_world
from support.tree_world import Transport, browser_ready, make_app, make_client, move_to, tree_of
from support.waits import settle, until


async def _open_intro(pilot, app, workspace, transport, status):
    await until(pilot, lambda: browser_ready(app))
    browser = app.screen
    assert isinstance(browser, BrowserScreen)
    tree = tree_of(app)
    assert await tree.reveal(await app.client.spaces.get(workspace["handbook"]))
    tree.focus()
    await pilot.pause()
    await move_to(pilot, tree, "Intro")
    transport.fail["/content/page/" + tree.node_data(tree.selected_key).id] = status
    await pilot.press("enter")
    return browser


def banner_text(banner: ErrorBanner) -> str:
    return str(banner.render())


async def test_page_error_stays_names_the_server_and_r_retries(world, workspace, tmp_path):
    transport = Transport(world.app)
    app = make_app(make_client(transport), tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await _open_intro(pilot, app, workspace, transport, 500)
        banner = browser.page_banner
        await until(pilot, lambda: banner.showing)
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
    transport = Transport(world.app)
    app = make_app(make_client(transport), tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await _open_intro(pilot, app, workspace, transport, 401)
        banner = browser.page_banner
        await until(pilot, lambda: banner.showing)
        assert "S sign in again" in banner_text(banner)
        await pilot.press("S")
        await until(pilot, lambda: isinstance(app.screen, WelcomeScreen))
        await pilot.press("escape")  # back to the browser, not out of the app
        await until(pilot, lambda: app.screen is browser)
        assert app.is_running and banner.showing
        await pilot.press("x")
        assert not banner.showing
        await pilot.press("r")  # no banner: r is no retry of the page now
        await pilot.pause()
        assert browser.header.title_text != "Intro"


async def test_tree_load_error_banner_until_the_node_loads(world, workspace, tmp_path):
    transport = Transport(world.app)
    transport.fail[f"/collections/{workspace['product']}/spaces"] = 500
    app = make_app(make_client(transport), tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: browser_ready(app))
        browser = app.screen
        assert isinstance(browser, BrowserScreen)
        tree = tree_of(app)
        banner = browser.query_one("#tree-error", ErrorBanner)
        await until(pilot, lambda: "▤ Product" in tree_world.visible_labels(tree))
        await move_to(pilot, tree, "Product")
        await pilot.press("l")
        await until(pilot, lambda: banner.showing)
        assert "Could not load Product" in banner_text(banner)
        assert "http://testserver/v1" in banner_text(banner)
        await pilot.press("r")
        await until(pilot, lambda: not banner.showing)
