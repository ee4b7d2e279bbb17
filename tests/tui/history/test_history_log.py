"""The History view's log: newest first, fetched as it is scrolled, filtered, page-scoped,
inert hostile text, a missing parent shown as such, jumps to Browse and Reviews."""

from __future__ import annotations

from pathlib import Path

from gitbook_tui.tui.browse.browser_screen import BrowserScreen
from gitbook_tui.tui.history.history_screen import HistoryScreen
from gitbook_tui.tui.review.change_request_review_screen import ChangeRequestReviewScreen
from gitbook_tui.tui.textual_compat import composed_screen
from support.history_world import EDITS, history_shown, intro_read, settled_history
from support.review_world import HOSTILE
from support.waits import settle, until, until_screen
from support.worlds import World


def _texts(screen: HistoryScreen) -> list[str]:
    table = screen.query_one("#history-log")
    return [" ".join(str(cell) for cell in table.get_row_at(i)) for i in range(table.row_count)]


async def test_the_log_lists_revisions_newest_first_and_loads_more_as_it_scrolls(
    world: World, story: dict, tmp_path: Path
) -> None:
    # 24 rows: the first screen and the rows kept ahead of it (AHEAD) are fewer than the
    # story's revisions (at 40 rows they are not, and the first screen's fill walks them all)
    async with history_shown(world, tmp_path, story["space"], size=(120, 24)) as (_, pilot, screen):
        walk = screen.walk
        assert walk is not None and not walk.done  # the first screen, not the whole history
        first = screen.shown[0]
        assert first.kind == "merge" and first.cr_number == story["hostile"]["number"]
        assert first.cr_author == "Eve" and first.summary == "1 page edited"
        assert HOSTILE.split("\x1b")[0].strip() in _texts(screen)[0]  # shown as typed
        assert screen.shown[1].kind == "edits" and screen.shown[1].what == "direct edit"
        await pilot.press("G")
        await until(pilot, lambda: walk.done, timeout=20)
        await pilot.press("G")
        await settle(pilot)
        # seed merge + edits + hostile merge + the space's first revision
        assert len(screen.shown) == EDITS + 3
        assert screen.shown[-2].cr_subject == "Seed"
        assert screen.shown[-2].summary == "2 pages created"
        assert "revisions" in str(screen.query_one("#history-state").render())


async def test_the_filter_and_the_page_scoped_log(
    world: World, story: dict, tmp_path: Path
) -> None:
    setup_log = history_shown(
        world, tmp_path, story["space"], story["pages"]["Setup"], size=(100, 30), walked=True
    )
    async with setup_log as (app, pilot, screen):
        assert [e.cr_subject.split()[0] for e in screen.shown] == ["Setup", "Seed"]
        assert "that changed this page" in str(screen.query_one("#history-state").render())
        await settled_history(app, pilot, story["space"])
        await pilot.press("slash", *"eve")
        await settle(pilot)
        assert [e.cr_author for e in screen.shown] == ["Eve"]
        await pilot.press("escape")
        await settle(pilot)
        assert len(screen.shown) > 1


async def test_a_missing_parent_ends_the_log_without_an_error(
    world: World, make_space, tmp_path: Path
) -> None:
    space = make_space("Orphan")
    with world.storage.transaction() as tx:
        record = tx.get("space", space["id"])
        head = tx.get("revision", record["revision"])
        head["parents"] = ["gone-revision"]  # (a revision whose parent was never stored)
        tx.put("revision", head["id"], head, scope=space["id"])
    orphan_log = history_shown(world, tmp_path, space["id"], size=(100, 30), walked=True)
    async with orphan_log as (app, pilot, screen):
        assert [e.state for e in screen.shown] == ["ok", "missing"]
        assert "not found" in _texts(screen)[-1]
        await pilot.press("G", "enter")
        await settle(pilot)
        assert isinstance(app.screen, HistoryScreen)  # no error page


async def test_h_in_browse_and_c_to_the_change_request(
    world: World, story: dict, tmp_path: Path
) -> None:
    async with intro_read(world, tmp_path, story) as (app, pilot, _):
        await pilot.press("H")
        screen = await until_screen(pilot, HistoryScreen)
        assert screen.page_id == story["pages"]["Intro"]
        await until(pilot, lambda: screen.shown, timeout=20)
        await settle(pilot)
        assert all(e.touches(story["pages"]["Intro"]) for e in screen.shown)
        await pilot.press("escape")
        await until_screen(pilot, BrowserScreen)
        await pilot.press("6")
        await until(pilot, lambda: app.screen is screen)
        await settled_history(app, pilot, story["space"])
        await pilot.press("c")
        await until_screen(pilot, ChangeRequestReviewScreen, timeout=20)


async def test_6_over_an_open_page_lists_rows_as_wide_as_the_table(
    world: World, story: dict, tmp_path: Path
) -> None:
    """Opened over Browse, the view's first layout comes before its log starts: the rows
    are as wide as the table (they were cut to 10 characters) and the status bar and
    footer are drawn (they stayed blank: the screen's widgets were never told their size)."""
    async with intro_read(world, tmp_path, story) as (app, pilot, _):
        await pilot.press("6")
        screen = await until_screen(pilot, HistoryScreen)
        table = screen.query_one("#history-log")
        await until(pilot, lambda: screen.shown and table.size.width > 0)
        await settle(pilot)
        what = [str(table.get_row_at(i)[3]).strip() for i in range(table.row_count)]
        assert any(len(text) > 20 for text in what), what
        assert not any(text.endswith("…") and len(text) <= 12 for text in what), what
        rows = ["".join(segment.text for segment in strip) for strip in composed_screen(app)]
        assert "6 History" in rows[-2] and "Alice" in rows[-2], rows[-2:]
        assert "Filter" in rows[-1] and "Blame page" in rows[-1], rows[-2:]
