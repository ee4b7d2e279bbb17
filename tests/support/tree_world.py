"""The browse tests' workspace (an organization with a collection, spaces and pages) and
helpers to start the app on it and move in its tree."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest

from gitbook_tui.api import AsyncGitBook
from gitbook_tui.tui.app import GitBookApp
from gitbook_tui.tui.browse.browser_screen import BrowserScreen
from gitbook_tui.tui.browse.tree.workspace_tree import WorkspaceTree
from gitbook_tui.tui.common.config import TuiConfig
from gitbook_tui.tui.common.state import StateStore
from support.builders import merge_changes as add_pages
from support.waits import until, until_screen

BASE = "http://testserver/v1"


# -- helpers ------------------------------------------------------------------------------
class Transport(httpx.AsyncBaseTransport):
    """The in-process server, counting requests; ``fail`` maps a path suffix to a failure
    (``500`` or ``"connect"``) served once; ``offline`` refuses every request."""

    def __init__(self, app: Any) -> None:
        self.inner = httpx.ASGITransport(app=app)
        self.requests: list[str] = []
        self.fail: dict[str, int | str] = {}
        self.offline = False

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path
        self.requests.append(path)
        if self.offline:
            raise httpx.ConnectError("network is down", request=request)
        for suffix, kind in list(self.fail.items()):
            if path.endswith(suffix):
                del self.fail[suffix]
                if kind == "connect":
                    raise httpx.ConnectError("connection refused", request=request)
                body = {"error": {"code": kind, "message": "[@click=app.quit]boom"}}
                return httpx.Response(int(kind), json=body, request=request)
        return await self.inner.handle_async_request(request)


async def _no_sleep(_: float) -> None:
    await asyncio.sleep(0)


def make_client(transport: httpx.AsyncBaseTransport, token: str = "tok-eve") -> AsyncGitBook:
    return AsyncGitBook(token, base_url=BASE, transport=transport, max_retries=0, sleep=_no_sleep)


def make_app(client: AsyncGitBook, tmp_path: Path, **config: Any) -> GitBookApp:
    return GitBookApp(
        client, config=TuiConfig(**config), state_store=StateStore(tmp_path / "state.json")
    )


def app_on(world: Any, tmp_path: Path, **config: Any) -> GitBookApp:
    """The app signed in to ``world``'s in-process server, its state kept in ``tmp_path``."""
    return app_and_transport(world, tmp_path, **config)[0]


def app_and_transport(world: Any, tmp_path: Path, **config: Any) -> tuple[GitBookApp, Transport]:
    """:func:`app_on`, with the :class:`Transport` it goes through (to count requests, and
    to fail or go offline)."""
    transport = Transport(world.app)
    return make_app(make_client(transport), tmp_path, **config), transport


def page(title: str, markdown: str = "", **fields: Any) -> dict[str, Any]:
    return {
        "operation": "insert_page",
        "title": title,
        "document": {"markdown": markdown or f"# {title}\n"},
        **fields,
    }


@pytest.fixture
def workspace(world: Any) -> dict[str, str]:
    """Product (collection) › Guides (sub-collection) › Handbook (space: Intro › Install,
    a hidden Secret) and the org-root space Notes."""
    a = world.client("alice")
    product = a.post(f"/orgs/{world.org}/collections", json={"title": "Product"}).json()
    guides = a.post(
        f"/orgs/{world.org}/collections", json={"title": "Guides", "parent": product["id"]}
    ).json()
    handbook = a.post(
        f"/orgs/{world.org}/spaces", json={"title": "Handbook", "parent": guides["id"]}
    ).json()
    notes = a.post(f"/orgs/{world.org}/spaces", json={"title": "Notes", "emoji": "📝"}).json()
    add_pages(
        world,
        handbook["id"],
        [
            page("Intro", ref="intro"),
            page("Install", into="intro"),
            page("Secret", hidden=True),
        ],
    )
    return {
        "product": product["id"],
        "guides": guides["id"],
        "handbook": handbook["id"],
        "notes": notes["id"],
    }


def browser_ready(app: GitBookApp) -> bool:
    """The browser is the screen, composed, and its tree shows the organizations (a
    pushed screen is ``app.screen`` before its widgets are mounted)."""
    screen = app.screen
    if not isinstance(screen, BrowserScreen):
        return False
    trees = screen.query(WorkspaceTree)
    return bool(trees) and bool(trees.first().root.children)


def tree_of(app: GitBookApp) -> WorkspaceTree:
    # (the screen's own reference: a query can run before the screen finished composing)
    screen = app.screen
    assert isinstance(screen, BrowserScreen)
    return screen.workspace_tree


def visible_labels(tree: WorkspaceTree) -> list[str]:
    labels: list[str] = []

    def walk(node: Any) -> None:
        for child in node.children:
            labels.append(child.label.plain)
            if child.is_expanded:
                walk(child)

    walk(tree.root)
    return labels


def find_node(tree: WorkspaceTree, text: str) -> Any:
    stack = list(tree.root.children)
    while stack:
        node = stack.pop()
        if node.label.plain == text:
            return node
        stack.extend(node.children)
    raise AssertionError(f"no node {text!r}")


def cursor_label(tree: WorkspaceTree) -> str:
    node = tree.cursor_node
    return node.label.plain if node is not None else ""


async def move_to(pilot: Any, tree: WorkspaceTree, text: str) -> None:
    """Press j until the cursor is on the node labelled ``text``."""
    for _ in range(40):
        if cursor_label(tree).endswith(text):
            return
        await pilot.press("j")
    raise AssertionError(f"no node {text!r} in {visible_labels(tree)}")


async def expand(pilot: Any, tree: WorkspaceTree, text: str) -> None:
    """Move the cursor to the node labelled ``text`` and press l (expand it; a leaf page:
    open it)."""
    await move_to(pilot, tree, text)
    await pilot.press("l")


async def until_browser(pilot: Any, app: GitBookApp) -> BrowserScreen:
    """Wait until the browser is the app's screen and mounted (its tree may still be loading)."""
    return await until_screen(pilot, BrowserScreen)


async def tree_showing(pilot: Any, app: GitBookApp, label: str) -> WorkspaceTree:
    """Wait for the browser until its tree shows the row ``label``; that tree."""
    tree = (await until_browser(pilot, app)).workspace_tree
    await until(pilot, lambda: label in visible_labels(tree))
    return tree


def record_web_browser(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Stand a recorder in for the system web browser; return the URLs it is asked to open."""
    opened: list[str] = []

    class Recorder:
        def open(self, url: str, new: int = 0) -> bool:
            opened.append(url)
            return True

    monkeypatch.setattr("webbrowser.get", lambda *a: Recorder())
    return opened


async def reveal_space(pilot: Any, app: GitBookApp, space_id: str) -> BrowserScreen:
    """Wait for the browser, reveal the space ``space_id`` in its tree and focus the tree."""
    await until(pilot, lambda: browser_ready(app))
    browser = app.screen
    assert isinstance(browser, BrowserScreen)
    tree = tree_of(app)
    assert await tree.reveal(await app.client.spaces.get(space_id))
    tree.focus()
    await pilot.pause()
    return browser


async def open_page(pilot: Any, app: GitBookApp, space_id: str, title: str) -> BrowserScreen:
    """Reveal the space ``space_id``, open its page ``title`` from the tree and wait until
    the page is drawn."""
    browser = await reveal_space(pilot, app, space_id)
    await move_to(pilot, browser.workspace_tree, title)
    await pilot.press("enter")
    await until(pilot, lambda: browser.header.title_text == title)
    await until(pilot, lambda: browser.viewer.has_painted)
    return browser


# -- tests ---------------------------------------------------------------------------------
