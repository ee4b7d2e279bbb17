"""Site editor benchmark: a site with many redirects in the whole app, over loopback.

Run: python benchmarks/bench_sites.py [--redirects 1200] [--rounds 5] [--size 120x40] [--quick]

The database is built in a temporary folder: an organization with one space of 40 pages
and a published site showing it, whose ``--redirects`` redirects are written straight into
storage (90 % to pages of the site, 10 % external). The server runs in a thread of this
process (``start_in_thread(…, port=0)``); the app runs headless (``App.run_test``). Every
figure is wall-clock time in this process, so it includes the server's work.

(a) load: ``load_site_data`` (site, sections, site spaces, live and draft redirects — two
    pages of 1,000 — and the page tree), HTTP and parsing included.
(b) table ready: from the moment the loaded data reaches the editor (``show_data``) until
    the redirects table holds its first rows (``render_rows``: the first 100 — more than
    a screenful — are added at once, the rest in batches of 500 after each refresh); "all
    rows": until every row is in the table.
(c) tab shown: from just before pressing ``]`` (Structure → Redirects) until the first
    frame in which the table paints its rows.
(d) filter keystroke: from just before typing one character into the ``/`` filter until
    the table holds the first matching rows ("filter rows"), and until the first frame that
    paints them ("filter painted").
(e) lint: ``lint()`` over every redirect (chains, loops, gone pages, shadowed sources).

Verdict: (b) + (c) — the table open after the data arrived — must stay under 0.2 s
(median over ``--rounds``). Exit status 1 when it does not.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from app_timing import app_arguments, private_home, summary, terminal_size, until

from gitbook_tui.api import AsyncGitBook
from gitbook_tui.server.app import create_app
from gitbook_tui.server.bootstrap import ensure_owner
from gitbook_tui.server.core.clock import Clock, iso
from gitbook_tui.server.runner import start_in_thread
from gitbook_tui.tui.app import GitBookApp
from gitbook_tui.tui.common.config import TuiConfig
from gitbook_tui.tui.common.state import AccountState, StateStore, account_key
from gitbook_tui.tui.sites import redirects_pane as pane_module
from gitbook_tui.tui.sites.redirect_rules import lint
from gitbook_tui.tui.sites.site_data import load_site_data
from gitbook_tui.tui.sites.site_editor_screen import SiteEditorScreen
from gitbook_tui.tui.sites.sites_screen import SitesScreen

TOKEN = "bench-token"
BUDGET = 0.2


async def build_database(path: Path, redirects: int) -> dict[str, str]:
    """The organization, its space of 40 pages and a published site with ``redirects``."""
    clock = Clock()
    app = create_app(path, clock=clock)
    storage = app.state.server.storage
    ensure_owner(storage, clock, TOKEN)
    with storage.read() as tx:
        owner = tx.meta("owner")
        org = next(m["organization"] for m in tx.list("member") if m["user"] == owner)

    async def api() -> dict[str, str]:
        transport = httpx.ASGITransport(app=app)
        headers = {"Authorization": f"Bearer {TOKEN}"}
        async with httpx.AsyncClient(
            transport=transport, base_url="http://bench/v1", headers=headers
        ) as c:

            async def ok(response: httpx.Response) -> Any:
                assert response.status_code < 300, response.text
                return response.json() if response.content else None

            space = await ok(await c.post(f"/orgs/{org}/spaces", json={"title": "Guide"}))
            cr = await ok(await c.post(f"/spaces/{space['id']}/change-requests", json={}))
            changes = [
                {
                    "operation": "insert_page",
                    "title": f"Article {n:02d}",
                    "document": {"markdown": f"Article {n}.\n"},
                }
                for n in range(40)
            ]
            await ok(
                await c.post(
                    f"/spaces/{space['id']}/change-requests/{cr['id']}/content",
                    json={"changes": changes},
                )
            )
            await ok(await c.post(f"/spaces/{space['id']}/change-requests/{cr['id']}/merge"))
            site = await ok(await c.post(f"/orgs/{org}/sites", json={"title": "Archive"}))
            base = f"/orgs/{org}/sites/{site['id']}"
            ss = await ok(await c.post(f"{base}/site-spaces", json={"spaceId": space["id"]}))
            await ok(await c.post(f"{base}/publish"))
            pages = (await ok(await c.get(f"/spaces/{space['id']}/content/pages")))["pages"]
            return {"org": org, "site": site["id"], "ss": ss["id"], "pages": pages}

    found: dict[str, Any] = await api()
    page_ids = [p["id"] for p in found.pop("pages")]
    now = iso(clock.now())
    with storage.transaction() as tx:
        for i in range(redirects):
            if i % 10 == 9:
                dest: dict[str, Any] = {"kind": "external", "url": f"https://old.example/{i}"}
            else:
                dest = {
                    "kind": "site-page",
                    "siteSpaceId": found["ss"],
                    "pageId": page_ids[i % len(page_ids)],
                }
            rid = storage.new_id()
            tx.put(
                "site-redirect",
                rid,
                {
                    "id": rid,
                    "site": found["site"],
                    "source": f"/{2015 + i % 9}/section-{i % 7}/article-{i:05d}",
                    "destination": dest,
                    "draft": False,
                    "permanent": i % 3 != 0,
                    "captureWildcard": False,
                    "createdAt": now,
                },
                scope=found["site"],
            )
    return found


class Probe:
    """Times of the events the figures end at (patched into the pane and its table)."""

    def __init__(self) -> None:
        self.shown_at = 0.0
        self.rows_at = 0.0
        self.painted_at = 0.0
        self.rows = 0
        self.rendered_at = 0.0
        original_show = pane_module.RedirectsPane.show_data
        original_render = pane_module.RedirectsPane.render_rows
        original_paint = pane_module.RedirectsTable.render_lines
        probe = self

        def show_data(pane: Any, data: Any) -> None:
            probe.shown_at = time.perf_counter()
            original_show(pane, data)
            probe.rows_at = time.perf_counter()

        def render_lines(table: Any, crop: Any) -> Any:
            lines = original_paint(table, crop)
            if table.row_count and not probe.painted_at and table.is_mounted:
                probe.painted_at = time.perf_counter()
            return lines

        def render_rows(pane: Any, keep: str | None = None) -> None:
            original_render(pane, keep)
            probe.rendered_at = time.perf_counter()

        pane_module.RedirectsPane.show_data = show_data  # type: ignore[method-assign]
        pane_module.RedirectsPane.render_rows = render_rows  # type: ignore[method-assign]
        pane_module.RedirectsTable.render_lines = render_lines  # type: ignore[method-assign]


async def one_round(
    url: str, ids: dict[str, str], size: tuple[int, int], tmp: Path
) -> dict[str, float]:
    probe = Probe()
    client = AsyncGitBook(TOKEN, base_url=url, max_retries=0)
    store = StateStore(tmp / f"state-{time.perf_counter_ns()}.json")
    store.save(account_key(client), AccountState(org_id=ids["org"]))
    app = GitBookApp(client, config=TuiConfig(), state_store=store)
    figures: dict[str, float] = {}
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: app.browser is not None)
        await pilot.press("4")
        await until(pilot, lambda: isinstance(app.screen, SitesScreen) and app.screen.loaded)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, SiteEditorScreen) and probe.rows_at > 0)
        figures["table ready"] = probe.rows_at - probe.shown_at
        editor = app.screen
        assert isinstance(editor, SiteEditorScreen)
        pane = editor.query_one(pane_module.RedirectsPane)
        await until(pilot, lambda: pane.filled)
        figures["all rows"] = time.perf_counter() - probe.shown_at
        probe.rows = pane.query_one(pane_module.RedirectsTable).row_count
        await pilot.pause()
        probe.painted_at = 0.0
        start = time.perf_counter()
        await pilot.press("right_square_bracket")
        await until(pilot, lambda: probe.painted_at > 0)
        figures["tab shown"] = probe.painted_at - start
        await pilot.press("slash")
        await pilot.pause()
        probe.painted_at = 0.0
        start = time.perf_counter()
        await pilot.press("7")
        await until(pilot, lambda: pane.filter_text == "7" and probe.rendered_at > start)
        await until(pilot, lambda: pane.filled)
        figures["filter rows"] = probe.rendered_at - start
        await until(pilot, lambda: probe.painted_at > start)
        figures["filter painted"] = probe.painted_at - start
        data = editor.data
        assert data is not None and probe.rows >= len(data.redirects) > 0
        start = time.perf_counter()
        lint(data.redirects, data.site_map)
        figures["lint"] = time.perf_counter() - start
        start = time.perf_counter()
        await load_site_data(client, ids["org"], ids["site"])
        figures["load"] = time.perf_counter() - start
        figures["rows"] = float(probe.rows)
    await client.close()
    return figures


async def run(args: argparse.Namespace) -> int:
    size = terminal_size(args.size)
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        private_home(tmp)
        started = time.perf_counter()
        ids = await build_database(tmp / "bench.sqlite", args.redirects)
        print(f"built {args.redirects} redirects in {time.perf_counter() - started:.1f} s")
        handle = start_in_thread(tmp / "bench.sqlite", port=0, token=TOKEN)
        rounds = [await one_round(handle.url, ids, size, tmp) for _ in range(args.rounds)]
    print(f"{int(rounds[0]['rows'])} rows, {args.size}, {args.rounds} rounds, median (min–max):")
    names = (
        "load",
        "table ready",
        "tab shown",
        "all rows",
        "filter rows",
        "filter painted",
        "lint",
    )
    print("\n".join(summary(rounds, names, 17)))
    opened = statistics.median(r["table ready"] + r["tab shown"] for r in rounds)
    verdict = "OK" if opened <= BUDGET else "TOO SLOW"
    print(
        f"table open after the data arrived (table ready + tab shown): {opened * 1000:.1f} ms "
        f"— budget {BUDGET * 1000:.0f} ms: {verdict} (load avg {os.getloadavg()[0]:.1f})"
    )
    # --quick is CI's smoke test (the benchmark must run); only a full run fails on the budget
    return 0 if opened <= BUDGET or args.quick else 1


def main() -> None:
    parser = app_arguments(__doc__ or "", quick="1,000 redirects, 2 rounds")
    parser.add_argument("--redirects", type=int, default=1200)
    args = parser.parse_args()
    if args.quick:
        args.redirects, args.rounds = 1000, 2
    sys.exit(asyncio.run(run(args)))


if __name__ == "__main__":
    main()
