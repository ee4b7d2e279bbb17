"""Open comment threads counted in the tree's rows and the page header: the space's count
from the API, a page's from the space's open threads; absent (never 0) while unknown;
current again after a comment is added or resolved."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
from rich.style import Style

from gitbook_tui.api import AsyncGitBook
from gitbook_tui.cache import ResponseCache
from gitbook_tui.tui.app import GitBookApp
from gitbook_tui.tui.browse.browser_screen import BrowserScreen
from gitbook_tui.tui.browse.tree.workspace_tree import WorkspaceTree, page_key, space_key
from gitbook_tui.tui.common.config import TuiConfig
from gitbook_tui.tui.common.state import StartTarget, StateStore
from gitbook_tui.tui.common.text import cell_width
from support.comments_world import (
    BASE,
    Transport,
    build_space,
    comments_at,
)
from support.waits import until, until_screen
from support.worlds import World

LONG_TITLE = "A space title far too long for the tree pane"


class CountingTransport(Transport):
    """The server, with the list of open threads held back (``hold``) or refused
    (``refuse_threads``), and the spaces' ``comments`` left out (``no_space_counts``)."""

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.hold: asyncio.Event | None = None
        self.refuse_threads = False
        self.no_space_counts = False

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        listing = request.method == "GET" and request.url.path.endswith("/comments")
        if listing and request.url.params.get("status") == "open":
            if self.hold is not None:
                await self.hold.wait()
            if self.refuse_threads:
                self.requests.append(f"GET {request.url.path}")
                error = {"error": {"code": 500, "message": "boom"}}
                return httpx.Response(500, json=error)
        response = await super().handle_async_request(request)
        if self.no_space_counts and "/spaces" in request.url.path and response.status_code == 200:
            body = json.loads(await response.aread())
            for item in body.get("items", [body]):
                if isinstance(item, dict):
                    item.pop("comments", None)
            headers = {k: v for k, v in response.headers.items() if k.lower() != "etag"}
            headers.pop("content-length", None)
            return httpx.Response(200, json=body, headers=headers)
        return response


def post_thread(world: World, space: str, page: str | None, text: str, user: str = "alice") -> str:
    body: dict[str, Any] = {"body": {"markdown": text}}
    if page is not None:
        body["page"] = page
    r = world.client(user).post(f"/spaces/{space}/comments", json=body)
    assert r.status_code in (200, 201), r.text
    return str(r.json()["id"])


def counted_space(world: World) -> dict[str, str]:
    """build_space's Guide — Welcome: 2 open threads and a resolved one; Install: 1 open;
    one on the whole space: 4 open in all."""
    ids = build_space(world)
    space = ids["space"]
    post_thread(world, space, ids["Welcome"], "A second question on Welcome.")
    done = post_thread(world, space, ids["Welcome"], "Settled already.")
    r = world.client("alice").put(f"/spaces/{space}/comments/{done}", json={"resolved": True})
    assert r.status_code == 200, r.text
    post_thread(world, space, None, "About the whole space.")
    return ids


def make_app(
    world: World, tmp_path: Path, ids: dict[str, str], *, cache: bool = False
) -> tuple[GitBookApp, CountingTransport]:
    transport = CountingTransport(world.app)

    async def no_sleep(_: float) -> None:
        await asyncio.sleep(0)

    client = AsyncGitBook(
        "tok-eve",
        base_url=BASE,
        transport=transport,
        max_retries=0,
        sleep=no_sleep,
        cache=ResponseCache(tmp_path / "responses.sqlite") if cache else None,
    )
    app = GitBookApp(
        client,
        config=TuiConfig(),
        state_store=StateStore(tmp_path / "state.json"),
        start=StartTarget(ids["space"], ids["Welcome"]),
        transport=transport,
    )
    return app, transport


async def browser_on_page(pilot: Any) -> BrowserScreen:
    browser = await until_screen(pilot, BrowserScreen)
    await until(pilot, lambda: browser.header.title_text == "Welcome")
    return browser


async def show_again(pilot: Any, browser: BrowserScreen) -> None:
    """Cover the browser with the help screen and close it: the browser shows again (the
    moment it reads the counts anew)."""
    await pilot.press("question_mark")
    await until(pilot, lambda: pilot.app.screen is not browser)
    await pilot.press("escape")


async def counted_browser(pilot: Any) -> BrowserScreen:
    """The browser on Welcome once counted_space's counts show in its header."""
    browser = await browser_on_page(pilot)
    await until(pilot, lambda: browser.header.comments_text == "💬 2 on this page · 4 in space")
    return browser


def row(tree: WorkspaceTree, key: str) -> str:
    """The row of ``key`` as the tree draws it (the label, cut to the pane)."""
    node = tree.drawer.node_for(key)
    assert node is not None, key
    return tree.render_label(node, Style(), Style()).plain


async def test_tree_rows_and_page_header_show_the_open_threads(world, tmp_path) -> None:
    ids = counted_space(world)
    app, transport = make_app(world, tmp_path, ids)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await counted_browser(pilot)
        header, tree = browser.header, browser.workspace_tree
        assert row(tree, space_key(ids["space"])).endswith("Guide  💬 4")
        assert row(tree, page_key(ids["space"], ids["Welcome"])).endswith("Welcome  💬 2")
        assert row(tree, page_key(ids["space"], ids["Install"])).endswith("Install  💬 1")
        # the date keeps its place beside the counts while there is room
        assert header.updated_text.startswith("updated ")

        listed = [r for r in transport.requests if r.endswith("/comments")]
        assert len(listed) == 1  # one read of the space's open threads
        await pilot.press("j")  # the cursor on Install: enter opens it, counts already known
        await until(pilot, lambda: tree.selected_key == page_key(ids["space"], ids["Install"]))
        await pilot.press("enter")
        await until(pilot, lambda: header.title_text == "Install")
        assert header.comments_text == "💬 1 on this page · 4 in space"
        await pilot.pause()
        assert [r for r in transport.requests if r.endswith("/comments")] == listed


async def test_a_page_without_threads_says_so_only_when_its_space_has_some(world, tmp_path) -> None:
    ids = counted_space(world)
    r = world.client("alice").get(f"/spaces/{ids['space']}/comments?status=open&limit=100")
    for item in r.json()["items"]:
        world.client("alice").put(
            f"/spaces/{ids['space']}/comments/{item['id']}", json={"resolved": True}
        )
    app, _ = make_app(world, tmp_path, ids)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await browser_on_page(pilot)
        header, tree = browser.header, browser.workspace_tree
        await until(pilot, lambda: browser.comment_counts.of_space(ids["space"]) is not None)
        await pilot.pause()
        assert header.comments_text == ""  # no open thread in the space: nothing to say
        assert "💬" not in row(tree, space_key(ids["space"]))
        assert "💬" not in row(tree, page_key(ids["space"], ids["Welcome"]))
        post_thread(world, ids["space"], ids["Install"], "On another page.")
        await app.client.comments.create(ids["space"], "Elsewhere", page=ids["Install"])
        await show_again(pilot, browser)
        await until(pilot, lambda: header.comments_text == "💬 0 on this page · 2 in space")
        assert "💬" not in row(tree, page_key(ids["space"], ids["Welcome"]))
        assert row(tree, page_key(ids["space"], ids["Install"])).endswith("💬 2")


async def test_counts_are_absent_while_unknown(world, tmp_path) -> None:
    ids = counted_space(world)
    app, transport = make_app(world, tmp_path, ids)
    transport.hold = asyncio.Event()
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await browser_on_page(pilot)
        header, tree = browser.header, browser.workspace_tree
        await until(pilot, lambda: header.comments_text == "💬 4 in space")
        await pilot.pause()
        # the page's threads are still being read: no count on it, and no 0
        assert header.comments_text == "💬 4 in space"
        assert "💬" not in row(tree, page_key(ids["space"], ids["Welcome"]))
        assert tree.has_focus or browser.viewer.has_focus  # the app goes on meanwhile
        transport.hold.set()
        await until(pilot, lambda: header.comments_text == "💬 2 on this page · 4 in space")
        assert row(tree, page_key(ids["space"], ids["Welcome"])).endswith("💬 2")


async def test_counts_the_server_does_not_give_stay_absent(world, tmp_path) -> None:
    ids = counted_space(world)
    app, transport = make_app(world, tmp_path, ids)
    transport.refuse_threads = True
    transport.no_space_counts = True
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await browser_on_page(pilot)
        header, tree = browser.header, browser.workspace_tree
        await until(
            pilot, lambda: any("GET" in r and r.endswith("/comments") for r in transport.requests)
        )
        await pilot.pause()
        assert header.comments_text == ""
        assert header.updated_text.startswith("updated ")
        assert "💬" not in row(tree, space_key(ids["space"]))
        assert "💬" not in row(tree, page_key(ids["space"], ids["Welcome"]))
        # opening another page does not ask again; showing the browser again does
        refused = [r for r in transport.requests if r.endswith("/comments")]
        await pilot.press("j")
        await until(pilot, lambda: tree.selected_key == page_key(ids["space"], ids["Install"]))
        await pilot.press("enter")
        await until(pilot, lambda: header.title_text == "Install")
        await pilot.pause()
        assert [r for r in transport.requests if r.endswith("/comments")] == refused
        transport.refuse_threads = False
        await show_again(pilot, browser)
        # the list read now also tells the space's count the spaces left out
        await until(pilot, lambda: header.comments_text == "💬 1 on this page · 4 in space")


async def test_the_list_of_threads_corrects_a_space_count_read_before_it(world, tmp_path) -> None:
    # (a cold --demo lists its spaces before their threads are seeded: 0 then, 4 by now)
    ids = counted_space(world)
    app, transport = make_app(world, tmp_path, ids)
    transport.no_space_counts = True
    async with app.run_test(size=(120, 40)) as pilot:
        # the header's "4 in space" comes from the list of threads, not the space's reading
        browser = await counted_browser(pilot)
        assert row(browser.workspace_tree, space_key(ids["space"])).endswith("Guide  💬 4")


async def test_a_comment_added_through_the_api_shows_when_the_browser_shows_again(
    world, tmp_path
) -> None:
    ids = counted_space(world)
    app, transport = make_app(world, tmp_path, ids, cache=True)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await counted_browser(pilot)
        header, tree = browser.header, browser.workspace_tree
        # nothing changed: showing the browser again reads nothing
        listed = len(transport.requests)
        await show_again(pilot, browser)
        await until(pilot, lambda: app.screen is browser)
        await pilot.pause()
        assert not [r for r in transport.requests[listed:] if "/comments" in r]

        await app.client.comments.create(ids["space"], "One more", page=ids["Welcome"])
        await show_again(pilot, browser)
        await until(pilot, lambda: header.comments_text == "💬 3 on this page · 5 in space")
        assert row(tree, space_key(ids["space"])).endswith("💬 5")
        assert row(tree, page_key(ids["space"], ids["Welcome"])).endswith("💬 3")


async def test_resolving_in_the_comments_view_updates_the_counts(world, tmp_path) -> None:
    ids = counted_space(world)
    app, _ = make_app(world, tmp_path, ids, cache=True)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await counted_browser(pilot)
        header, tree = browser.header, browser.workspace_tree
        screen = await comments_at(pilot, ids["first"])
        await pilot.press("x")
        await until(pilot, lambda: not screen.selected.pending)
        await pilot.press("1")
        await until(pilot, lambda: app.screen is browser)
        await until(pilot, lambda: header.comments_text == "💬 1 on this page · 3 in space")
        assert row(tree, space_key(ids["space"])).endswith("💬 3")


async def test_a_cut_label_ends_in_an_ellipsis_before_its_count(world, tmp_path) -> None:
    ids = counted_space(world)
    r = world.client("alice").post(f"/orgs/{world.org}/spaces", json={"title": LONG_TITLE})
    long_space = r.json()["id"]
    post_thread(world, long_space, None, "Hello")
    app, _ = make_app(world, tmp_path, ids)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await browser_on_page(pilot)
        tree = browser.workspace_tree
        await until(pilot, lambda: tree.drawer.node_for(space_key(long_space)) is not None)
        shown = row(tree, space_key(long_space))
        assert shown.endswith("…  💬 1")
        assert cell_width(shown) <= tree.scrollable_content_region.width
        # too narrow for the title and the count: the count goes, the title ends in …
        await pilot.resize_terminal(20, 40)
        browser.focus_tree()  # (below 60 columns the focused pane shows alone)
        await until(pilot, lambda: tree.scrollable_content_region.width < 22)
        await pilot.pause()
        shown = row(tree, space_key(long_space))
        assert shown.endswith("…") and "💬" not in shown
