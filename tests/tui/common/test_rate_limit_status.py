"""Rate-limited reads: the status bar says so and counts down ("rate-limited, retrying in
23 s"); opening another page cancels the page's worker and with it the client's sleep
(issue #8, item 6)."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from support.faults import FaultTransport, make_app, seed_space, start_browser, visible_labels
from support.waits import settle, until
from support.worlds import World


def seconds_left(text: str) -> int | None:
    """The seconds in "rate-limited, retrying in N s", if shown."""
    found = re.search(r"rate-limited, retrying in (\d+) s", text)
    return int(found.group(1)) if found else None


async def test_rate_limit_wait_is_shown_counting_down_and_cancelled_by_navigation(
    world: World, tmp_path: Path
) -> None:
    manual = seed_space(world)
    transport = FaultTransport(world.app)
    transport.retry_after = 23
    app = make_app(transport, tmp_path, max_retries=3, sleep=asyncio.sleep)
    client = app.client
    async with app.run_test(size=(120, 30)) as pilot:
        browser = await start_browser(app, pilot)
        status = browser.status
        await until(pilot, lambda: "□ Manual" in visible_labels(browser.workspace_tree))
        await until(pilot, lambda: "Eve" in status.text.split(" · "))  # every start read done
        transport.rate_limited = True
        browser.open_page(manual["space"], manual["Home"])
        await until(pilot, lambda: seconds_left(status.text) is not None)
        first = seconds_left(status.text)
        assert first in (23, 22)  # the server's Retry-After (a loaded machine may be late)
        shown = str(status.query_one("#status-wait").render())
        assert shown == f"rate-limited, retrying in {seconds_left(shown)} s"
        await until(pilot, lambda: (seconds_left(status.text) or 99) < first)  # counting down
        home = f"/content/page/{manual['Home']}"
        asked = sum(1 for path in transport.requests if path.endswith(home))
        assert asked == 1
        # the server is fine again; the reader opens another page: the wait for Home ends
        transport.rate_limited = False
        browser.open_page(manual["space"], manual["Guide"])
        await until(pilot, lambda: browser.header.title_text == "Guide")
        await until(pilot, lambda: client.retry_wait is None)
        await until(pilot, lambda: "rate-limited" not in status.text)
        assert not status.query_one("#status-wait").display
        await settle(pilot)
        # Home was not asked for again: its sleep was cancelled, not left to run out
        assert sum(1 for path in transport.requests if path.endswith(home)) == asked
        assert browser.current_page == (manual["space"], manual["Guide"])
