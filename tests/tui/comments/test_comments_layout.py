"""Comments view layout (#21): side by side the panes size to the thread list's rows within
limits; narrower the list takes the whole width; titles are cut only when there is no room."""

from __future__ import annotations

from typing import Any

import pytest
from rich.cells import cell_len

from gitbook_tui.tui.comments.comments_screen import CommentsScreen
from gitbook_tui.tui.common.hint_footer import HintFooter
from gitbook_tui.tui.textual_compat import FooterKey
from support.comments_world import build_space, comments_run, thread_on_new_page
from support.waits import until

QUICKSTART = "Quickstart: your first stream"


def _with_long_titled_thread(world: Any) -> dict[str, str]:
    """The usual space plus a thread on a page with a title longer than the list's old
    28-cell cut."""
    ids = build_space(world)
    _, thread = thread_on_new_page(world, ids, QUICKSTART, "Partitions and their retention, again")
    return {**ids, "quickstart": thread}


def _footer(screen: CommentsScreen) -> list[str]:
    footer = screen.query_one(HintFooter)
    return [f"{k.key_display} {k.description}" for k in footer.query(FooterKey)]


def _first_lines(screen: CommentsScreen) -> list[str]:
    lst = screen.thread_list
    return [str(lst.get_option_at_index(i).prompt).splitlines()[0] for i in range(lst.option_count)]


@pytest.mark.parametrize("size", [(120, 40), (100, 30), (80, 24), (60, 20)], ids=str)
async def test_panes_size_to_their_rows(world: Any, tmp_path, size: tuple[int, int]) -> None:
    """#21 layout: side by side (100 columns and more) the thread list is as wide as its
    longest rows need, within 40–60 % of the screen, the thread pane keeping 48 cells; at
    120x40 "Quickstart: your first stream" is no longer cut to "Quickstart: your first
    stre…" (a 44-column list beside a 75-column preview). Narrower, the list takes the
    whole width, titles stay whole and the footer names the key that shows the thread
    (enter) and, there, the one back to the list (escape)."""
    ids = _with_long_titled_thread(world)
    width = size[0]
    async with comments_run(world, tmp_path, ids, size=size) as (pilot, screen, *_):
        lst, side = screen.thread_list, screen.query_one("#thread-side")
        await until(
            pilot, lambda: any(line.startswith(QUICKSTART + " · ") for line in _first_lines(screen))
        )
        if width < 100:
            # one pane at a time: the key that reveals the hidden one is in the footer
            assert lst.outer_size.width == width and not side.display
            await until(pilot, lambda: "⏎ Open thread" in _footer(screen))
            await pilot.press("enter")
            await until(pilot, lambda: side.display and side.outer_size.width == width)
            await until(pilot, lambda: "esc Back to list" in _footer(screen))
            await pilot.press("escape")
            await until(pilot, lambda: lst.display and lst.has_focus)
            return
        await until(pilot, lambda: lst.outer_size.width + side.outer_size.width == width)
        assert 0.4 * width <= lst.outer_size.width <= 0.6 * width
        assert side.outer_size.width >= 48
        # no row is cut: the list is as wide as its longest row needs (within the limits)
        assert (
            max(cell_len(line) for line in _first_lines(screen))
            <= lst.scrollable_content_region.width
        )


async def test_a_title_longer_than_the_room_is_cut_with_an_ellipsis(world: Any, tmp_path) -> None:
    """#7: a page title the list has no room for ends with "…", cut to what the row leaves
    it (the author and the age stay whole)."""
    ids = build_space(world)
    async with comments_run(world, tmp_path, ids) as (_, screen, *_):
        thread = screen.state.threads[ids["first"]]
        assert thread.comment.target is not None and thread.comment.target.page is not None
        thread.comment.target.page.title = "Operations handbook: " * 6
        row = screen.thread_list.row(thread).plain.splitlines()[0]
        title, author, _age = row.split(" · ")
        assert title.startswith("Operations handbook: ") and title.endswith("…")
        assert author == "Alice"
        assert cell_len(row) <= screen.thread_list.scrollable_content_region.width
