"""The tree's filter: only ``/`` starts it, typing never runs commands, the arrows and
ctrl+n/p move among matches, enter opens the match and leaves the filter, escape clears it."""

from __future__ import annotations

from gitbook_tui.tui.browse.browser_screen import BrowserScreen
from support.tree_world import (
    app_on,
    browser_ready,
    cursor_label,
    move_to,
    reveal_space,
    tree_of,
    visible_labels,
)
from support.waits import until


async def test_typing_q_in_the_filter_does_not_quit(world, workspace, tmp_path):
    app = app_on(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        tree = (await reveal_space(pilot, app, workspace["handbook"])).workspace_tree
        # typed fast, in one go: the keys after / never reach the tree's or app's bindings
        await pilot.press("slash", "q", "u", "i", "t", "s", "t")
        box = app.screen.query_one("#tree-filter")
        assert app.is_running and isinstance(app.screen, BrowserScreen)
        assert box.value == "quitst"
        await until(pilot, lambda: tree.filter_text == "quitst")
        await pilot.press("escape")
        assert tree.filter_text == "" and tree.has_focus
        assert app.is_running


async def test_arrows_and_ctrl_n_p_move_among_matches(world, workspace, tmp_path):
    app = app_on(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        tree = (await reveal_space(pilot, app, workspace["handbook"])).workspace_tree
        await pilot.press("slash", "n")
        await until(pilot, lambda: tree.filter_text == "n")
        matches = [tree.node_data(k).title for k in tree.filter_matches]
        assert matches == ["Handbook", "Intro", "Install", "Notes"]
        assert cursor_label(tree) == "□ Handbook"
        await pilot.press("down")
        assert cursor_label(tree) == "Intro"
        await pilot.press("ctrl+n")
        assert cursor_label(tree) == "Install"
        await pilot.press("ctrl+p", "up")
        assert cursor_label(tree) == "□ Handbook"
        await pilot.press("up")  # wraps to the last match
        assert cursor_label(tree) == "📝 Notes"
        assert app.screen.query_one("#tree-filter").has_focus


async def test_enter_opens_the_match_reveals_it_and_focuses_the_page(world, workspace, tmp_path):
    app = app_on(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await reveal_space(pilot, app, workspace["handbook"])
        tree = browser.workspace_tree
        await pilot.press("slash", "i", "n", "s", "t", "enter")
        await until(pilot, lambda: browser.header.title_text == "Install")
        assert tree.filter_text == ""
        assert not browser.query_one("#tree-filter").display
        assert browser.viewer.has_focus
        # the whole tree again, the opened page revealed under the cursor
        assert "📝 Notes" in visible_labels(tree)
        assert cursor_label(tree) == "Install"


async def test_filter_matches_pages_of_the_space_not_loaded_yet(world, workspace, tmp_path):
    app = app_on(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        tree = (await reveal_space(pilot, app, workspace["handbook"])).workspace_tree
        await move_to(pilot, tree, "Handbook")
        await pilot.press("h")  # collapse Handbook ...
        tree.state.kids.pop(f"space:{workspace['handbook']}")  # ... and forget its pages
        await pilot.press("slash", "i", "n", "s", "t")
        await until(pilot, lambda: "Install" in visible_labels(tree))
        assert cursor_label(tree) == "Install"


async def test_escape_in_the_page_keeps_the_tree_filter(world, workspace, tmp_path):
    app = app_on(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await reveal_space(pilot, app, workspace["handbook"])
        tree = browser.workspace_tree
        await pilot.press("slash", "i", "n")
        await until(pilot, lambda: tree.filter_text == "in")
        await pilot.press("tab")  # from the filter box on: the tree, then the page
        browser.viewer.focus()
        await pilot.pause()
        await pilot.press("escape")
        assert tree.has_focus
        assert tree.filter_text == "in"


async def test_a_filter_says_what_it_found_and_where_it_looked(world, workspace, tmp_path):
    """The count under the box is the count of matches; a filter that matches nothing says
    so (the tree no longer just goes blank) and enter asks the server instead."""
    from gitbook_tui.tui.search.search_screen import SearchScreen
    from support.waits import until_screen

    app = app_on(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        tree = (await reveal_space(pilot, app, workspace["handbook"])).workspace_tree
        note = app.screen.query_one("#tree-filter-note")
        await pilot.press("slash", "n")
        await until(pilot, lambda: tree.filter_text == "n")
        loaded, known = tree.filter_reach()
        text = str(note.render())
        assert text.startswith(f"{len(tree.filter_matches)} matches") and "enter opens" in text
        assert (f"in {loaded} of {known} spaces loaded" in text) == (loaded < known)
        await pilot.press(*"qqzz")
        await until(pilot, lambda: tree.filter_text == "nqqzz")
        assert tree.filter_matches == []
        assert "No title matches “nqqzz”" in str(note.render())
        assert "enter searches the server" in str(note.render())
        await pilot.press("enter")
        search = await until_screen(pilot, SearchScreen)
        assert search.query_text == "nqqzz"
        assert tree.filter_text == "" and not note.display


async def test_the_palette_slot_never_shows_the_filters_ctrl_p(world, workspace, tmp_path):
    """While the filter owns ctrl+p ("previous match") the footer's palette slot is empty,
    instead of showing "Previous match" where the palette key always is."""
    from gitbook_tui.tui.textual_compat import FooterKey

    app = app_on(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: browser_ready(app))
        tree = tree_of(app)
        tree.focus()

        def palette_slot() -> list[str]:
            return [
                k.description
                for k in app.screen.query(FooterKey)
                if k.has_class("-command-palette")
            ]

        await until(pilot, lambda: palette_slot() == ["palette"], "the palette key docked")
        await pilot.press("slash", "n")
        await until(pilot, lambda: tree.filter_text == "n")
        await until(pilot, lambda: palette_slot() == [], "no palette key while the filter owns it")
