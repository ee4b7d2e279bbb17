"""Comments view: ``/`` filters the thread list as typed (typing never fires commands); the
kit's filter rule: ``enter`` opens the highlighted match and keeps the filter, ``escape``
clears it (in the box, or on the list once kept), the count is the count listed, and a
filter that keeps nothing says so and what to do."""

from __future__ import annotations

from typing import Any

from gitbook_tui.tui.comments.comments_screen import CommentsScreen
from gitbook_tui.tui.comments.comments_title import CommentsTitle
from gitbook_tui.tui.common.filter_box import FilterBox
from gitbook_tui.tui.common.help_screen import curated_groups
from support.comments_world import build_space, comments_run
from support.waits import until


def _title(screen: CommentsScreen) -> str:
    title = screen.query_one(CommentsTitle)
    return title.render().plain


def _pane_text(screen: CommentsScreen) -> str:
    """What the thread pane says when it shows no thread ("" while it is rebuilt)."""
    return "".join(str(empty.render()) for empty in screen.pane.query("#thread-empty"))


def _empty_line(screen: CommentsScreen) -> str:
    return str(screen.thread_list.get_option_at_index(0).prompt)


async def test_slash_filters_and_typed_letters_never_fire_commands(world: Any, tmp_path) -> None:
    """/ filters threads as typed; command letters typed there are text, never commands; a
    filter that keeps nothing says so and what to do. Slow: types letter by letter at 80x24,
    checking the list after each step."""
    ids = build_space(world)
    async with comments_run(world, tmp_path, ids, size=(80, 24)) as (pilot, screen, app, *_):
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
        assert not screen.composer.is_open and screen.state.status == "open"
        await until(pilot, lambda: not screen.thread_list.ids)
        assert _empty_line(screen) == (
            "No threads match “quick cxfdeFrp” — escape clears the filter, / edits it."
        )
        assert "· 0 of 2 threads · /quick" in _title(screen)
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


async def test_enter_opens_the_match_and_escape_clears_the_kept_filter(
    world: Any, tmp_path
) -> None:
    """The kit's filter rule at 120x40: the header counts what is listed ("1 of 2 threads"),
    ↓/↑/ctrl+n/ctrl+p move among the matches with the typing kept in the box, enter opens
    the highlighted thread in the thread pane and leaves the filter applied, escape goes
    back to the list and then clears the kept filter."""
    ids = build_space(world)
    async with comments_run(world, tmp_path, ids) as (pilot, screen, app, *_):
        lst, box = screen.thread_list, screen.query_one("#comments-filter", FilterBox)
        assert lst.ids == [ids["second"], ids["first"]]
        assert _title(screen).endswith("· 2 threads")
        await pilot.press("slash", *"e")  # both threads match (Welcome, The brew…)
        await until(pilot, lambda: len(lst.ids) == 2 and "2 of 2 threads · /e" in _title(screen))
        for key, row in (("down", 1), ("down", 1), ("up", 0), ("ctrl+n", 1), ("ctrl+p", 0)):
            await pilot.press(key)
            await until(pilot, lambda row=row: lst.highlighted == row)  # type: ignore[misc]
            assert box.has_focus  # the cursor moved, the typing stays here
        await pilot.press("ctrl+n", *"lcome")
        await until(pilot, lambda: lst.ids == [ids["first"]])
        assert "· 1 of 2 threads · /elcome" in _title(screen)
        await pilot.press("enter")  # opens the match in the thread pane; the filter stays
        await until(pilot, lambda: screen.pane.has_focus)
        # (the pane shows the thread highlighted before the filter until the match loads)
        await until(
            pilot,
            lambda: screen.pane.thread is not None and screen.pane.thread.id == ids["first"],
            "the match shown in the thread pane",
        )
        assert box.display and box.value == "elcome" and lst.ids == [ids["first"]]
        assert "· 1 of 2 threads · /elcome" in _title(screen)
        await pilot.press("escape")  # the innermost thing first: the thread, to the list
        await until(pilot, lambda: lst.has_focus)
        assert lst.ids == [ids["first"]] and box.value == "elcome"
        await pilot.press("escape")  # on the list: the kept filter goes
        await until(pilot, lambda: len(lst.ids) == 2)
        assert not box.display and box.value == "" and lst.has_focus
        assert app.screen is screen and _title(screen).endswith("· 2 threads")


async def test_a_filter_with_no_match_empties_the_thread_pane(world: Any, tmp_path) -> None:
    """At 120x40 the thread pane does not keep showing a thread the filter hid: it says
    what the list says."""
    ids = build_space(world)
    async with comments_run(world, tmp_path, ids) as (pilot, screen, *_):
        await until(pilot, lambda: screen.pane.thread is not None)
        await pilot.press("slash", *"zzz")
        await until(pilot, lambda: screen.pane.thread is None and not screen.busy)
        await until(
            pilot,
            lambda: "No threads match “zzz” — escape clears the filter" in _pane_text(screen),
        )
        await pilot.press("enter")  # nothing to open: to the list, which says why
        await until(pilot, lambda: screen.thread_list.has_focus)
        assert screen.state.selected_id is None


def test_filter_binding_has_an_id() -> None:
    ids = {b.id for b in CommentsScreen.BINDINGS if hasattr(b, "id")}
    assert "comments.filter" in ids
