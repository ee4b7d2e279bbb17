"""Narrow terminals: below 100 columns the tree is a drawer (``\\``), below 60 one pane at a
time; folded code lines carry a continuation mark and break at spaces; cut tree labels
end with an ellipsis."""

from __future__ import annotations

import pytest
from rich.text import Text

from gitbook_tui.tui.browse.browser_screen import BrowserScreen
from gitbook_tui.tui.render.code import CONTINUATION, _fold
from support import tree_world
from support.tree_world import app_on, move_to, reveal_space
from support.waits import until

LONG_TITLE = "A page with a title far too long for a narrow tree pane to show"


@pytest.fixture
def narrow_space(world, workspace):
    page = tree_world.page
    tree_world.add_pages(world, workspace["notes"], [page(LONG_TITLE), page("Short")])
    return workspace


def shown(browser: BrowserScreen) -> tuple[bool, bool]:
    """(tree pane shown, page pane shown)."""
    sidebar, page = browser.query_one("#browser-sidebar"), browser.query_one("#browser-page")
    return sidebar.display and sidebar.size.width > 0, page.display and page.size.width > 0


async def test_below_100_columns_the_tree_is_a_drawer(world, narrow_space, tmp_path):
    app = app_on(world, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        browser = await reveal_space(pilot, app, narrow_space["notes"])
        tree = browser.workspace_tree
        assert shown(browser) == (True, True)  # nothing open yet: the tree shows
        await move_to(pilot, tree, "Short")
        await pilot.press("enter")
        await until(pilot, lambda: browser.header.title_text == "Short")
        await pilot.pause()
        assert shown(browser) == (False, True)  # the page takes the width
        assert browser.viewer.has_focus and browser.viewer.size.width >= 75
        await pilot.press("backslash")
        await pilot.pause()
        assert shown(browser) == (True, True) and tree.has_focus
        await pilot.press("backslash")
        await pilot.pause()
        assert shown(browser) == (False, True) and browser.viewer.has_focus
        await pilot.press("escape")  # back to the tree: it shows again
        await pilot.pause()
        assert shown(browser) == (True, True) and tree.has_focus
        await pilot.press("backslash")  # (in the tree too; ctrl+b is the lists' page up)
        await pilot.pause()
        assert shown(browser)[0] is False


async def test_below_60_columns_one_pane_at_a_time(world, narrow_space, tmp_path):
    app = app_on(world, tmp_path)
    async with app.run_test(size=(50, 16)) as pilot:
        browser = await reveal_space(pilot, app, narrow_space["notes"])
        tree = browser.workspace_tree
        assert shown(browser) == (True, False)
        assert tree.size.width >= 45
        await move_to(pilot, tree, "Short")
        await pilot.press("enter")
        await until(pilot, lambda: browser.header.title_text == "Short")
        await pilot.pause()
        assert shown(browser) == (False, True)
        assert browser.viewer.size.width >= 45
        await pilot.press("h")
        await pilot.pause()
        assert shown(browser) == (True, False) and tree.has_focus
        await pilot.press("w")
        await pilot.pause()
        assert shown(browser) == (False, True)


async def test_cut_tree_labels_end_with_an_ellipsis(world, narrow_space, tmp_path):
    app = app_on(world, tmp_path)
    async with app.run_test(size=(120, 30)) as pilot:
        browser = await reveal_space(pilot, app, narrow_space["notes"])
        tree = browser.workspace_tree
        await until(pilot, lambda: any(LONG_TITLE[:10] in line for line in _lines(tree)))
        line = next(line for line in _lines(tree) if LONG_TITLE[:10] in line)
        assert line.rstrip().endswith("…")
        assert "Short" in "".join(_lines(tree))


def _lines(tree) -> list[str]:
    return [tree.render_line(y).text for y in range(tree.size.height)]


def test_folded_code_breaks_at_spaces_with_a_continuation_mark() -> None:
    line = Text("alpha beta gamma delta epsilon zeta")
    pieces = [p.plain for p in _fold(line, 14)]
    assert pieces == ["alpha beta ", "gamma delta ", "epsilon zeta"]
    assert "".join(pieces) == line.plain
    # no space in reach: cut at the edge
    assert [p.plain for p in _fold(Text("x" * 30), 14)] == ["x" * 14, "x" * 14, "xx"]
    assert CONTINUATION == "↪"


async def test_folded_code_lines_show_the_mark_in_the_page() -> None:
    from textual.app import App, ComposeResult

    from gitbook_tui.markdown import parse
    from gitbook_tui.tui.browse.page_viewer import PageViewer

    class Reader(App[None]):
        def compose(self) -> ComposeResult:
            yield PageViewer()

    code = "```\n" + " ".join(f"word{n}" for n in range(30)) + "\n```\n"
    app = Reader()
    async with app.run_test(size=(40, 20)) as pilot:
        viewer = app.query_one(PageViewer)
        viewer.show(parse(code))
        await until(pilot, lambda: viewer.has_painted)
        lines = [line for line in viewer.visible_text() if "word" in line]
        assert len(lines) > 2
        assert all(line.lstrip().startswith(CONTINUATION) for line in lines[1:])
        assert not lines[0].lstrip().startswith(CONTINUATION)
        assert all(not line.rstrip().endswith("wor") for line in lines)  # whole words


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_the_tree_takes_the_width_its_titles_need_and_its_key_stays_shown(
    world, narrow_space, tmp_path, size
):
    """The drawer sizes to its widest title within its share of the screen (it was a fixed
    38 %: 28 columns at 80, deep titles cut to "…"), and with the tree hidden the footer
    keeps ``\\``, the one key that shows it again."""
    from gitbook_tui.tui.browse.pane_layout import TREE_SHARE_DRAWER
    from gitbook_tui.tui.textual_compat import FooterKey

    app = app_on(world, tmp_path)
    async with app.run_test(size=size) as pilot:
        browser = await reveal_space(pilot, app, narrow_space["notes"])
        tree = browser.workspace_tree
        sidebar = browser.query_one("#browser-sidebar")
        await until(pilot, lambda: tree.virtual_size.width > 40, "the long title drawn")
        cap = int(size[0] * TREE_SHARE_DRAWER)
        await until(pilot, lambda: sidebar.outer_size.width == cap, f"the tree {cap} wide")
        await move_to(pilot, tree, "Short")
        await pilot.press("enter")
        await until(pilot, lambda: browser.header.title_text == "Short")
        await until(pilot, lambda: shown(browser) == (False, True), "the tree hidden")

        def footer_keys() -> list[str]:
            return [k.key for k in browser.query(FooterKey)]

        await until(pilot, lambda: "backslash" in footer_keys(), "\\ in the footer")


async def test_the_footer_follows_the_tree_shown_or_hidden_with_no_focus_move(
    world, narrow_space, tmp_path
):
    """The footer keeps ``\\`` pinned exactly while the tree is hidden, also when the panes
    change with the focus staying put: a focus move's own binding refresh may reach the
    footer before the tree hides, and the footer kept the keys of the tree shown (a
    snapshot test waited 20 s for it in CI)."""
    from gitbook_tui.tui.common.hint_footer import HintFooter

    app = app_on(world, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        browser = await reveal_space(pilot, app, narrow_space["notes"])
        await move_to(pilot, browser.workspace_tree, "Short")
        await pilot.press("enter")
        await until(pilot, lambda: shown(browser) == (False, True), "the tree hidden")
        footer = browser.query_one(HintFooter)
        await until(pilot, footer.shows_current_keys, "the footer current")
        hidden_keys = footer.shown_keys()
        for tree_shown in (True, False):
            browser.panes.tree_choice = tree_shown
            browser.panes.layout()
            await until(
                pilot, lambda want=tree_shown: shown(browser)[0] is want, "the tree's state"
            )
            assert browser.viewer.has_focus
            assert (footer.shown_keys() == hidden_keys) is not tree_shown
            await until(pilot, footer.shows_current_keys, "the footer following the tree")
