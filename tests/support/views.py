"""Moving between the app's views in tests: a view key and the screen it shows, and the
apps started where view tests leave from — the review desk's open review pane, a site
editor's redirects."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

from gitbook_tui.tui.app import GitBookApp
from gitbook_tui.tui.review.change_request_review_screen import ChangeRequestReviewScreen
from gitbook_tui.tui.sites.redirects_pane import RedirectsPane
from gitbook_tui.tui.sites.site_editor_screen import SiteEditorScreen
from support import sites_world
from support.review_world import make_app, open_review
from support.waits import until
from support.worlds import World

S = TypeVar("S")

SIZING = "Update partition sizing"
"""The subject of the review desk's change request the view tests open."""


async def show_view(pilot: Any, key: str, kind: type[S]) -> S:
    """Press ``key`` and wait until the shown screen is a ``kind``; return that screen."""
    await pilot.press(key)
    await until(pilot, lambda: isinstance(pilot.app.screen, kind), f"{key} shows {kind.__name__}")
    screen = pilot.app.screen
    assert isinstance(screen, kind)
    return screen


@asynccontextmanager
async def reviewing(
    world: World, tmp_path: Path, subject: str = SIZING
) -> AsyncIterator[tuple[GitBookApp, Any, ChangeRequestReviewScreen]]:
    """Run the review desk's app (``desk`` fixture) at 120x40 with the review pane of the
    change request ``subject`` open; yield (app, pilot, review pane)."""
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        review = await open_review(app, pilot, subject)
        yield app, pilot, review


@asynccontextmanager
async def redirects_shown(
    world: World, tmp_path: Path
) -> AsyncIterator[tuple[GitBookApp, Any, SiteEditorScreen, RedirectsPane]]:
    """Build the sites world's site and run its app at 120x40 on the site editor's
    Redirects tab (``]`` from the first tab); yield (app, pilot, editor, redirects pane)."""
    sites_world.build_site(world)
    app = sites_world.make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await sites_world.open_editor(pilot)
        await pilot.press("right_square_bracket")
        yield app, pilot, editor, sites_world.redirects_pane(editor)
