"""``p``: a page in the reader as it was at a revision, marked so, never remembered as the last
page read; ``backspace`` brings back its current text."""

from __future__ import annotations

from pathlib import Path

from gitbook_tui.tui.browse.browser_screen import BrowserScreen
from support.history_world import EDITS, history_shown, page_blamed
from support.waits import until, until_screen
from support.worlds import World


def _header(browser: BrowserScreen) -> str:
    return str(browser.header._title_line.render())


async def test_p_in_a_page_log_opens_the_page_then(
    world: World, story: dict, tmp_path: Path
) -> None:
    """The log, the reader twice and the saved state: over 5 s on a busy machine."""
    intro_log = history_shown(
        world, tmp_path, story["space"], story["pages"]["Intro"], size=(120, 40)
    )
    async with intro_log as (_, pilot, _):
        await pilot.press("j", "p")  # the next to last edit of Intro
        browser = await until_screen(pilot, BrowserScreen)
        old = f"up to {9 + EDITS} GB"
        await until(pilot, lambda: old in "\n".join(browser.viewer.visible_text()), timeout=20)
        assert "at revision" in _header(browser) and "Intro" in _header(browser)
        assert browser.denial_reason("suggest_edit") is not None  # no edit of a past text
        browser.save_state()
        assert browser._state.page != [story["space"], story["pages"]["Intro"]]
        await pilot.press("backspace")
        now = f"up to {10 + EDITS} GB"
        await until(pilot, lambda: now in "\n".join(browser.viewer.visible_text()), timeout=20)
        assert "at revision" not in _header(browser)
        browser.save_state()
        assert browser._state.page == [story["space"], story["pages"]["Intro"]]


async def test_p_in_the_blame_opens_the_revision_of_the_block(
    world: World, story: dict, tmp_path: Path
) -> None:
    """The page's log, a walk over 43 revisions, the reader: over 5 s on a busy machine."""
    intro_blame = page_blamed(world, tmp_path, story["space"], story["pages"]["Intro"])
    async with intro_blame as (_, pilot, _):
        await pilot.press("j", "p")  # the second paragraph: from the seed's merge
        browser = await until_screen(pilot, BrowserScreen)
        await until(pilot, lambda: "at revision" in _header(browser), timeout=20)
        assert "up to 10 GB" in "\n".join(browser.viewer.visible_text())
