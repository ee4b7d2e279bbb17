"""Views keep their place: switching views (1-4, the palette) returns to the same screens
(the review pane over the inbox, a change request's threads over its review pane, the site
editor over the sites list) with their mode, tab and cursor; ``escape`` goes up a level;
a hidden review pane does not poll."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gitbook_tui.tui.browse.browser_screen import BrowserScreen
from gitbook_tui.tui.comments.comments_screen import CommentsScreen
from gitbook_tui.tui.common.help_screen import HelpScreen
from gitbook_tui.tui.common.palette import AppCommands
from gitbook_tui.tui.review import change_request_review_screen as review_module
from gitbook_tui.tui.review.change_request_review_screen import ChangeRequestReviewScreen
from gitbook_tui.tui.review.review_inbox_screen import ReviewInboxScreen
from gitbook_tui.tui.sites.site_editor_screen import SiteEditorScreen
from gitbook_tui.tui.sites.sites_screen import SitesScreen
from support.review_world import make_app, open_inbox
from support.views import redirects_shown, reviewing, show_view
from support.waits import until, until_screen
from support.worlds import World


async def test_review_pane_kept_across_views_and_escape_goes_to_the_inbox(
    world: World, desk: dict, tmp_path: Path
) -> None:
    async with reviewing(world, tmp_path) as (app, pilot, review):
        diff = review.diff
        await pilot.press("|", "n")  # inline, on the first change
        assert diff.effective_mode == "inline"
        place = diff.current
        assert place is not None
        for key, kind in (("1", BrowserScreen), ("3", CommentsScreen)):
            await show_view(pilot, key, kind)
            assert await show_view(pilot, "2", ChangeRequestReviewScreen) is review
            assert diff.effective_mode == "inline" and diff.current == place
            assert app.focused is diff
        await pilot.press("escape")  # up a level: the inbox
        inbox = await until_screen(pilot, ReviewInboxScreen)
        await show_view(pilot, "1", BrowserScreen)
        assert await show_view(pilot, "2", ReviewInboxScreen) is inbox
        assert review not in app.get_screen_stack("reviews")  # closed: not kept hidden
        await until(pilot, lambda: not review.is_attached)


async def test_palette_view_commands_return_to_the_review_pane(
    world: World, desk: dict, tmp_path: Path
) -> None:
    """Palette view commands leave and return to the open review pane, closing dialogs over it.
    Slow: opens a review and switches views four times."""
    async with reviewing(world, tmp_path) as (app, pilot, review):
        commands = {c.title: c.action for c in AppCommands(app.screen).commands}
        await app.run_action(commands["Go to Browse"])
        await until_screen(pilot, BrowserScreen)
        await app.run_action(commands["Go to Reviews"])
        await until(pilot, lambda: app.screen is review)
        await pilot.press("question_mark")  # a dialog over the view closes when leaving it
        await until_screen(pilot, HelpScreen)
        await app.run_action(commands["Go to Browse"])
        await until_screen(pilot, BrowserScreen)
        await show_view(pilot, "2", ChangeRequestReviewScreen)
        assert app.screen is review


async def test_change_request_threads_kept_and_escape_back_to_the_review(
    world: World, desk: dict, tmp_path: Path
) -> None:
    async with reviewing(world, tmp_path) as (app, pilot, review):
        threads = await show_view(pilot, "C", CommentsScreen)
        assert threads.change_request is not None
        general = await show_view(pilot, "3", CommentsScreen)  # the Comments view: another screen
        assert general is not threads and general.change_request is None
        assert await show_view(pilot, "2", CommentsScreen) is threads
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is review)


async def test_hidden_review_pane_does_not_poll(
    world: World, desk: dict, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(review_module, "POLL_SECONDS", 0.05)
    ticks: list[bool] = []
    reads: list[str] = []
    poll = ChangeRequestReviewScreen._poll

    def counted(self: ChangeRequestReviewScreen) -> Any:
        ticks.append(self.is_current)
        return poll(self)  # (a worker)

    monkeypatch.setattr(ChangeRequestReviewScreen, "_poll", counted)
    async with reviewing(world, tmp_path) as (app, pilot, _review):
        get = app.client.change_requests.get

        async def read(*args: Any, **kwargs: Any) -> Any:
            reads.append(kwargs.get("read", ""))
            return await get(*args, **kwargs)

        monkeypatch.setattr(app.client.change_requests, "get", read)
        await show_view(pilot, "1", BrowserScreen)
        reads.clear()
        seen = len(ticks)
        await until(pilot, lambda: ticks[seen:].count(False) >= 3)
        assert "network" not in reads  # hidden: its timer fires, but nothing is read
        await show_view(pilot, "2", ChangeRequestReviewScreen)
        await until(pilot, lambda: "network" in reads)  # shown again: it polls again


async def test_site_editor_kept_across_views_and_escape_goes_to_the_sites(
    world: World, tmp_path: Path
) -> None:
    async with redirects_shown(world, tmp_path) as (app, pilot, editor, pane):
        await until(pilot, lambda: len(pane.shown) > 1)
        table = pane.query_one("RedirectsTable")
        await pilot.press("j")
        row = table.cursor_row  # type: ignore[attr-defined]
        assert row == 1
        await show_view(pilot, "1", BrowserScreen)
        assert await show_view(pilot, "4", SiteEditorScreen) is editor
        assert editor.tab == "redirects"
        assert table.cursor_row == row  # type: ignore[attr-defined]
        assert app.focused is table
        await pilot.press("escape")
        sites = await until_screen(pilot, SitesScreen)
        await show_view(pilot, "1", BrowserScreen)
        assert await show_view(pilot, "4", SitesScreen) is sites


async def test_opening_a_page_from_another_view_shows_browse(
    world: World, desk: dict, tmp_path: Path
) -> None:
    """Over 5 s under load: the Reviews view opened first, then a page opened from it in Browse."""
    async with reviewing(world, tmp_path) as (app, pilot, review):
        app.open_page(desk["space"]["id"], desk["page"])
        browser = await until_screen(pilot, BrowserScreen)
        await until(pilot, lambda: browser.current_page == (desk["space"]["id"], desk["page"]))
        assert await show_view(pilot, "2", ChangeRequestReviewScreen) is review


async def test_another_organization_builds_the_views_afresh(
    world: World, desk: dict, tmp_path: Path
) -> None:
    async with reviewing(world, tmp_path) as (app, pilot, review):
        await app.show_browser(world.org)  # the same organization (signed in again): kept
        await until_screen(pilot, BrowserScreen)
        assert await show_view(pilot, "2", ChangeRequestReviewScreen) is review
        await app.show_browser(None)  # another choice: the review pane was of the old one
        await until_screen(pilot, BrowserScreen)
        await show_view(pilot, "2", ReviewInboxScreen)
        await until(pilot, lambda: not review.is_attached)


async def test_quitting_from_another_view_keeps_the_page_for_the_next_start(
    world: World, desk: dict, tmp_path: Path
) -> None:
    space, page = desk["space"]["id"], desk["page"]
    async with reviewing(world, tmp_path) as (app, pilot, _review):
        app.open_page(space, page)
        browser = await until_screen(pilot, BrowserScreen)
        await until(pilot, lambda: browser.current_page == (space, page))
        await show_view(pilot, "2", ChangeRequestReviewScreen)
        await pilot.press("q")
    assert app.state_store.load(app.account).page == [space, page]


async def test_a_view_shown_first_loads_once(
    world: World, desk: dict, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    loads: list[bool] = []
    reload = ReviewInboxScreen.reload

    def counted(self: ReviewInboxScreen) -> None:
        loads.append(True)
        reload(self)

    monkeypatch.setattr(ReviewInboxScreen, "reload", counted)
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_inbox(app, pilot)
        await show_view(pilot, "1", BrowserScreen)
        await show_view(pilot, "2", ReviewInboxScreen)
        await app.workers.wait_for_complete()
    assert len(loads) == 1  # (a new mode's first screen would be resumed twice)
