"""The workspace tree draws long lists progressively: a warm start shows the first page of
each remembered list before any request, the rest follows; nodes are added in chunks a
frame apart; a cursor waiting for a node not drawn yet moves there when it appears."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from textual.widgets import Tree

from gitbook_tui.api import AsyncGitBook
from gitbook_tui.cache import ResponseCache
from gitbook_tui.tui.app import GitBookApp
from gitbook_tui.tui.browse.browser_screen import BrowserScreen
from gitbook_tui.tui.browse.tree import drawing as tree_drawing
from gitbook_tui.tui.browse.tree import loading as tree_loading
from gitbook_tui.tui.browse.tree.loading import fetch_children
from gitbook_tui.tui.browse.tree.model import NodeData, label_for, label_text, to_text
from gitbook_tui.tui.browse.tree.workspace_tree import WorkspaceTree, org_key, space_key
from gitbook_tui.tui.common.config import TuiConfig
from gitbook_tui.tui.common.state import StateStore
from support.waits import until, until_screen

BASE = "http://testserver/v1"
SPACES = 130  # three pages of 50


class Transport(httpx.AsyncBaseTransport):
    """The in-process server; ``on_request`` is called before each request."""

    def __init__(self, app: Any) -> None:
        self.inner = httpx.ASGITransport(app=app)
        self.requests: list[str] = []
        self.on_request: Callable[[httpx.Request], None] | None = None

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.on_request is not None:
            self.on_request(request)
        self.requests.append(request.url.path)
        return await self.inner.handle_async_request(request)


async def _no_sleep(_: float) -> None:
    await asyncio.sleep(0)


def make_client(transport: httpx.AsyncBaseTransport, cache: ResponseCache | None = None):
    return AsyncGitBook(
        "tok-eve", base_url=BASE, transport=transport, max_retries=0, sleep=_no_sleep, cache=cache
    )


def make_app(client: AsyncGitBook, tmp_path: Path) -> GitBookApp:
    return GitBookApp(client, config=TuiConfig(), state_store=StateStore(tmp_path / "state.json"))


def tree_of(app: GitBookApp) -> WorkspaceTree:
    # (the screen's own reference: a query can run before the screen finished composing)
    screen = app.screen
    assert isinstance(screen, BrowserScreen)
    return screen.workspace_tree


def drawn(tree: WorkspaceTree, key: str) -> int:
    """How many child nodes ``key``'s node has (0 when it is not drawn)."""
    node = tree._node_for(key)
    return len(node.children) if node is not None else 0


@pytest.fixture
def many_spaces(world: Any, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """``SPACES`` spaces at the org's root, listed by the tree in pages of 50."""
    monkeypatch.setattr(tree_loading, "PAGE_SIZE", 50)
    a = world.client("alice")
    ids = []
    for i in range(SPACES):
        r = a.post(f"/orgs/{world.org}/spaces", json={"title": f"Space {i:03d}"})
        assert r.status_code == 201
        ids.append(r.json()["id"])
    return ids


# -- loading in part -----------------------------------------------------------------------------
async def test_fetch_first_page_only_and_progress(world, many_spaces):
    client = make_client(Transport(world.app))
    org = NodeData(org_key(world.org), "org", id=world.org, org_id=world.org)
    first = await fetch_children(
        client, org, "network", org_id=None, subcollections={}, first_page_only=True
    )
    assert not first.complete
    assert len(first.children[org.key]) == 50
    seen: list[int] = []
    whole = await fetch_children(
        client,
        org,
        "network",
        org_id=None,
        subcollections={},
        progress=lambda partial: seen.append(len(partial.children[org.key])),
    )
    assert whole.complete
    assert len(whole.children[org.key]) == SPACES
    assert seen == [50, 100]  # after each page that has another after it
    await client.close()


# -- warm start ------------------------------------------------------------------------------------
async def test_warm_start_draws_the_first_page_then_the_rest(world, many_spaces, tmp_path):
    cache = ResponseCache(tmp_path / "responses.sqlite")
    org = org_key(world.org)
    deep = space_key(many_spaces[120])  # on the third page
    # first run: everything loaded (and cached), the cursor left on a space of page 3
    app = make_app(make_client(Transport(world.app), cache), tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await until_screen(pilot, BrowserScreen)
        tree = tree_of(app)
        await until(pilot, lambda: drawn(tree, org) == SPACES)
        assert tree.select_key(deep)
        await pilot.press("q")

    transport = Transport(world.app)
    app = make_app(make_client(transport, cache), tmp_path)
    seen: dict[str, Any] = {}

    def first_request(request: httpx.Request) -> None:
        if "drawn" not in seen and isinstance(app.screen, BrowserScreen):
            tree = tree_of(app)
            seen["drawn"] = drawn(tree, org)
            seen["cursor"] = tree.selected_key
            seen["first"] = tree._node_for(space_key(many_spaces[0]))

    transport.on_request = first_request
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: transport.requests)
        # before any request: the first page of the list, the cursor waiting on the org
        assert seen["drawn"] == 50
        assert seen["cursor"] == org
        tree = tree_of(app)
        # then the rest (from the cache, then revalidated), and the cursor on its space
        await until(pilot, lambda: tree.selected_key == deep)
        await until(pilot, lambda: drawn(tree, org) == SPACES)
        assert tree.is_loaded(org)
        # the nodes of the first page were kept, not drawn again
        assert tree._node_for(space_key(many_spaces[0])) is seen["first"]
        labels = [n.label.plain for n in tree._node_for(org).children]
        assert labels == [f"□ Space {i:03d}" for i in range(SPACES)]
        await until(pilot, lambda: not tree.loader.in_flight)
    cache.close()


# -- chunks and the waiting cursor ---------------------------------------------------------------
async def test_a_long_list_is_added_in_chunks(world, many_spaces, tmp_path, monkeypatch):
    monkeypatch.setattr(tree_drawing, "CHUNK", 40)
    monkeypatch.setattr(tree_drawing, "CHUNK_SECONDS", 0.0)
    app = make_app(make_client(Transport(world.app)), tmp_path)
    org = org_key(world.org)
    counts: list[int] = []
    async with app.run_test(size=(100, 30)) as pilot:
        await until_screen(pilot, BrowserScreen)
        tree = tree_of(app)
        drawer = tree.drawer
        await until(pilot, lambda: tree.is_loaded(org) and not drawer.drawing)
        await pilot.pause()
        resume = drawer._resume

        def resumed() -> None:  # a chunk after a frame
            resume()
            counts.append(drawn(tree, org))

        drawer._resume = resumed  # type: ignore[method-assign]
        # the whole list again, at once: drawn 40 nodes a frame
        tree.set_filter("Space")
        counts.append(drawn(tree, org))
        await until(pilot, lambda: not drawer.drawing)
        assert counts == [39, 79, 119, SPACES]  # (the first chunk holds the org node too)
        labels = [n.label.plain for n in tree._node_for(org).children]
        assert labels == [f"□ Space {i:03d}" for i in range(SPACES)]


async def test_a_key_cancels_the_waiting_cursor(world, tmp_path):
    a = world.client("alice")
    space = a.post(f"/orgs/{world.org}/spaces", json={"title": "Handbook"}).json()
    a.post(f"/orgs/{world.org}/spaces", json={"title": "Notes"})
    app = make_app(make_client(Transport(world.app)), tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await until_screen(pilot, BrowserScreen)
        tree = tree_of(app)
        await until(pilot, lambda: tree._node_for(space_key(space["id"])) is not None)
        tree.focus()
        assert tree.select_key(space_key(space["id"]))
        # a node that is not drawn (the space is not loaded): the cursor waits for it
        waiting = f"page:{space['id']}:nope"
        assert not tree.select_key(waiting)
        assert tree.drawer.pending_cursor == waiting
        assert tree.selected_key == space_key(space["id"])
        # a key is the user moving on: nothing to wait for any more
        await pilot.press("j")
        assert tree.drawer.pending_cursor is None
        assert tree.selected_key != space_key(space["id"])


async def test_the_waiting_cursor_moves_when_its_node_is_drawn(world, tmp_path):
    a = world.client("alice")
    space = a.post(f"/orgs/{world.org}/spaces", json={"title": "Handbook"}).json()
    cr = a.post(f"/spaces/{space['id']}/change-requests", json={"subject": "p"}).json()
    r = a.post(
        f"/spaces/{space['id']}/change-requests/{cr['id']}/content",
        json={"changes": [{"operation": "insert_page", "title": "Intro", "document": {}}]},
    )
    assert r.status_code == 200, r.text
    assert a.post(f"/spaces/{space['id']}/change-requests/{cr['id']}/merge").status_code == 200
    page = a.get(f"/spaces/{space['id']}/content/pages").json()["pages"][0]
    app = make_app(make_client(Transport(world.app)), tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await until_screen(pilot, BrowserScreen)
        tree = tree_of(app)
        skey = space_key(space["id"])
        await until(pilot, lambda: tree._node_for(skey) is not None)
        wanted = f"page:{space['id']}:{page['id']}"
        assert not tree.select_key(wanted)  # not loaded yet
        tree._node_for(skey).expand()  # loads the space
        await until(pilot, lambda: tree.selected_key == wanted)
        assert tree.drawer.pending_cursor is None


# -- labels and widths -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "data",
    [
        NodeData("space:a", "space", title="Plain [b]markup[/b]"),
        NodeData("space:b", "space", title="With emoji", emoji="📝"),
        NodeData("page:s:a", "page", title=""),
        NodeData("page:s:b", "page", title="Hidden", hidden=True),
        NodeData("page:s:c", "group", title="Group"),
        NodeData("page:s:d", "link", title="", url="https://example.com"),
        NodeData("org:o", "org", title="Org"),
        NodeData("coll:c", "collection", title="Collection"),
    ],
)
def test_label_text_is_the_label_as_text(data: NodeData) -> None:
    fast, slow = label_text(data), to_text(label_for(data))
    assert (fast.plain, fast.spans, fast.no_wrap, fast.end) == (
        slow.plain,
        slow.spans,
        slow.no_wrap,
        slow.end,
    )


async def test_label_width_is_measured_as_rendered(world, tmp_path):
    a = world.client("alice")
    a.post(f"/orgs/{world.org}/spaces", json={"title": "Wide 漢字 space", "emoji": "📝"})
    app = make_app(make_client(Transport(world.app)), tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await until_screen(pilot, BrowserScreen)
        tree = tree_of(app)
        await until(pilot, lambda: tree.is_loaded(org_key(world.org)))
        nodes = [tree.root.children[0], *tree.root.children[0].children]
        assert len(nodes) > 1

        def room(node: Any) -> int:
            depth, parent = 0, node.parent
            while parent is not None:
                depth, parent = depth + 1, parent.parent
            indent = max(0, depth - (0 if tree.show_root else 1)) * tree.guide_depth
            return tree.scrollable_content_region.width - indent

        # the pane takes its width from the titles a moment after they load; until then a
        # label is drawn cut to the narrower pane
        await until(
            pilot,
            lambda: all(tree.get_label_width(n) <= room(n) for n in nodes),
            "the tree pane sized to its titles",
        )
        for node in nodes:
            assert tree.get_label_width(node) == Tree.get_label_width(tree, node)
