"""Focus between the tree and the page, the focused pane's accent, pager keys everywhere."""

from __future__ import annotations

import pytest

from gitbook_tui.tui.common.help_screen import HelpScreen
from gitbook_tui.tui.common.pager import PagerScroll
from support import tree_world
from support.tree_world import app_on, open_page
from support.waits import until, until_screen

LONG = "# Long\n\n" + "\n\n".join(f"Paragraph {n} of the long page." for n in range(200))


@pytest.fixture
def long_page(world, workspace):
    tree_world.add_pages(world, workspace["notes"], [tree_world.page("Long", LONG)])
    return workspace


async def test_enter_focuses_the_page_and_h_escape_w_come_back(world, long_page, tmp_path):
    """enter focuses the page; h, left, escape and w each come back to the tree with the focus mark.
    Slow: a long page opened and focus switched a dozen times."""
    app = app_on(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await open_page(pilot, app, long_page["notes"], "Long")
        tree, viewer = browser.workspace_tree, browser.viewer
        sidebar, page = browser.query_one("#browser-sidebar"), browser.query_one("#browser-page")
        assert viewer.has_focus
        accent = app.theme_variables["accent"].lower()
        assert page.styles.border_left[0] == "thick"
        assert page.styles.border_left[1].hex.lower() == accent
        assert sidebar.styles.border_left[0] in ("blank", "")
        for key in ("h", "left", "escape"):
            await pilot.press(key)
            assert tree.has_focus, key
            await pilot.pause()
            assert sidebar.styles.border_left[0] == "thick"
            await pilot.press("enter")  # enter on the open page: the page again
            await until(pilot, lambda: viewer.has_focus)
        # w and ctrl+w (no fn key needed) switch panes, as f6 does
        for key in ("w", "ctrl+w", "f6"):
            await pilot.press(key)
            assert tree.has_focus, key
            await pilot.press(key)
            assert viewer.has_focus, key


async def test_pager_keys_in_the_page(world, long_page, tmp_path):
    app = app_on(world, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        browser = await open_page(pilot, app, long_page["notes"], "Long")
        view = browser.viewer.viewport
        assert view is not None and view.top == 0
        # the keys pressed, then the page's top line; each top is read after its keys (the
        # page's height as drawn now: a line above it may come a frame late)
        half, whole = (lambda: view.height // 2), (lambda: view.height)
        steps = [
            (("ctrl+d",), half),
            (("ctrl+u",), lambda: 0),
            (("ctrl+f",), whole),
            (("ctrl+b",), lambda: 0),
            (("space", "space", "b"), whole),
            (("d", "u"), whole),
        ]
        for keys, top in steps:
            await pilot.press(*keys)
            assert view.top == top(), keys
        await pilot.press("G")
        assert view.top > 10 * view.height
        await pilot.press("g")
        assert view.top == 0


async def test_help_scrolls_with_the_pager_keys(world, long_page, tmp_path):
    app = app_on(world, tmp_path)
    async with app.run_test(size=(80, 16)) as pilot:
        await open_page(pilot, app, long_page["notes"], "Long")
        await pilot.press("question_mark")
        await until_screen(pilot, HelpScreen)
        await pilot.pause()
        scroll = app.screen.query_one(PagerScroll)
        assert scroll.has_focus and scroll.max_scroll_y > 0
        await pilot.press("space")
        assert scroll.scroll_y > 0
        await pilot.press("g")
        assert scroll.scroll_y == 0
        await pilot.press("ctrl+d")
        assert scroll.scroll_y > 0
        await pilot.press("G")
        assert scroll.scroll_y == scroll.max_scroll_y
