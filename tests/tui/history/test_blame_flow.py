"""Blame in the app: ``B`` on a page in Browse, the gutters filled in as the walk goes back,
``enter`` on a block to the diff of the revision that changed it, ``b`` in the History view."""

from __future__ import annotations

from pathlib import Path

from gitbook_tui.tui.history.blame_screen import BlameScreen
from gitbook_tui.tui.history.blame_view import BlameView
from gitbook_tui.tui.history.history_screen import HistoryScreen
from gitbook_tui.tui.history.revision_screen import RevisionScreen
from gitbook_tui.tui.render.diff_view import DiffView
from support.history_world import (
    EDITS,
    direct_edit,
    history_shown,
    intro_read,
    page_blamed,
    until_blamed,
)
from support.review_world import HOSTILE
from support.waits import settle, until, until_screen
from support.worlds import World


async def test_b_in_browse_dates_each_block_and_enter_opens_its_change(
    world: World, story: dict, tmp_path: Path
) -> None:
    """Browse, a walk over 43 revisions, a diff and back twice: over 5 s on a busy machine."""
    async with intro_read(world, tmp_path, story) as (_, pilot, _):
        await pilot.press("B")
        screen = await until_blamed(pilot)
        view = screen.query_one(BlameView)
        text = "\n".join(view.visible_text())
        assert f"up to {10 + EDITS} GB" in text
        edit, seed = text.splitlines()[:3:2]  # the two paragraphs (a blank line between)
        assert " edit " in edit and "#" not in edit[:34]
        assert "#" in seed[:34]  # the seed's change request number
        state = str(screen.query_one("#blame-state").render())
        assert "2 blocks last changed by 2 revisions" in state and "created" in state
        await pilot.press("enter")  # the first paragraph: the last direct edit of Intro
        revision = await until_screen(pilot, RevisionScreen, timeout=20)
        await until(pilot, lambda: revision.change is not None, timeout=20)
        await settle(pilot)
        diff = revision.query_one(DiffView)
        assert diff.current is not None and diff.has_focus
        assert f"{10 + EDITS}" in "\n".join(diff.all_text())
        await pilot.press("escape")
        assert await until_screen(pilot, BlameScreen) is screen
        await pilot.press("escape")  # the page's log is under the blame
        log = await until_screen(pilot, HistoryScreen)
        assert log.page_id == story["pages"]["Intro"]


async def test_b_in_the_page_log_blames_at_the_highlighted_revision(
    world: World, story: dict, tmp_path: Path
) -> None:
    """The page's log, then two blames of Setup: over 5 s on a busy machine."""
    setup_blame = page_blamed(world, tmp_path, story["space"], story["pages"]["Setup"])
    async with setup_blame as (_, pilot, screen):
        text = "\n".join(screen.query_one(BlameView).visible_text())
        assert "brew" in text and HOSTILE not in text  # the subject is not in the gutter
        again = screen.walk
        await pilot.press("escape", "b")  # a second blame: the same walk, done already
        second = await until_screen(pilot, BlameScreen)
        assert second is not screen
        await until(pilot, lambda: second.walk is again)


async def test_b_in_a_space_log_asks_for_a_page(world: World, story: dict, tmp_path: Path) -> None:
    async with history_shown(world, tmp_path, story["space"]) as (app, pilot, _):
        await pilot.press("b")
        await until(pilot, lambda: any("need a page" in n.message for n in app._notifications))
        assert isinstance(app.screen, HistoryScreen)


async def test_hostile_page_text_stays_inert_in_the_blame(
    world: World, story: dict, tmp_path: Path
) -> None:
    direct_edit(world, story["space"], story["pages"]["Setup"], f"Install {HOSTILE} now.\n")
    setup_blame = page_blamed(world, tmp_path, story["space"], story["pages"]["Setup"])
    async with setup_blame as (app, _, screen):
        text = "\n".join(screen.query_one(BlameView).visible_text())
        assert "[bold red]pwn[/]" in text and "[@click=app.quit]" in text  # shown, not run
        assert "\x1b" not in text and "\x07" not in text
        assert app.is_running
