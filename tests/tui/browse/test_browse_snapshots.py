"""Snapshot tests of the main views, each at 80×24 and 120×40.

The SVGs live in ``tests/tui/browse/__snapshots__/test_browse_snapshots/``; after a deliberate visual
change, regenerate them with ``python -m pytest tests/tui/browse/test_browse_snapshots.py
--snapshot-update`` and review the new files before committing them.

Everything on screen is made deterministic: a small fixed workspace built through the API
of the in-process server (fixed clock and id seed, see ``conftest.world``), the local time
zone set to UTC (page dates), the status bar's clock and the response cache's clock frozen
(so "updated 0 s ago" and "data 2 h old" never tick), the rate-limit headers pinned, no
cursor blink, cache and UI state in ``tmp_path``, no network and no keyring. ``run_before`` waits until every worker is done
and the content (not a "loading…" line) is on screen before the snapshot is taken.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import OptionList

from gitbook_tui.api import AsyncGitBook
from gitbook_tui.cache import ResponseCache
from gitbook_tui.tui.account.welcome_screen import WelcomeScreen
from gitbook_tui.tui.app import GitBookApp
from gitbook_tui.tui.browse.browser_screen import BrowserScreen
from gitbook_tui.tui.browse.outline_screen import OutlineScreen
from gitbook_tui.tui.browse.pane_layout import WIDE
from gitbook_tui.tui.browse.tree.workspace_tree import WorkspaceTree
from gitbook_tui.tui.common.config import TuiConfig
from gitbook_tui.tui.common.help_screen import HelpScreen
from gitbook_tui.tui.common.state import StartTarget, StateStore
from gitbook_tui.tui.search.search_screen import SearchScreen
from support.builders import merge_changes, page_ids
from support.frozen_clock import FrozenClock, freeze_clocks
from support.snapshot_sizes import SIZES, Snap
from support.tree_world import until_browser, visible_labels
from support.waits import settle, until, until_screen
from support.worlds import World

BASE = "http://testserver/v1"
EVERY_BLOCK = (
    Path(__file__).resolve().parents[3]
    / "src/gitbook_tui/server/demo/spaces/user-guide/reference/every-block.md"
)
WALL_CLOCK = 1_793_523_600.0  # 2026-11-01 09:00 UTC, the server's fixed clock (conftest.START)


# -- determinism ----------------------------------------------------------------------------
@pytest.fixture(autouse=True)
def frozen(monkeypatch: pytest.MonkeyPatch) -> Iterator[FrozenClock]:
    clock = freeze_clocks(monkeypatch, WALL_CLOCK)
    # page dates are shown in local time
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield clock
    monkeypatch.undo()
    time.tzset()


# -- the workspace --------------------------------------------------------------------------
def _page(title: str, markdown: str = "", **fields: Any) -> dict[str, Any]:
    return {
        "operation": "insert_page",
        "title": title,
        "document": {"markdown": markdown or f"About {title.lower()}.\n"},
        **fields,
    }


def _every_block() -> tuple[str, dict[str, str]]:
    """The demo's kitchen-sink page as the demo shows it: the body without its title
    heading (a Git Sync import makes the first ``#`` heading the page title) and the
    front matter's description and emoji as page fields."""
    text = EVERY_BLOCK.read_text(encoding="utf-8")
    _, front, body = text.split("---\n", 2)
    fields = {}
    for line in front.strip().splitlines():
        key, _, value = line.partition(":")
        if key in ("description", "emoji"):
            fields[key] = value.strip()
    title, _, body = body.lstrip("\n").partition("\n")
    assert title == "# Every block, once", title
    return body.lstrip("\n"), fields


WELCOME = """Tidewater is a **durable stream store**: producers append, consumer groups read and
replay. This guide takes you from a laptop install to a production cluster.

- [Install](getting-started/install.md) the `tide` CLI
- [Configure](getting-started/configure.md) your first context
- Look up any block in [Every block, once](reference/every-block.md)
"""

INSTALL = """{% hint style="info" %}
The CLI is a single static binary; no runtime needed.
{% endhint %}

```bash
brew install lanternfish-labs/tap/tide
tide version
```

Then create a **consumer group** for your service (see *Configure*).
"""


@pytest.fixture
def workspace(world: World) -> dict[str, str]:
    """Acme Docs: ▤ Product (□ User Guide, □ API Reference), ▤ Engineering (▤ Runbooks
    (□ On-call), □ Handbook) and the org-level space 📝 Release notes."""
    a = world.client("alice")

    def collection(title: str, parent: str | None = None) -> str:
        body = {"title": title, **({"parent": parent} if parent else {})}
        r = a.post(f"/orgs/{world.org}/collections", json=body)
        assert r.status_code in (200, 201), r.text
        return str(r.json()["id"])

    def space(title: str, parent: str | None = None, **fields: Any) -> str:
        body = {"title": title, **({"parent": parent} if parent else {}), **fields}
        r = a.post(f"/orgs/{world.org}/spaces", json=body)
        assert r.status_code in (200, 201), r.text
        return str(r.json()["id"])

    product = collection("Product")
    engineering = collection("Engineering")
    runbooks = collection("Runbooks", engineering)
    guide = space("User Guide", product, emoji="📘")
    api = space("API Reference", product)
    oncall = space("On-call", runbooks)
    handbook = space("Handbook", engineering)
    notes = space("Release notes", emoji="📝")

    every_block, fields = _every_block()
    merge_changes(
        world,
        guide,
        [
            _page("Welcome", WELCOME),
            _page("Getting started", ref="start"),
            _page("Install", INSTALL, into="start"),
            _page("Configure", into="start"),
            _page("Reference", ref="reference"),
            _page("Every block, once", every_block, into="reference", **fields),
            _page("Configuration reference", into="reference"),
            _page("Troubleshooting"),
            _page("Internal notes", hidden=True),
        ],
    )
    merge_changes(world, api, [_page("Overview"), _page("Authentication"), _page("Errors")])
    merge_changes(world, oncall, [_page("Paging policy"), _page("Incident checklist")])
    merge_changes(world, handbook, [_page("Onboarding"), _page("Code review")])
    merge_changes(world, notes, [_page("3.5.0"), _page("3.4.0")])
    return {"guide": guide, "api": api, "notes": notes, **page_ids(world, guide)}


# -- the app --------------------------------------------------------------------------------
async def _no_sleep(_: float) -> None:
    await asyncio.sleep(0)


RATE_LIMIT = {"x-ratelimit-limit": "5000", "x-ratelimit-remaining": "4990"}


class Transport(httpx.AsyncBaseTransport):
    """The in-process server; ``offline`` refuses every request (server unreachable).

    The rate-limit headers are pinned: the client shows the ``remaining`` of the answer
    that arrived last, and answers to concurrent requests arrive in any order."""

    def __init__(self, app: Any, *, offline: bool = False) -> None:
        self.inner = httpx.ASGITransport(app=app)
        self.offline = offline

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.offline:
            raise httpx.ConnectError("network is down", request=request)
        response = await self.inner.handle_async_request(request)
        if "x-ratelimit-remaining" in response.headers:
            response.headers.update(RATE_LIMIT)
        return response


def make_app(
    world: World,
    tmp_path: Path,
    *,
    token: str | None = "tok-eve",
    start: StartTarget | None = None,
    cache: ResponseCache | None = None,
    offline: bool = False,
) -> GitBookApp:
    transport = Transport(world.app, offline=offline)
    client = AsyncGitBook(
        token,
        base_url=BASE,
        transport=transport,
        max_retries=0,
        sleep=_no_sleep,
        cache=cache,
    )
    return GitBookApp(
        client,
        config=TuiConfig(),
        state_store=StateStore(tmp_path / "state.json"),
        start=start,
        transport=transport,
    )


async def settled_frame(pilot: Pilot[Any]) -> None:
    """The shared ``settle``, then the rate-limit counter redrawn: the status bar draws it
    on a one-second tick, so the snapshot must not depend on whether a tick came after the
    last answer."""
    await settle(pilot)
    app = pilot.app
    browser = app.browser
    if isinstance(browser, BrowserScreen):
        browser.status.track_rate_limit(app.client.rate_limit)
    await pilot.pause()


def browser_of(app: Any) -> BrowserScreen:
    browser = app.browser
    assert isinstance(browser, BrowserScreen), app.screen_stack
    return browser


async def cursor_to(pilot: Pilot[Any], tree: WorkspaceTree, label: str) -> None:
    """Move the tree cursor to the visible node ``label`` with j/k."""
    await until(pilot, lambda: label in visible_labels(tree))
    labels = visible_labels(tree)
    target = labels.index(label)
    while tree.cursor_line != target:
        await pilot.press("j" if tree.cursor_line < target else "k")


async def open_page(pilot: Pilot[Any], title: str) -> BrowserScreen:
    """Wait for the browser showing page ``title`` with its content painted."""
    await until(pilot, lambda: isinstance(pilot.app.browser, BrowserScreen))
    browser = browser_of(pilot.app)
    await until(pilot, lambda: browser.header.title_text == title)
    await until(pilot, lambda: browser.viewer.document is not None)
    await until(pilot, lambda: browser.viewer.complete, "the whole page parsed")
    await settled_frame(pilot)
    await until(pilot, lambda: browser.viewer.has_painted)
    await until(pilot, lambda: browser.status.connection_text == "online")
    return browser


def _start(workspace: dict[str, str], title: str) -> StartTarget:
    return StartTarget(workspace["guide"], workspace[title])


Step = Callable[[Pilot[Any], BrowserScreen], Awaitable[None]]
"""What a snapshot test does on its page before the picture: keys, waits."""


async def _nothing(pilot: Pilot[Any], browser: BrowserScreen) -> None:
    """No step: the page as it opened."""


def pressing(key: str, screen: type[Screen[Any]]) -> Step:
    """A step that presses ``key`` and waits for the ``screen`` it opens."""

    async def step(pilot: Pilot[Any], browser: BrowserScreen) -> None:
        await pilot.press(key)
        await until_screen(pilot, screen)

    return step


def snap_at_page(
    snap_compare: Snap,
    world: World,
    workspace: dict[str, str],
    tmp_path: Path,
    size: tuple[int, int],
    title: str,
    step: Step = _nothing,
) -> bool:
    """Start the app at the User Guide's page ``title``, wait until it is drawn, run
    ``step`` and compare the settled screen with the test's snapshot."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await step(pilot, await open_page(pilot, title))
        await settled_frame(pilot)

    app = make_app(world, tmp_path, start=_start(workspace, title))
    return snap_compare(app, terminal_size=size, run_before=run_before)


# -- (a) the tree ---------------------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES)
def test_tree_expanded(snap_compare: Snap, world, workspace, tmp_path, size) -> None:
    """The organization with two collections, a sub-collection and a space expanded; the
    cursor on a page opened with enter."""

    async def run_before(pilot: Pilot[Any]) -> None:
        tree = (await until_browser(pilot, pilot.app)).workspace_tree
        for label in ("▤ Product", "📘 User Guide", "Getting started", "▤ Engineering"):
            await cursor_to(pilot, tree, label)
            await pilot.press("l")
            await settled_frame(pilot)
        await cursor_to(pilot, tree, "▤ Runbooks")
        await pilot.press("l")
        await settled_frame(pilot)
        await cursor_to(pilot, tree, "Install")
        await pilot.press("enter")
        await open_page(pilot, "Install")
        await pilot.press("escape")  # enter gave the page the focus: back to the tree
        await settled_frame(pilot)
        assert "⟳ loading…" not in visible_labels(tree)

    assert snap_compare(make_app(world, tmp_path), terminal_size=size, run_before=run_before)


# -- (a2) the browser at 60x20: the page alone, the tree as a drawer --------------------------
@pytest.mark.parametrize("pane", ["page", "tree"])
def test_browser_narrow(snap_compare: Snap, world, workspace, tmp_path, pane) -> None:
    """60x20: an open page takes the width (the tree hides); ``\\`` shows the tree."""

    async def show_pane(pilot: Pilot[Any], browser: BrowserScreen) -> None:
        browser.focus_page()
        await settled_frame(pilot)
        if pane == "tree":
            await pilot.press("backslash")

    assert snap_at_page(snap_compare, world, workspace, tmp_path, (60, 20), "Install", show_pane)


# -- (a3) open comment threads counted in the tree and the page header -----------------------
@pytest.mark.parametrize("size", SIZES)
def test_comment_counts(snap_compare: Snap, world, workspace, tmp_path, size) -> None:
    """Install has two open threads (and a resolved one), Welcome one, the User Guide
    space three; Release notes one: dim counts on those rows and in the page header."""
    guide, notes = workspace["guide"], workspace["notes"]

    def thread(space: str, page: str | None, text: str) -> str:
        body: dict[str, Any] = {"body": {"markdown": text}, **({"page": page} if page else {})}
        r = world.client("alice").post(f"/spaces/{space}/comments", json=body)
        assert r.status_code in (200, 201), r.text
        return str(r.json()["id"])

    thread(guide, workspace["Install"], "Does brew still need the tap?")
    thread(guide, workspace["Install"], "Add the Linux package.")
    done = thread(guide, workspace["Install"], "Typo fixed.")
    r = world.client("alice").put(f"/spaces/{guide}/comments/{done}", json={"resolved": True})
    assert r.status_code == 200, r.text
    thread(guide, workspace["Welcome"], "Shorter intro?")
    thread(notes, None, "When is 3.6 due?")

    async def counted(pilot: Pilot[Any], browser: BrowserScreen) -> None:
        await until(pilot, lambda: browser.header.comments_text != "")

    assert snap_at_page(snap_compare, world, workspace, tmp_path, size, "Install", counted)


# -- (b) a page with every block ------------------------------------------------------------
@pytest.mark.parametrize("anchor", ["top", "hints", "embeds", "figure", "end"])
@pytest.mark.parametrize("size", SIZES)
def test_every_block_page(snap_compare: Snap, world, workspace, tmp_path, size, anchor) -> None:
    """The demo's "Every block, once" page, focused, at the top and at a few headings."""

    async def to_anchor(pilot: Pilot[Any], browser: BrowserScreen) -> None:
        viewer = browser.viewer
        viewer.focus()
        # below WIDE columns the tree is a drawer: it hides once the page has the focus, and
        # the page is laid out again at the whole width (an anchor is found in that layout)
        await until(
            pilot,
            lambda: (
                viewer.has_focus
                and (size[0] >= WIDE or not browser.workspace_tree.region.width)
                and viewer.document_layout is not None
                and viewer.document_layout.width == viewer.scrollable_content_region.width
            ),
            "the page laid out with the focus",
        )
        if anchor == "end":
            await pilot.press("G")
        elif anchor != "top":
            assert browser.viewer.scroll_to_anchor(anchor)
            await until(
                pilot, lambda: browser.viewer.visible_text()[0].strip(), "the heading on top"
            )

    assert snap_at_page(
        snap_compare, world, workspace, tmp_path, size, "Every block, once", to_anchor
    )


# -- (c) the outline ------------------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES)
def test_outline(snap_compare: Snap, world, workspace, tmp_path, size) -> None:
    """t on the "Every block, once" page: its headings, indented by level."""

    outline = pressing("t", OutlineScreen)
    assert snap_at_page(
        snap_compare, world, workspace, tmp_path, size, "Every block, once", outline
    )


# -- (d) find in page -----------------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES)
def test_find_in_page(snap_compare: Snap, world, workspace, tmp_path, size) -> None:
    """/ tide enter, then n: every match highlighted, the current one stronger, "2/N"."""

    async def find_tide(pilot: Pilot[Any], browser: BrowserScreen) -> None:
        viewer = browser.viewer
        await pilot.press("f6", "slash")
        await pilot.press(*"tide", "enter")
        await until(pilot, lambda: viewer.find_status.startswith("1/"))
        await settled_frame(pilot)
        await pilot.press("n")
        await until(pilot, lambda: viewer.find_status.startswith("2/"))

    assert snap_at_page(
        snap_compare, world, workspace, tmp_path, size, "Every block, once", find_tide
    )


# -- (e) search -----------------------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES)
def test_search_results(snap_compare: Snap, world, workspace, tmp_path, size) -> None:
    """s, "consumer group", enter: the pages and sections of the space that match."""

    async def search(pilot: Pilot[Any], browser: BrowserScreen) -> None:
        await pressing("s", SearchScreen)(pilot, browser)
        await pilot.press(*"consumer group", "enter")
        results = pilot.app.screen.query_one("#search-results", OptionList)
        await until(pilot, lambda: results.option_count > 0)

    assert snap_at_page(snap_compare, world, workspace, tmp_path, size, "Welcome", search)


# -- (f) help -------------------------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES)
def test_help(snap_compare: Snap, world, workspace, tmp_path, size) -> None:
    """? from the tree: the keys of the tree, the browser and the app."""

    help_keys = pressing("question_mark", HelpScreen)
    assert snap_at_page(snap_compare, world, workspace, tmp_path, size, "Welcome", help_keys)


# -- (g) offline ----------------------------------------------------------------------------
async def _first_run(world: World, workspace: dict[str, str], tmp_path: Path) -> None:
    """Online, with the cache: open User Guide › Getting started › Install in the tree
    (the tree and the page are cached, the state remembers them), quit."""
    cache = ResponseCache(tmp_path / "responses.sqlite")
    app = make_app(world, tmp_path, cache=cache)
    async with app.run_test(size=(120, 40)) as pilot:
        tree = (await until_browser(pilot, app)).workspace_tree
        for label in ("▤ Product", "📘 User Guide", "Getting started"):
            await cursor_to(pilot, tree, label)
            await pilot.press("l")
            await settled_frame(pilot)
        await cursor_to(pilot, tree, "Install")
        await pilot.press("enter")
        await open_page(pilot, "Install")
        await pilot.press("q")
    cache.close()


@pytest.mark.parametrize("size", SIZES)
def test_offline_badge(snap_compare: Snap, world, workspace, tmp_path, frozen, size) -> None:
    """Two hours later the server is unreachable: the tree and the page come from the
    cache and the status bar says "offline · data 2 h old"."""
    asyncio.run(_first_run(world, workspace, tmp_path))
    frozen.at += 2 * 3600
    cache = ResponseCache(tmp_path / "responses.sqlite")

    async def run_before(pilot: Pilot[Any]) -> None:
        browser = await until_browser(pilot, pilot.app)
        await until(pilot, lambda: browser.status.connection_text == "offline")
        await until(pilot, lambda: browser.header.title_text == "Install")
        await settled_frame(pilot)
        assert browser.status.age_text == "data 2 h old"

    app = make_app(world, tmp_path, cache=cache, offline=True)
    try:
        assert snap_compare(app, terminal_size=size, run_before=run_before)
    finally:
        cache.close()


# -- (h) welcome ----------------------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES)
def test_welcome(snap_compare: Snap, world, tmp_path, size) -> None:
    """No token: the welcome screen asks for one (or offers the demo)."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await until_screen(pilot, WelcomeScreen)
        await settled_frame(pilot)

    app = make_app(world, tmp_path, token=None)
    assert snap_compare(app, terminal_size=size, run_before=run_before)
