"""View keys: ``1``–``4`` always show their own view, and a screen of one feature asked for
from another (``e`` in Browse ends in a review pane) lands in that feature's view, whose
status bar marks it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gitbook_tui.tui.account.org_picker_screen import OrgPickerScreen
from gitbook_tui.tui.browse.browser_screen import BrowserScreen
from gitbook_tui.tui.comments.comments_screen import CommentsScreen
from gitbook_tui.tui.common.status_bar import StatusBar
from gitbook_tui.tui.review.change_request_review_screen import ChangeRequestReviewScreen
from gitbook_tui.tui.review.review_inbox_screen import ReviewInboxScreen
from support.review_world import editor, make_app, open_page, press_edit, review_shown
from support.views import reviewing, show_view
from support.waits import until, until_screen
from support.worlds import World


def _marked(app: Any) -> str | None:
    """The view the shown screen's status bar marks."""
    return app.screen.query_one(StatusBar).view


async def test_suggested_edit_opens_its_review_in_the_reviews_view(
    world: World, desk: dict, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    editor(tmp_path, monkeypatch, "sed -i 's/10 GB/15 GB/' \"$1\"")
    space = desk["space"]["id"]
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await open_page(app, pilot, space, desk["page"])
        await press_edit(pilot)
        review = await review_shown(app, pilot)
        assert app.current_mode == "reviews"  # not pushed over the browser
        assert review not in app.get_screen_stack("browse")
        assert _marked(app) == "reviews"
        assert await show_view(pilot, "1", BrowserScreen) is browser  # 1 is Browse, always
        assert _marked(app) == "browse"
        assert await show_view(pilot, "2", ChangeRequestReviewScreen) is review
        await pilot.press("escape")  # it landed over the Reviews view's own inbox
        await until_screen(pilot, ReviewInboxScreen)
        assert await show_view(pilot, "1", BrowserScreen) is browser


async def test_each_view_key_shows_its_view_and_the_bar_marks_it(
    world: World, desk: dict, tmp_path: Path
) -> None:
    """(Over 5 s: it builds every view once, each loading from the server.)"""
    async with reviewing(world, tmp_path) as (app, pilot, review):
        threads = await show_view(pilot, "C", CommentsScreen)  # a review's threads: its view's
        assert threads.change_request is not None
        assert app.current_mode == "reviews" and _marked(app) == "reviews"
        for key, name in (("1", "browse"), ("3", "comments"), ("4", "sites"), ("2", "reviews")):
            await pilot.press(key)
            await until(pilot, lambda n=name: app.current_mode == n, f"{key} shows {name}")
            await until(pilot, lambda: bool(app.screen.query(StatusBar)), f"{name} drawn")
            assert _marked(app) == name
        assert app.screen is threads
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is review, "back to the review pane")


async def test_ctrl_o_in_the_browser_asks_the_app_for_the_organizations(
    world: World, desk: dict, tmp_path: Path
) -> None:
    app = make_app(world, tmp_path)
    orgs = world.client("alice").get("/orgs").json()["items"]
    async with app.run_test(size=(120, 40)) as pilot:
        await open_page(app, pilot, desk["space"]["id"], desk["page"])
        await pilot.press("ctrl+o")
        if len(orgs) > 1:
            await until_screen(pilot, OrgPickerScreen)
        else:
            said = "There is no other organization."
            await until(pilot, lambda: any(n.message == said for n in app._notifications), said)
