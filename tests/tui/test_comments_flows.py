"""Comments view flows against the in-process server: every action, denials, errors."""

from __future__ import annotations

from typing import Any

from comments_support import build_space, make_app, open_comments

from conftest import until
from gitbook_tui.tui.common.state import StartTarget


async def test_view_lists_threads_and_shows_selected(world: Any, tmp_path) -> None:
    ids = build_space(world)
    app, _ = make_app(world, tmp_path, start=StartTarget(ids["space"], ids["Welcome"]))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_comments(pilot)
        assert screen.thread_list.ids == [ids["second"], ids["first"]]
        await pilot.press("j")
        await until(pilot, lambda: screen.selected_id == ids["first"])
        await until(pilot, lambda: len(screen.pane.posts) == 2)
