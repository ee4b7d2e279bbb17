"""Moving between the app's views in tests: a view key and the screen it shows, and the
review desk's app started on an open review pane (the place most view tests leave from)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

from gitbook_tui.tui.app import GitBookApp
from gitbook_tui.tui.review.change_request_review_screen import ChangeRequestReviewScreen
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
