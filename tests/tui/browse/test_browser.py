"""BrowserScreen and the app shell: pages, history, links, warm start, offline, org picker,
``open`` targets and hostile server text."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from gitbook_tui.api import AsyncGitBook
from gitbook_tui.cache import ResponseCache
from gitbook_tui.cli import build_parser
from gitbook_tui.tui.account.org_picker_screen import OrgPickerScreen
from gitbook_tui.tui.app import GitBookApp
from gitbook_tui.tui.browse.browser_screen import BrowserScreen
from gitbook_tui.tui.common.config import TuiConfig, load_tui_config
from gitbook_tui.tui.common.link_targets import classify_href, classify_link
from gitbook_tui.tui.common.state import StartTarget, StateStore, parse_target
from support import tree_world
from support.builders import merge_changes, page_ids
from support.notes import notes_of
from support.tree_world import record_web_browser, tree_showing, until_browser, visible_labels
from support.waits import settle, until, until_screen

BASE = "http://testserver/v1"


# -- helpers ------------------------------------------------------------------------------
class Transport(httpx.AsyncBaseTransport):
    """The in-process server, counting requests; ``offline`` refuses every request and
    ``on_request`` is called before each one."""

    def __init__(self, app: Any) -> None:
        self.inner = httpx.ASGITransport(app=app)
        self.requests: list[str] = []
        self.full_reads: list[str] = []  # requests that were not revalidations (If-None-Match)
        self.offline = False
        self.on_request: Callable[[httpx.Request], None] | None = None

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.on_request is not None:
            self.on_request(request)
        self.requests.append(request.url.path)
        if "if-none-match" not in request.headers:
            self.full_reads.append(request.url.path)
        if self.offline:
            raise httpx.ConnectError("network is down", request=request)
        return await self.inner.handle_async_request(request)


async def _no_sleep(_: float) -> None:
    await asyncio.sleep(0)


def make_client(
    transport: httpx.AsyncBaseTransport,
    token: str = "tok-eve",
    cache: ResponseCache | None = None,
) -> AsyncGitBook:
    return AsyncGitBook(
        token, base_url=BASE, transport=transport, max_retries=0, sleep=_no_sleep, cache=cache
    )


def make_app(
    client: AsyncGitBook, tmp_path: Path, *, start: StartTarget | None = None
) -> GitBookApp:
    return GitBookApp(
        client,
        config=TuiConfig(),
        state_store=StateStore(tmp_path / "state.json"),
        start=start,
    )


def page(title: str, markdown: str = "", **fields: Any) -> dict[str, Any]:
    """An ``insert_page`` change; without markdown the page says what it is about."""
    return tree_world.page(title, markdown or f"# {title}\n\nAbout {title}.\n", **fields)


@pytest.fixture
def handbook(world: Any) -> dict[str, str]:
    """Space "Handbook" in collection "Product": Intro (links) › Install, and Usage."""
    a = world.client("alice")
    product = a.post(f"/orgs/{world.org}/collections", json={"title": "Product"}).json()
    space = a.post(
        f"/orgs/{world.org}/spaces", json={"title": "Handbook", "parent": product["id"]}
    ).json()
    merge_changes(
        world,
        space["id"],
        [page("Intro", ref="intro"), page("Install", into="intro"), page("Usage")],
    )
    ids = page_ids(world, space["id"])
    links = (
        "# Intro\n\n"
        "Read [the install guide](install.md).\n\n"
        f"Or [by id](/pages/{ids['Usage']}).\n\n"
        "See [the site](https://example.com/x).\n\n"
        "Never [this](javascript:alert(1)).\n"
    )
    merge_changes(
        world,
        space["id"],
        [{"operation": "update_page", "page": ids["Intro"], "document": {"markdown": links}}],
    )
    return {"space": space["id"], "collection": product["id"], **ids}


def browser_of(app: GitBookApp) -> BrowserScreen:
    screen = app.screen
    assert isinstance(screen, BrowserScreen), screen
    return screen


async def open_in_tree(pilot: Any, browser: BrowserScreen, space_id: str, title: str) -> None:
    """Reveal the space, put the cursor on ``title`` and press enter."""
    tree = browser.workspace_tree
    space = await browser.client.spaces.get(space_id)
    await tree.reveal(space)
    tree.focus()
    await pilot.pause()
    await tree_world.move_to(pilot, tree, title)
    await pilot.press("enter")
    await until(pilot, lambda: browser.header.title_text == title)


# -- pages and history ------------------------------------------------------------------------
async def test_enter_opens_page_and_history_back_forward(world, handbook, tmp_path):
    app = make_app(make_client(Transport(world.app)), tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await until_browser(pilot, app)
        await open_in_tree(pilot, browser, handbook["space"], "Usage")
        await until(pilot, lambda: browser.viewer.document is not None)
        assert browser.header.breadcrumb.text == "Acme Docs / Product / Handbook / Usage"
        assert app.space_id == handbook["space"]
        await open_in_tree(pilot, browser, handbook["space"], "Intro")
        assert browser.current_page == (handbook["space"], handbook["Intro"])
        await pilot.press("backspace")
        await until(pilot, lambda: browser.header.title_text == "Usage")
        assert browser.workspace_tree.cursor_node.label.plain == "Usage"
        await pilot.press("alt+right")
        await until(pilot, lambda: browser.header.title_text == "Intro")
        await pilot.press("alt+left")
        await until(pilot, lambda: browser.header.title_text == "Usage")
        assert browser.history == (
            [(handbook["space"], handbook["Usage"]), (handbook["space"], handbook["Intro"])],
            0,
        )


async def test_links_inside_the_space_open_pages(world, handbook, tmp_path, monkeypatch):
    opened = record_web_browser(monkeypatch)
    copied: list[str] = []
    app = make_app(make_client(Transport(world.app)), tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await until_browser(pilot, app)
        app.copy_to_clipboard = copied.append  # type: ignore[method-assign]
        notes = notes_of(app)
        await open_in_tree(pilot, browser, handbook["space"], "Intro")
        viewer = browser.viewer
        await until(pilot, lambda: viewer.document is not None)
        # through the viewer (enter in the tree gave it the focus): tab to the first link
        assert viewer.has_focus
        await pilot.pause()
        await pilot.press("tab", "enter")
        await until(pilot, lambda: browser.header.title_text == "Install")
        assert browser.current_page == (handbook["space"], handbook["Install"])
        await pilot.press("alt+left")
        await until(pilot, lambda: browser.header.title_text == "Intro")
        # a stable /pages/<id> link
        browser.follow_link(f"/pages/{handbook['Usage']}")
        await until(pilot, lambda: browser.header.title_text == "Usage")
        await pilot.press("alt+left")
        await until(pilot, lambda: browser.header.title_text == "Intro")
        # external links are offered, opened only with o
        browser.follow_link("https://example.com/x")
        await pilot.pause()
        assert any("press o to open https://example.com/x" in n for n in notes)
        assert opened == []
        await pilot.press("o")
        assert opened == ["https://example.com/x"]
        # other schemes are refused
        browser.follow_link("javascript:alert(1)")
        await pilot.pause()
        assert any("Refused to open a javascript: link" in n for n in notes)
        assert browser.pending_url == "https://example.com/x"
        assert browser.header.title_text == "Intro"
        # y copies the page's URL (OSC 52 through the app)
        await pilot.press("y")
        assert copied == [f"http://testserver/app/s/{handbook['space']}/intro"]


def test_classify_link() -> None:
    assert classify_link("b.md", "guide/a", False).path == "guide/b"
    assert classify_link("b.md", "guide", True).path == "guide/b"
    assert classify_link("../README.md#top", "guide/a", False).path == ""
    target = classify_link("sub/README.md#x-y", "", False)
    assert (target.kind, target.path, target.anchor) == ("path", "sub", "x-y")
    assert classify_link("other.md", "home", False, git_path="docs/README.md").path == "docs/other"
    assert classify_link("/pages/abc123", "x", False).page_id == "abc123"
    assert classify_link("#install", "x", False).kind == "anchor"
    assert classify_link("HTTPS://Example.com", "x", False).kind == "external"
    assert classify_link("//cdn.example.com/a", "x", False).kind == "refused"
    for bad in ("javascript:alert(1)", "file:///etc/passwd", "data:text/html,x", "mailto:a@b"):
        assert classify_link(bad, "x", False).kind == "refused"
    assert classify_link("../../up.md", "a", False).kind == "broken"
    assert classify_link(".gitbook/assets/pic.png", "", False).kind == "file"


def test_one_scheme_rule_for_the_viewer_and_the_follower() -> None:
    """The page shows a link as unsafe exactly when following it is refused; backslash
    forms of a protocol-relative link (browsers read ``/\\host`` as ``//host``) too."""
    for href in ("//evil.com/x", "/\\evil.com", "\\/evil.com", "\\\\evil.com", " //x.y"):
        assert classify_link(href, "guide/a", False).kind == "refused", href
        assert classify_href(href) == (False, False), href
    hrefs = ["https://a.b", "http://a.b/c", "javascript:x", "mailto:a@b", "b.md", "/abs/c.md"]
    hrefs += ["#top", "/pages/abc", "../x.md", ".gitbook/assets/p.png", "?q=1", "ftp://h/x"]
    for href in hrefs:
        target = classify_link(href, "guide/a", False)
        external, safe = classify_href(href)
        assert external == (target.kind == "external"), href
        assert safe == (target.kind != "refused"), href


# -- warm start and offline ---------------------------------------------------------------------
async def _first_run(world: Any, handbook: dict[str, str], tmp_path: Path, cache: ResponseCache):
    """Open Handbook › Intro › Install with a cache; quit (the state is saved)."""
    app = make_app(make_client(Transport(world.app), cache=cache), tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await until_browser(pilot, app)
        await open_in_tree(pilot, browser, handbook["space"], "Intro")
        await pilot.press("escape")  # from the page back to the tree
        await pilot.press("l")  # expand Intro
        await until(pilot, lambda: "Install" in visible_labels(browser.workspace_tree))
        await open_in_tree(pilot, browser, handbook["space"], "Install")
        await until(pilot, lambda: browser.status.connection_text == "online")
        await pilot.press("q")
    assert app.return_code == 0


async def test_warm_start_shows_cached_tree_before_any_request(world, handbook, tmp_path):
    """A second start draws the cached tree and page before any request, then shows the server's
    changes. Slow: two app runs over one cache."""
    cache = ResponseCache(tmp_path / "responses.sqlite")
    await _first_run(world, handbook, tmp_path, cache)
    # meanwhile, on the server: Install is rewritten and a page is added
    merge_changes(
        world,
        handbook["space"],
        [
            {
                "operation": "update_page",
                "page": handbook["Install"],
                "document": {"markdown": "# Install\n\nNew steps.\n"},
            },
            page("Changelog"),
        ],
    )
    transport = Transport(world.app)
    app = make_app(make_client(transport, cache=cache), tmp_path)
    seen: dict[str, Any] = {}

    def first_request(request: httpx.Request) -> None:
        if "screen" in seen:
            return
        screen = app.screen
        seen["screen"] = type(screen).__name__
        if isinstance(screen, BrowserScreen):
            seen["labels"] = visible_labels(screen.workspace_tree)
            seen["cursor"] = screen.workspace_tree.cursor_node.label.plain
            seen["title"] = screen.header.title_text
            seen["markdown"] = screen.page.markdown if screen.page else None

    transport.on_request = first_request
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: transport.requests)
        # when the first request left, the remembered tree and page were already shown
        assert seen["screen"] == "BrowserScreen"
        assert seen["labels"] == [
            "Acme Docs",
            "▤ Product",
            "□ Handbook",
            "Intro",
            "Install",
            "Usage",
        ]
        assert seen["cursor"] == "Install"
        assert seen["title"] == "Install"
        browser = browser_of(app)
        assert seen["markdown"] == "About Install.\n"  # its "# Install" is the page title
        # then everything is refreshed in the background: the newer versions replace it
        await until(pilot, lambda: "Changelog" in visible_labels(browser.workspace_tree))
        await until(pilot, lambda: "New steps." in (browser.page.markdown or ""))
        await until(pilot, lambda: browser.status.connection_text == "online")
        assert browser.status.age_text.startswith("updated ")
        assert browser.workspace_tree.cursor_node.label.plain == "Install"
    cache.close()


async def test_offline_badge_with_cached_data(world, handbook, tmp_path):
    cache = ResponseCache(tmp_path / "responses.sqlite")
    await _first_run(world, handbook, tmp_path, cache)
    transport = Transport(world.app)
    transport.offline = True
    app = make_app(make_client(transport, cache=cache), tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await until_browser(pilot, app)
        status = browser.status
        await until(pilot, lambda: status.connection_text == "offline")
        assert status.age_text.startswith("data ") and status.age_text.endswith(" old")
        assert "offline · data" in status.text
        assert status.query_one("#status-connection").has_class("-offline")
        assert "Install" in visible_labels(browser.workspace_tree)
        assert browser.header.title_text == "Install"
        assert app.is_running
    cache.close()


async def test_state_file_holds_no_token(world, handbook, tmp_path):
    cache = ResponseCache(tmp_path / "responses.sqlite")
    await _first_run(world, handbook, tmp_path, cache)
    cache.close()
    text = (tmp_path / "state.json").read_text()
    assert "tok-eve" not in text
    assert handbook["Install"] in text


# -- start: org picker, open targets --------------------------------------------------------------
async def test_org_picker_when_the_token_sees_two_orgs(world, tmp_path):
    world.client("alice").post(f"/orgs/{world.other_org}/spaces", json={"title": "Elsewhere"})
    app = make_app(make_client(Transport(world.app), token="tok-alice"), tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        picker = await until_screen(pilot, OrgPickerScreen)
        assert [o.title for o in picker.orgs] == ["Acme Docs", "Other Org"]
        await pilot.press("j", "enter")
        browser = await until_browser(pilot, app)
        assert browser.org_id == world.other_org
        await until(pilot, lambda: "□ Elsewhere" in visible_labels(browser.workspace_tree))
        assert visible_labels(browser.workspace_tree)[0] == "Other Org"
        assert "Acme Docs" not in visible_labels(browser.workspace_tree)
        await pilot.press("q")
    # the next start goes straight to the remembered organization
    app = make_app(make_client(Transport(world.app), token="tok-alice"), tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        assert (await until_browser(pilot, app)).org_id == world.other_org


@pytest.mark.parametrize("how", ["page", "path"])
async def test_open_target_starts_at_the_page(world, handbook, tmp_path, how):
    start = (
        StartTarget(handbook["space"], handbook["Install"])
        if how == "page"
        else StartTarget(handbook["space"], path="intro/install")
    )
    app = make_app(make_client(Transport(world.app)), tmp_path, start=start)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await until_browser(pilot, app)
        await until(pilot, lambda: browser.header.title_text == "Install")
        assert browser.workspace_tree.cursor_node.label.plain == "Install"
        assert browser.header.breadcrumb.text.startswith("Acme Docs / Product / Handbook")


async def test_open_space_opens_its_first_page(world, handbook, tmp_path):
    app = make_app(
        make_client(Transport(world.app)), tmp_path, start=StartTarget(handbook["space"])
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await until_browser(pilot, app)
        await until(pilot, lambda: browser_of(app).header.title_text == "Intro")


def test_parse_target() -> None:
    assert parse_target("abc") == StartTarget("abc")
    assert parse_target("abc/def") == StartTarget("abc", "def")
    assert parse_target("/abc/def") == StartTarget("abc", "def")
    assert parse_target("https://app.gitbook.com/o/org1/s/sp1/guides/install") == StartTarget(
        "sp1", path="guides/install"
    )
    assert parse_target("http://127.0.0.1:8080/app/s/sp1") == StartTarget("sp1")
    assert parse_target("https://app.gitbook.com/o/o/s/sp1/~/changes/3") == StartTarget("sp1")
    assert parse_target("https://acme.gitbook.io/sp1/intro/install") == StartTarget(
        "sp1", path="intro/install"
    )
    for bad in ("", "a/b/c", "javascript:alert(1)", "https://acme.gitbook.io/", "a b"):
        with pytest.raises(ValueError):
            parse_target(bad)


def test_cli_open_subcommand() -> None:
    args = build_parser().parse_args(["open", "sp1/p1", "--demo"])
    assert (args.command, args.target, args.open_demo) == ("open", "sp1/p1", True)
    args = build_parser().parse_args(["serve", "--port", "0"])
    assert args.command == "serve"


def test_config_theme_keymap_and_problems(tmp_path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(
        '[ui]\ntheme = "nord"\nshow_hidden = true\n\n'
        '[keymap]\n"tree.down" = ["n", "down"]\n"browser.back" = "b"\n"bad" = 3\n'
    )
    config = load_tui_config(path)
    assert config.theme == "nord" and config.show_hidden
    assert config.keymap == {"tree.down": "n,down", "browser.back": "b"}
    assert config.problems == ["keymap.bad: give keys as a string or list"]


async def test_keymap_and_theme_from_config(world, handbook, tmp_path):
    client = make_client(Transport(world.app))
    config = TuiConfig(theme="nord", keymap={"tree.down": "n", "tree.open": "enter,x"})
    app = GitBookApp(client, config=config, state_store=StateStore(tmp_path / "s.json"))
    async with app.run_test(size=(120, 40)) as pilot:
        tree = (await until_browser(pilot, app)).workspace_tree
        assert app.theme == "nord"
        await until(pilot, lambda: "▤ Product" in visible_labels(tree))
        tree.focus()
        tree.cursor_line = 0
        await pilot.press("n")
        assert tree.cursor_node.label.plain == "▤ Product"
        await pilot.press("x")
        await until(pilot, lambda: "□ Handbook" in visible_labels(tree))


# -- hostile server text -------------------------------------------------------------------------
async def test_hostile_titles_are_inert(world, tmp_path):
    a = world.client("alice")
    space = a.post(f"/orgs/{world.org}/spaces", json={"title": "[@click=app.quit]x"}).json()
    merge_changes(
        world,
        space["id"],
        [page("\x1b[31mred\u202e", "# [@click=app.quit]heading\n\nBody [b]bold?[/b]\n")],
    )
    app = make_app(make_client(Transport(world.app)), tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await until_browser(pilot, app)
        tree = await tree_showing(pilot, app, "□ [@click=app.quit]x")
        tree.focus()
        while not tree.cursor_node.label.plain.endswith("x"):
            await pilot.press("j")
        await pilot.press("enter")  # expands the space; nothing is "clicked"
        await until(pilot, lambda: "red" in visible_labels(tree))
        assert app.is_running
        labels = visible_labels(tree)
        assert not any("\x1b" in label or "\u202e" in label for label in labels)
        await pilot.press("j", "enter")
        await until(pilot, lambda: browser.header.title_text == "red")
        await until(pilot, lambda: browser.viewer.document is not None)
        assert app.is_running
        crumbs = browser.header.breadcrumb.parts
        assert crumbs[:2] == ["Acme Docs", "[@click=app.quit]x"]
        assert crumbs[-1] == "red"  # the page's title, inert
        assert not any("\x1b" in c or "\u202e" in c for c in crumbs)
        title = browser.header.query_one("#page-title")
        assert "red" in str(title.render()) and "\x1b" not in str(title.render())


async def test_open_target_then_plain_start_restores_the_tree(world, handbook, tmp_path):
    cache = ResponseCache(tmp_path / "responses.sqlite")
    transport = Transport(world.app)
    start = StartTarget(handbook["space"], handbook["Install"])
    app = make_app(make_client(transport, cache=cache), tmp_path, start=start)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await until_browser(pilot, app)
        await until(pilot, lambda: browser.header.title_text == "Install")
        await until(pilot, lambda: browser.status.connection_text == "online")
        await settle(pilot)
        expanded = [k for k in browser.workspace_tree.expanded_keys if k != "root"]
        await pilot.press("q")
    # each listing of the tree was read once, not once per loader (a loader that starts
    # after another's answer is cached shows that answer and only revalidates it: a 304)
    for path in ("/v1/orgs", f"/v1/orgs/{world.org}/collections", f"/v1/orgs/{world.org}/spaces"):
        assert transport.full_reads.count(path) == 1, (path, transport.requests)
        assert transport.requests.count(path) <= 2, (path, transport.requests)
    saved = StateStore(tmp_path / "state.json").load(app.account)
    assert saved.org_id == world.org
    assert saved.page == [handbook["space"], handbook["Install"]]
    # the next plain start shows the same organization, tree and page
    app = make_app(make_client(Transport(world.app), cache=cache), tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await until_browser(pilot, app)
        assert browser.org_id == world.org
        await until(pilot, lambda: browser.header.title_text == "Install")
        await until(pilot, lambda: "Install" in visible_labels(browser.workspace_tree))
        assert set(expanded) <= set(browser.workspace_tree.expanded_keys)
        assert browser.workspace_tree.cursor_node.label.plain == "Install"
    cache.close()
