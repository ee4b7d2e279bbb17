"""Live refresh and optimistic writes: refusals roll back, refreshes never touch the composer,
rate limits slow the refresh down."""

from __future__ import annotations

from typing import Any

from gitbook_tui.server.bootstrap import add_member
from gitbook_tui.tui.comments import thread_loader as comments_screen
from support.comments_world import build_space, comments_run
from support.waits import until


async def test_refused_resolve_and_reaction_are_rolled_back(world: Any, tmp_path) -> None:
    ids = build_space(world)
    async with comments_run(world, tmp_path, ids, ids["second"]) as (pilot, screen, _, notes, *_):
        with world.storage.transaction() as tx:  # eve loses her role meanwhile
            add_member(tx, world.clock, world.org, world.users["eve"], "read")
        shown: list[tuple[bool, bool]] = []  # (resolved, pending) of every redraw
        redraw = screen.redraw_thread

        def record(thread: Any) -> None:
            shown.append((thread.comment.is_resolved, bool(thread.pending)))
            redraw(thread)

        screen.redraw_thread = record  # type: ignore[method-assign]
        await pilot.press("x")
        await until(pilot, lambda: any("refused the resolve" in n for n in notes))
        await until(pilot, lambda: not screen.selected.pending)
        assert shown[0] == (True, True)  # shown at once, marked pending…
        assert not screen.selected.comment.is_resolved  # …and undone
        await pilot.press("colon", "6")
        await until(pilot, lambda: any("refused the reaction" in n for n in notes))
        await until(pilot, lambda: not screen.selected.pending)
        assert [r.emoji for r in screen.selected.comment.reactions] == []


async def test_refresh_leaves_an_open_composer_alone(world: Any, tmp_path) -> None:
    ids = build_space(world)
    async with comments_run(world, tmp_path, ids, ids["first"]) as (pilot, screen, *_):
        await pilot.press("enter", "c", *"half typed")
        world.client("cody").post(
            f"/spaces/{ids['space']}/comments/{ids['first']}/replies",
            json={"body": {"markdown": "Meanwhile…"}},
        )
        screen.action_reload()
        await until(pilot, lambda: not screen.busy and len(screen.pane.posts) == 3)
        assert screen.composer.is_open and screen.composer.text == "half typed"
        assert screen.composer.area.has_focus


async def test_rate_limit_slows_the_refresh_down(world: Any, tmp_path) -> None:
    ids = build_space(world)
    async with comments_run(world, tmp_path, ids) as (pilot, screen, _, _, transport):
        assert screen.loader.interval == comments_screen.REFRESH_SECONDS
        transport.rate_limited = True
        screen.action_reload()
        await until(pilot, lambda: screen.loader.interval == 2 * comments_screen.REFRESH_SECONDS)
        screen.action_reload()
        await until(pilot, lambda: screen.loader.interval == 4 * comments_screen.REFRESH_SECONDS)
        assert len(screen.thread_list.ids) == 2  # what was shown stays
        transport.rate_limited = False
        screen.action_reload()
        await until(pilot, lambda: screen.loader.interval == comments_screen.REFRESH_SECONDS)


async def test_refresh_keeps_the_thread_scroll_position(world: Any, tmp_path) -> None:
    """A refresh keeps the scroll position of a thread taller than its pane. Slow: 27 posts drawn,
    scrolled and redrawn."""
    ids = build_space(world)
    for n in range(25):  # a thread taller than the pane
        world.client("cody").post(
            f"/spaces/{ids['space']}/comments/{ids['first']}/replies",
            json={"body": {"markdown": f"Reply {n}"}},
        )
    async with comments_run(world, tmp_path, ids, ids["first"]) as (pilot, screen, *_):
        await until(pilot, lambda: len(screen.pane.posts) == 27)
        await pilot.press("enter", "G")
        await until(pilot, lambda: screen.pane.scroll_y > 0)
        await pilot.pause()
        where = screen.pane.scroll_y
        screen.action_reload()  # nothing changed
        await until(pilot, lambda: not screen.busy)
        await pilot.pause()
        assert screen.pane.scroll_y == where and screen.pane.cursor == 26
        world.client("cody").post(
            f"/spaces/{ids['space']}/comments/{ids['first']}/replies",
            json={"body": {"markdown": "One more"}},
        )
        screen.action_reload()  # a new reply: the thread is rebuilt, the reader stays put
        await until(pilot, lambda: len(screen.pane.posts) == 28 and not screen.busy)
        await pilot.pause()
        assert screen.pane.cursor == 26
        assert abs(screen.pane.scroll_y - where) <= 1
