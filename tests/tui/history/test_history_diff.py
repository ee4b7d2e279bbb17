"""A revision's changes (its pages, each page's diff against the parent) and the comparison of
two marked revisions, with the review pane's diff view."""

from __future__ import annotations

from pathlib import Path

from gitbook_tui.tui.history.history_screen import HistoryScreen
from gitbook_tui.tui.history.revision_screen import RevisionScreen
from gitbook_tui.tui.render.diff_view import DiffView
from gitbook_tui.tui.review.change_request_review_screen import ChangeRequestReviewScreen
from support.diff_pages import scattered_edits
from support.history_world import EDITS, direct_edit, history_shown
from support.waits import settle, until, until_screen
from support.worlds import World


async def _diff_shown(pilot, screen: RevisionScreen) -> list[str]:
    await until(pilot, lambda: screen.change is not None, timeout=20)
    await settle(pilot)
    return screen.query_one(DiffView).all_text()


async def test_enter_shows_what_a_revision_changed(
    world: World, story: dict, tmp_path: Path
) -> None:
    """Two revisions opened, a mode switch and a jump into Reviews: over 5 s on a busy
    machine."""
    async with history_shown(world, tmp_path, story["space"], size=(120, 40)) as (_, pilot, log):
        await pilot.press("j", "enter")  # the last direct edit of Intro
        screen = await until_screen(pilot, RevisionScreen)
        text = "\n".join(await _diff_shown(pilot, screen))
        assert [p.title for p in screen.pages] == ["Intro"]
        assert f"{10 + EDITS}" in text and f"{9 + EDITS}" in text
        assert "−" in text and "+" in text  # the gutter marks, not only colours
        await pilot.press("tab", "vertical_line")  # split ↔ inline
        await settle(pilot)
        await pilot.press("escape")
        assert await until_screen(pilot, HistoryScreen) is log
        await pilot.press("k", "enter")  # the hostile merge: c jumps to its review
        screen = await until_screen(pilot, RevisionScreen)
        await _diff_shown(pilot, screen)
        assert "brew" in "\n".join(screen.query_one(DiffView).all_text())
        await pilot.press("c")
        await until_screen(pilot, ChangeRequestReviewScreen, timeout=20)


async def test_compare_two_marked_revisions(world: World, story: dict, tmp_path: Path) -> None:
    async with history_shown(world, tmp_path, story["space"]) as (_, pilot, log):
        await pilot.press("j", "space")  # the newest edit of Intro marked
        await settle(pilot)
        assert log.marked == log.shown[1].revision_id
        assert "◆" in str(log.query_one("#history-state").render())
        for _ in range(5):
            await pilot.press("j")
        await pilot.press("enter")
        screen = await until_screen(pilot, RevisionScreen)
        text = "\n".join(await _diff_shown(pilot, screen))
        assert screen.older is log.shown[6] and screen.newer is log.shown[1]
        # five edits apart: 45 GB then, 50 GB now
        assert f"{10 + EDITS - 5}" in text and f"{10 + EDITS}" in text
        assert screen.query_one("#revision-title").render()


async def test_a_large_page_shows_its_first_changes_then_all_of_them(
    world: World, story: dict, tmp_path: Path
) -> None:
    """A 300 KB page's revision, diffed in two stages: over 5 s on a busy machine."""
    old, new = scattered_edits(300_000, 20)
    direct_edit(world, story["space"], story["pages"]["Intro"], old)
    direct_edit(world, story["space"], story["pages"]["Intro"], new)
    async with history_shown(world, tmp_path, story["space"], size=(120, 40)) as (_, pilot, _):
        await pilot.press("enter")  # the newest revision: the second large edit
        screen = await until_screen(pilot, RevisionScreen)
        await until(pilot, lambda: screen.change is not None, timeout=20)
        assert screen.change is not None and screen.change.staged.partial
        view = screen.query_one(DiffView)
        assert "revised0" in "\n".join(view.all_text())
        await until(pilot, lambda: not view.partial, timeout=30)
        assert len(view.changes) == 20
        assert "revised19" in "\n".join(view.all_text())
