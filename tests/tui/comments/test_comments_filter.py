"""Comments view: ``/`` filters the thread list; typing in it never fires commands."""

from __future__ import annotations

from typing import Any

from gitbook_tui.tui.comments.comments_screen import CommentsScreen
from gitbook_tui.tui.comments.comments_title import CommentsTitle
from gitbook_tui.tui.common.filter_box import FilterBox
from gitbook_tui.tui.common.help_screen import curated_groups
from gitbook_tui.tui.common.state import StartTarget
from support.comments_world import build_space, make_app, open_comments
from support.waits import until


def _title(screen: CommentsScreen) -> str:
    title = screen.query_one(CommentsTitle)
    return title.render().plain


async def test_slash_filters_and_typed_letters_never_fire_commands(world: Any, tmp_path) -> None:
    """/ filters threads as typed; command letters typed there are text, never commands. Slow: types
    letter by letter at 80x24, checking the list after each step."""
    ids = build_space(world)
    app, _ = make_app(world, tmp_path, start=StartTarget(ids["space"], ids["Welcome"]))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_comments(pilot)
        assert set(screen.thread_list.ids) == {ids["first"], ids["second"]}
        rows = [r for _, group in curated_groups(app, screen) for r in group]
        assert any(r.id == "comments.filter" and r.key == "/" for r in rows), rows
        box = screen.query_one("#comments-filter", FilterBox)
        await pilot.press("slash")
        await until(pilot, lambda: box.has_focus)
        # q quits, c composes, x resolves, f cycles the status, d deletes: all typed as text
        await pilot.press(*"quick cxfdeFrp")
        await until(pilot, lambda: box.value == "quick cxfdeFrp")
        assert app.screen is screen and app.is_running
        assert not screen.composer.is_open and screen.status == "open"
        await until(pilot, lambda: not screen.thread_list.ids)
        option = screen.thread_list.get_option_at_index(0)
        assert "No thread matches “quick cxfdeFrp”" in str(option.prompt)
        assert "· /quick" in _title(screen)
        # escape clears the filter: every thread is back
        await pilot.press("escape")
        await until(pilot, lambda: len(screen.thread_list.ids) == 2)
        assert screen.thread_list.has_focus and "/" not in _title(screen).split("·")[-1]
        # by author, by page title, by text of the comment and the loaded replies
        await pilot.press("slash", *"cody")
        await until(pilot, lambda: screen.thread_list.ids == [ids["second"]])
        assert "· /cody" in _title(screen)
        await pilot.press("escape", "slash", *"welcome")
        await until(pilot, lambda: screen.thread_list.ids == [ids["first"]])
        await pilot.press("escape", "slash", *"brew tap")
        await until(pilot, lambda: screen.thread_list.ids == [ids["second"]])
        # enter: to the list, on the first match; the filter stays
        await pilot.press("enter")
        await until(pilot, lambda: screen.thread_list.has_focus)
        assert screen.thread_list.highlighted == 0 and screen.selected_id == ids["second"]
        assert box.value == "brew tap"
        # ↓ from the filter moves into the results
        await pilot.press("slash")
        await until(pilot, lambda: box.has_focus)
        await pilot.press("down")
        await until(pilot, lambda: screen.thread_list.has_focus)
        assert app.is_running


def test_filter_binding_has_an_id() -> None:
    ids = {b.id for b in CommentsScreen.BINDINGS if hasattr(b, "id")}
    assert "comments.filter" in ids
