"""One status bar in every view: the same fields (connection, user, organization) whichever
view learnt them, and a truthful connection state — a failed request flips it to offline at
once, the next answer clears it — in views that show no data freshness of their own."""

from __future__ import annotations

from pathlib import Path

import pytest

from gitbook_tui.tui.comments.comments_screen import CommentsScreen
from gitbook_tui.tui.common.status_bar import StatusBar
from gitbook_tui.tui.review.review_inbox_screen import ReviewInboxScreen
from gitbook_tui.tui.sites.sites_screen import SitesScreen
from support.faults import FaultTransport, make_app, seed_space, start_browser
from support.waits import until, until_screen, workers_done
from support.worlds import World

VIEWS = {"2": ReviewInboxScreen, "3": CommentsScreen, "4": SitesScreen}


@pytest.mark.parametrize("key", sorted(VIEWS))
async def test_every_view_shows_the_same_fields_and_the_true_connection(
    world: World, tmp_path: Path, key: str
) -> None:
    manual = seed_space(world)
    transport = FaultTransport(world.app)
    app = make_app(transport, tmp_path, "tok-eve", max_retries=0)
    async with app.run_test(size=(120, 30)) as pilot:
        browser = await start_browser(app, pilot)
        await until(pilot, lambda: "Eve" in browser.status.text.split(" · "), "the user")
        await pilot.press(key)
        screen = await until_screen(pilot, VIEWS[key])
        bar = screen.query_one(StatusBar)
        await until(pilot, lambda: workers_done(app), "the view loaded", timeout=20)
        fields = bar.text.split(" · ")
        assert "online" in fields and "Eve" in fields  # learnt in Browse, shown here too
        assert browser.status.org and browser.status.org in fields

        transport.down = True
        failed = await _read(app, manual["space"])
        assert failed is not None  # the request failed: the bar says so before anything else
        assert bar.connection_text == "offline"
        assert "offline" in bar.text.split(" · ")

        transport.down = False
        assert await _read(app, manual["space"]) is None
        assert bar.connection_text == "online"


async def _read(app: object, space: str) -> Exception | None:
    try:
        await app.client.spaces.get(space, read="network")  # type: ignore[attr-defined]
    except Exception as exc:
        return exc
    return None
