"""Views benchmark: switching between the numbered views and opening the command palette.

Run: python benchmarks/bench_views.py [--rounds 10] [--quick] [--latency 2.0]

The real app (``GitBookApp``) on the seeded demo workspace (in process, through the ASGI
server: parsing and validation included), headless ``App.run_test`` at 120×40, signed in
as the demo's owner with a page open in Browse. First each view is opened once and left
where a reader leaves it: Reviews with a change request's review pane (diff shown), Sites
with the site editor, Comments with the page's threads; then the reader pauses (no key
for a second: the app's quiet-time garbage collection runs). Then, wall-clock, keys back
to back (no pause at all):

* view switch back to an open view: ``1`` → Browse, ``2`` → the same review pane, ``4`` →
  the same site editor, ``3`` → Comments, round after round: from the key press to the
  target screen current and the app idle (its frame painted). Budget 100 ms (p95).
  The server requests made on the way back are counted per view: 0 for the review pane
  and the site editor (kept, not rebuilt); Comments re-reads its thread list (live data,
  revalidated by ETag) and Browse revalidates the open space.
* ``ctrl+p`` → the palette listing its app commands ("Go to Browse" …), from the key
  press; again with every server answer delayed by ``--latency`` seconds (the palette's
  server-backed commands load in the background: the app's own must not wait for them).
  Budget 150 ms (p95), either way.

Each figure is also given as CPU time of this process (the machine may be shared). The
full garbage collections CPython started during the run are counted, with the longest
(after the app's quiet-time collection they walk only newer objects:
``tui/common/idle_collector.py``).
``--quick`` does 2 rounds (CI smoke test, ~15 s with the seeding); it reports the budgets
but never fails on them.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import math
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from textual import events
from textual.command import CommandList, CommandPalette

from gitbook_tui.api import AsyncGitBook
from gitbook_tui.server.app import create_app
from gitbook_tui.server.demo.seed import demo_token, seed_demo_if_empty
from gitbook_tui.tui.app import GitBookApp
from gitbook_tui.tui.browse.browser_screen import BrowserScreen
from gitbook_tui.tui.comments.comments_screen import CommentsScreen
from gitbook_tui.tui.common.config import TuiConfig
from gitbook_tui.tui.common.state import StartTarget, StateStore
from gitbook_tui.tui.review.change_request_review_screen import ChangeRequestReviewScreen
from gitbook_tui.tui.review.review_inbox_screen import ReviewInboxScreen
from gitbook_tui.tui.sites.site_editor_screen import SiteEditorScreen
from gitbook_tui.tui.sites.sites_screen import SitesScreen

BASE = "http://testserver/v1"
SIZE = (120, 40)
BUDGET_SWITCH_S = 0.100
BUDGET_PALETTE_S = 0.150
TIMEOUT_S = 60.0
GUIDE = "Tidewater User Guide"
VIEWS = {"1": "Browse", "2": "Reviews", "4": "Sites", "3": "Comments"}
"""The order of the switches (each key's view, as the reader left it)."""
KEPT = ("2", "4")
"""Views that read nothing on return (the review pane, the site editor); Comments re-reads
its thread list (live data, revalidated by ETag) and Browse revalidates the open space."""


class CountingTransport(httpx.AsyncBaseTransport):
    """The ASGI server, counting requests; ``latency`` delays every answer (a slow link)."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.requests = 0
        self.latency = 0.0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.requests += 1
        if os.environ.get("BENCH_VIEWS_TRACE"):
            print(f"  request {request.method} {request.url.path}", file=sys.stderr)
        if self.latency:
            await asyncio.sleep(self.latency)
        return await self.inner.handle_async_request(request)


async def guide_page(server: Any) -> StartTarget:
    """The demo user guide's first page (the page a reader has open in Browse)."""
    headers = {"Authorization": f"Bearer {demo_token('maya')}"}
    transport = httpx.ASGITransport(app=server)
    async with httpx.AsyncClient(transport=transport, base_url=BASE, headers=headers) as c:
        org = (await c.get("/orgs")).json()["items"][0]["id"]
        spaces = (await c.get(f"/orgs/{org}/spaces", params={"limit": 1000})).json()["items"]
        for coll in (await c.get(f"/orgs/{org}/collections", params={"limit": 1000})).json()[
            "items"
        ]:
            spaces += (await c.get(f"/collections/{coll['id']}/spaces")).json()["items"]
        space = next(s for s in spaces if s["title"] == GUIDE)
        pages = (await c.get(f"/spaces/{space['id']}/content/pages")).json()["pages"]
    return StartTarget(space["id"], pages[0]["id"])


async def wait_for(pilot: Any, condition: Callable[[], object], what: str) -> None:
    deadline = time.perf_counter() + TIMEOUT_S
    while not condition():
        if time.perf_counter() > deadline:
            raise SystemExit(f"timed out waiting for {what}")
        await pilot.pause(0.01)


async def open_views(app: GitBookApp, pilot: Any) -> dict[str, Any]:
    """Each view once, left where a reader leaves it; the screens to come back to."""
    await wait_for(
        pilot,
        lambda: isinstance(app.screen, BrowserScreen) and app.screen.current_page is not None,
        "the page in Browse",
    )
    browser = app.screen
    await pilot.press("2")
    await wait_for(pilot, lambda: isinstance(app.screen, ReviewInboxScreen), "the inbox")
    inbox = app.screen
    await wait_for(pilot, lambda: inbox.loaded and bool(inbox.shown), "the inbox rows")  # type: ignore[attr-defined]
    await pilot.press("enter")
    await wait_for(pilot, lambda: isinstance(app.screen, ChangeRequestReviewScreen), "the pane")
    review = app.screen
    assert isinstance(review, ChangeRequestReviewScreen)
    await wait_for(pilot, lambda: review.diff_ready.is_set(), "the diff")
    await pilot.press("4")
    await wait_for(pilot, lambda: isinstance(app.screen, SitesScreen), "the sites list")
    sites = app.screen
    await wait_for(pilot, lambda: sites.loaded, "the sites")  # type: ignore[attr-defined]
    await pilot.press("enter")
    await wait_for(pilot, lambda: isinstance(app.screen, SiteEditorScreen), "the site editor")
    editor = app.screen
    await pilot.press("3")
    await wait_for(pilot, lambda: isinstance(app.screen, CommentsScreen), "Comments")
    comments = app.screen
    await wait_for(pilot, lambda: comments.loaded and not comments.busy, "the threads")  # type: ignore[attr-defined]
    await app.workers.wait_for_complete()
    await pilot.pause()
    # the reader reads a moment before switching: the app's quiet-time collection runs
    collected = app.idle_collector.collections
    await wait_for(pilot, lambda: app.idle_collector.collections > collected, "a quiet moment")
    return {"1": browser, "2": review, "4": editor, "3": comments}


async def timed_key(pilot: Any, key: str, done: Callable[[], object]) -> tuple[float, float]:
    """Wall-clock and CPU seconds from the key event to ``done()`` and the refresh after it
    (the frame drawn). The key is posted as the terminal driver does (``Pilot.press``
    would add its own idle waits, ≥ 40 ms, to every figure)."""
    app = pilot.app
    painted = asyncio.Event()
    start, start_cpu = time.perf_counter(), time.process_time()
    app.post_message(events.Key(key, key if len(key) == 1 else None))
    while not done():
        if time.perf_counter() - start > TIMEOUT_S:
            raise SystemExit(f"timed out after {key!r}")
        await asyncio.sleep(0)
    app.screen.call_after_refresh(painted.set)
    await painted.wait()
    figures = time.perf_counter() - start, time.process_time() - start_cpu
    await pilot.pause()  # settle before the next key
    return figures


def app_commands_listed(app: GitBookApp) -> bool:
    screen = app.screen
    if not isinstance(screen, CommandPalette):
        return False
    listings = screen.query(CommandList)
    if not listings:
        return False  # still mounting
    listing = listings.first()
    return any(
        "Go to Browse" in str(listing.get_option_at_index(i).prompt)
        for i in range(listing.option_count)
    )


async def palette_round(app: GitBookApp, pilot: Any) -> tuple[float, float]:
    figures = await timed_key(pilot, "ctrl+p", lambda: app_commands_listed(app))
    if os.environ.get("BENCH_VIEWS_TRACE"):
        print(f"ctrl+p: {figures[0] * 1000:.0f} ms", file=sys.stderr)
    await pilot.press("escape")
    await wait_for(pilot, lambda: not isinstance(app.screen, CommandPalette), "the palette")
    return figures


async def run(server: Any, root: Path, rounds: int, latency: float) -> dict[str, Any]:
    start = await guide_page(server)
    transport = CountingTransport(httpx.ASGITransport(app=server))
    client = AsyncGitBook(demo_token("maya"), base_url=BASE, transport=transport)
    app = GitBookApp(
        client,
        config=TuiConfig(),
        state_store=StateStore(root / "state.json"),
        start=start,
        transport=transport,
    )
    switches: list[float] = []
    switches_cpu: list[float] = []
    palette: list[float] = []
    palette_cpu: list[float] = []
    palette_slow: list[float] = []
    async with app.run_test(size=SIZE) as pilot:
        screens = await open_views(app, pilot)
        requests = dict.fromkeys(VIEWS, 0)
        for _ in range(rounds):
            for key in VIEWS:
                target = screens[key]
                before = transport.requests
                wall, cpu = await timed_key(pilot, key, lambda t=target: app.screen is t)
                requests[key] += transport.requests - before
                if os.environ.get("BENCH_VIEWS_TRACE"):
                    print(f"key {key}: {wall * 1000:.0f} ms", file=sys.stderr)
                switches.append(wall)
                switches_cpu.append(cpu)
        for _ in range(rounds):
            wall, cpu = await palette_round(app, pilot)
            palette.append(wall)
            palette_cpu.append(cpu)
        transport.latency = latency
        await pilot.press("1")
        await wait_for(pilot, lambda: app.screen is screens["1"], "Browse")
        for _ in range(rounds):
            wall, _cpu = await palette_round(app, pilot)
            palette_slow.append(wall)
        transport.latency = 0.0
    await client.close()
    return {
        "switches": switches,
        "switches_cpu": switches_cpu,
        "requests": requests,
        "palette": palette,
        "palette_cpu": palette_cpu,
        "palette_slow": palette_slow,
    }


def p95(values: list[float]) -> float:
    ordered = sorted(values)  # nearest rank
    return ordered[max(0, math.ceil(len(ordered) * 0.95) - 1)]


def line(label: str, wall: list[float], cpu: list[float] | None, budget: float) -> str:
    text = (
        f"{label}: median {statistics.median(wall) * 1000:.1f} ms, p95 {p95(wall) * 1000:.1f}"
        f" ms, max {max(wall) * 1000:.1f} ms over {len(wall)} (budget {budget * 1000:.0f} ms)"
    )
    if cpu:
        text += f"\n  (CPU time of this process: median {statistics.median(cpu) * 1000:.1f} ms)"
    return text


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--latency", type=float, default=2.0, help="slow server: seconds")
    parser.add_argument("--quick", action="store_true", help="2 rounds, never fails")
    args = parser.parse_args()
    rounds = 2 if args.quick else args.rounds
    started = time.perf_counter()
    full: list[float] = []  # seconds of each full collection
    gc_started = [0.0]

    def count_full(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            gc_started[0] = time.perf_counter()
        elif info["generation"] == 2:
            full.append(time.perf_counter() - gc_started[0])

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        os.environ["XDG_DATA_HOME"] = str(root / "data")  # drafts, viewed marks: not the user's
        os.environ["XDG_CACHE_HOME"] = str(root / "cache")
        server = create_app(root / "demo.sqlite")
        seed_demo_if_empty(server)
        seeded = time.perf_counter() - started
        gc.collect()  # the seeding's garbage: not the app's
        gc.callbacks.append(count_full)
        result = asyncio.run(run(server, root, rounds, args.latency))
        gc.callbacks.remove(count_full)
    print(f"demo workspace seeded in {seeded:.1f} s")
    print(f"load average: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    print(
        line(
            "view switch back to an open view",
            result["switches"],
            result["switches_cpu"],
            BUDGET_SWITCH_S,
        )
    )
    per_view = ", ".join(f"{VIEWS[k]} {n}" for k, n in result["requests"].items())
    print(f"server requests on the way back over {rounds} rounds: {per_view}")
    print("  (expected 0 for Reviews and Sites: the review pane and site editor are kept)")
    print(
        line(
            "ctrl+p → app commands listed",
            result["palette"],
            result["palette_cpu"],
            BUDGET_PALETTE_S,
        )
    )
    print(
        line(
            f"  with every answer {args.latency:g} s late",
            result["palette_slow"],
            None,
            BUDGET_PALETTE_S,
        )
    )
    longest = f", longest {max(full) * 1000:.0f} ms" if full else ""
    print(f"full garbage collections while the app ran: {len(full)}{longest}")
    print(f"total {time.perf_counter() - started:.1f} s")
    over = (
        p95(result["switches"]) > BUDGET_SWITCH_S
        or p95(result["palette"]) > BUDGET_PALETTE_S
        or p95(result["palette_slow"]) > BUDGET_PALETTE_S
        or any(result["requests"][key] for key in KEPT)
    )
    if over:
        print("over budget", file=sys.stderr)
        return 0 if args.quick else 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
