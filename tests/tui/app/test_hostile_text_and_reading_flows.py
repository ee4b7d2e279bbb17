"""The whole app over the in-process server: hostile server text stays inert everywhere it
is shown, and the main reading flows (search → open, outline, help, external links)."""

from __future__ import annotations

import asyncio
import webbrowser
from pathlib import Path
from typing import Any

import httpx
import pytest
from textual.binding import Binding
from textual.command import CommandList, CommandPalette
from textual.widgets import OptionList

from gitbook_tui.api import AsyncGitBook
from gitbook_tui.tui.app import GitBookApp
from gitbook_tui.tui.browse.browser_screen import BrowserScreen
from gitbook_tui.tui.browse.outline_screen import OutlineScreen
from gitbook_tui.tui.browse.page_viewer import PageViewer
from gitbook_tui.tui.browse.pane_layout import tree_width
from gitbook_tui.tui.browse.tree.workspace_tree import (
    WorkspaceTree,
    collection_key,
    page_key,
    space_key,
)
from gitbook_tui.tui.common.config import TuiConfig
from gitbook_tui.tui.common.help_screen import HelpScreen
from gitbook_tui.tui.common.state import StateStore
from gitbook_tui.tui.search.search_screen import SearchScreen
from support.builders import merge_changes
from support.hostile_text import (
    BIDI,
    C1_CSI,
    CLICK,
    CSI,
    LITERAL,
    MARKUP,
    OSC52,
    check_screen,
    hostile,
    shown,
)
from support.notes import notes_of
from support.opened_links import record_opened_links
from support.tree_world import visible_labels
from support.waits import until, until_screen
from support.worlds import World

BASE = "http://testserver/v1"
SIZE = (200, 50)  # the sidebar at its widest (60 columns), the page pane 140 columns

# -- hostile text (support.hostile_text) ----------------------------------------------------
# Space and collection titles have at most 50 characters: each gets some of the pieces
# (page titles and the page text get them all).
COLLECTION_TITLE = f"{CLICK}{CSI}{OSC52}"
COLLECTION_SHOWN = f"{CLICK}red"
SPACE_TITLE = f"{MARKUP}{BIDI} {C1_CSI}{CSI}"
SPACE_SHOWN = f"{MARKUP}evil red"


HOSTILE_MARKDOWN = f"""# {hostile("heading")}

{hostile("paragraph")} zanzibar

Inline `{CLICK} {CSI}` code and **{MARKUP}** in bold.

## {hostile("section")}

The zanzibar section: {hostile("snippet")}

* [{CLICK} {BIDI}{C1_CSI} external](https://example.com/docs)
* [{MARKUP} mail](mailto:someone@example.com)
* [{MARKUP} script](javascript:alert(1))
* [{CLICK} top](#top)
* [{BIDI}missing](missing/{CLICK}.md)

```text
{hostile("code")}
{MARKUP} {OSC52}
```
"""


# -- helpers ------------------------------------------------------------------------------
async def _no_sleep(_: float) -> None:
    await asyncio.sleep(0)


def make_app(world: World, tmp_path: Path, token: str = "tok-eve") -> GitBookApp:
    client = AsyncGitBook(
        token,
        base_url=BASE,
        transport=httpx.ASGITransport(app=world.app),
        max_retries=0,
        sleep=_no_sleep,
    )
    return GitBookApp(client, config=TuiConfig(), state_store=StateStore(tmp_path / "state.json"))


def insert(title: str, markdown: str) -> dict[str, Any]:
    return {"operation": "insert_page", "title": title, "document": {"markdown": markdown}}


def page_ids(world: World, space_id: str) -> list[str]:
    pages = world.client("alice").get(f"/spaces/{space_id}/content/pages").json()["pages"]
    return [p["id"] for p in pages]


def browser_of(app: GitBookApp) -> BrowserScreen:
    browser = app.browser
    assert browser is not None
    return browser


async def cursor_to(pilot: Any, tree: WorkspaceTree, key: str) -> None:
    """Move the tree's cursor to ``key`` with j/k."""
    tree.focus()
    await pilot.pause()
    for _ in range(60):
        node = tree.cursor_node
        if node is not None and node.data is not None and node.data.key == key:
            return
        target = tree._key_nodes.get(key)
        down = target is None or tree.cursor_node is None or target.line > tree.cursor_line
        await pilot.press("j" if down else "k")
    raise AssertionError(f"no {key} in {visible_labels(tree)}")


async def wait_for_options(app: GitBookApp, pilot: Any, count: int = 1) -> CommandList:
    listing = app.screen.query_one(CommandList)
    await until(pilot, lambda: listing.option_count >= count)
    return listing


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What the app asked to open in a browser (nothing is opened for real)."""
    calls = record_opened_links(monkeypatch)

    def no_browser(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("webbrowser used directly")

    monkeypatch.setattr(webbrowser, "get", no_browser)
    monkeypatch.setattr(webbrowser, "open", no_browser)
    return calls


async def start(app: GitBookApp, pilot: Any) -> BrowserScreen:
    """The browser, once its tree has the focus. (Until ``BrowserScreen.on_mount`` has
    ended, the hidden tree filter input has the focus: a key sent then filters the tree.)"""
    await until_screen(pilot, BrowserScreen)
    browser = browser_of(app)
    await until(pilot, lambda: browser.workspace_tree.has_focus)
    return browser


async def open_page(pilot: Any, browser: BrowserScreen, space_id: str, page_id: str) -> None:
    """Expand the space in the tree, put the cursor on the page and press enter."""
    tree = browser.workspace_tree
    await until(pilot, lambda: tree._node_for(space_key(space_id)) is not None)
    await cursor_to(pilot, tree, space_key(space_id))
    await pilot.press("l")
    await until(pilot, lambda: tree._node_for(page_key(space_id, page_id)) is not None)
    await cursor_to(pilot, tree, page_key(space_id, page_id))
    await pilot.press("enter")
    await until(pilot, lambda: browser.current_page == (space_id, page_id))
    await until(pilot, lambda: browser.viewer.has_painted)


def top_lines(viewer: PageViewer, count: int = 2) -> list[str]:
    return [line.strip() for line in viewer.visible_text()[:count]]


# -- (a) hostile text through the whole app ----------------------------------------------------
@pytest.fixture
def hostile_space(world: World) -> dict[str, str]:
    """Collection › space › two pages, every title and the page text hostile."""
    a = world.client("alice")
    coll = a.post(f"/orgs/{world.org}/collections", json={"title": COLLECTION_TITLE})
    assert coll.status_code in (200, 201), coll.text
    space = a.post(
        f"/orgs/{world.org}/spaces", json={"title": SPACE_TITLE, "parent": coll.json()["id"]}
    )
    assert space.status_code in (200, 201), space.text
    space_id = space.json()["id"]
    merge_changes(
        world,
        space_id,
        [insert(hostile("page"), HOSTILE_MARKDOWN), insert(hostile("second"), "# Second\n")],
    )
    first, second = page_ids(world, space_id)
    return {"collection": coll.json()["id"], "space": space_id, "page": first, "second": second}


async def tree_fitted(pilot: Any, browser: BrowserScreen) -> None:
    """The tree pane widens to its titles after they arrive: wait until it has. The tree
    measures its lines when it lays them out (on its next paint); ``last_line`` lays them
    out now, so the width compared is that of the titles the tree holds."""
    tree = browser.workspace_tree

    def fitted() -> bool:
        return tree.last_line >= 0 and browser.sidebar.outer_size.width == tree_width(
            SIZE[0], tree.virtual_size.width
        )

    await until(pilot, fitted, "the tree pane sized to its titles")


async def test_hostile_text_is_inert_everywhere(world, hostile_space, tmp_path, opened):
    """Markup, action links, escapes and bidi controls from the server stay literal in every pane.
    Slow: walks the tree, page, links, search, header and dialogs in one app."""
    space_id, page_id = hostile_space["space"], hostile_space["page"]
    app = make_app(world, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        browser = await start(app, pilot)
        app.copy_to_clipboard = lambda text: None  # type: ignore[method-assign]
        notes = notes_of(app)
        tree, viewer = browser.workspace_tree, browser.viewer

        # the tree: collection, space and page labels are literal
        await until(pilot, lambda: f"▤ {COLLECTION_SHOWN}" in visible_labels(tree))
        await tree_fitted(pilot, browser)
        check_screen(app, f"▤ {COLLECTION_SHOWN}")
        await cursor_to(pilot, tree, collection_key(hostile_space["collection"]))
        await pilot.press("enter")
        await until(pilot, lambda: f"□ {SPACE_SHOWN}" in visible_labels(tree))
        await cursor_to(pilot, tree, space_key(space_id))
        await pilot.press("enter")
        await until(pilot, lambda: shown("second") in visible_labels(tree))
        assert shown("page") in visible_labels(tree)
        await tree_fitted(pilot, browser)
        check_screen(app, f"□ {SPACE_SHOWN}", LITERAL)  # page labels are cut at 60 columns

        # the page: breadcrumb, title, body, links, code
        await cursor_to(pilot, tree, page_key(space_id, page_id))
        await pilot.press("enter")
        await until(pilot, lambda: browser.header.title_text == shown("page"))
        await until(pilot, lambda: viewer.has_painted)
        assert browser.header.breadcrumb.parts[:3] == ["Acme Docs", COLLECTION_SHOWN, SPACE_SHOWN]
        check_screen(
            app,
            f"Acme Docs / {COLLECTION_SHOWN} / {SPACE_SHOWN} / ",  # the breadcrumb
            shown("page"),  # the header's title
            shown("heading"),
            f"{shown('paragraph')} zanzibar",
            f"Inline {CLICK} red code and {MARKUP} in bold.",
            shown("section"),
            f"{CLICK} evil external",
            f"{MARKUP} mail",
            f"[{MARKUP} script](javascript:alert(1))",  # never a link: shown as written
            f"{CLICK} top",
            "evilmissing",
            shown("code"),
            MARKUP,
        )

        # every link of the page: tab to it, enter; nothing quits, nothing is opened
        assert viewer.has_focus  # enter in the tree gave the page the focus
        hrefs: list[str] = []
        for _ in range(5):  # 4 links, then the first again
            await pilot.press("tab")
            target = viewer.focused_target
            assert target is not None
            hrefs.append(target.target.href or "")
            await pilot.press("enter")
            await pilot.pause()
            assert browser.current_page == (space_id, page_id)
            check_screen(app)
        assert hrefs == [
            "https://example.com/docs",
            "mailto:someone@example.com",
            "#top",
            "missing/%5B@click=app.quit%5Dboom.md",
            "https://example.com/docs",
        ]
        assert opened == []
        assert "press o to open https://example.com/docs" in notes
        assert "Refused to open a mailto: link" in notes
        assert f"Broken link: no page at missing/{CLICK}" in notes
        await pilot.press("o")
        await pilot.pause()
        assert opened == ["https://example.com/docs"]
        assert "Opened https://example.com/docs" in notes
        check_screen(app)

        # search results: titles, section headings and snippets; enter on each result
        count = None
        index = 0
        while count is None or index < count:
            await pilot.press("s")
            await until_screen(pilot, SearchScreen)
            await pilot.press(*"zanzibar", "enter")
            results = app.screen.query_one("#search-results", OptionList)
            await until(pilot, lambda r=results: r.option_count >= 3 and app.focused is r)
            count = results.option_count
            if index == 0:
                check_screen(app, shown("page"), shown("heading"), shown("section"))
                check_screen(app, "The zanzibar section:", shown("snippet"))  # wrapped
                await pilot.press("tab")  # to the query
                check_screen(app)
                await pilot.press("tab")  # and back to the results
                check_screen(app)
                assert app.focused is results
            while results.highlighted != index:
                await pilot.press("down")
            await pilot.press("enter")
            await until(pilot, lambda: app.screen is browser)
            await until(pilot, lambda: browser.current_page == (space_id, page_id))
            check_screen(app)
            index += 1
        await until(pilot, lambda: any(shown("section") in line for line in viewer.visible_text()))

        # the command palette: pages of the space, spaces of the organization; enter on each
        index = 0
        while index < 3:
            await pilot.press("ctrl+p")
            await until_screen(pilot, CommandPalette)
            await pilot.press(*"markup")  # in every page title and in the space's
            listing = await wait_for_options(app, pilot, 3)
            prompts = [
                listing.get_option_at_index(i).prompt.plain  # type: ignore[union-attr]
                for i in range(listing.option_count)
            ]
            for title in (shown("page"), shown("second"), SPACE_SHOWN):
                assert any(p.startswith(title) for p in prompts), (title, prompts)
            if index == 0:
                check_screen(
                    app, shown("page"), shown("second"), SPACE_SHOWN, f"Space in {COLLECTION_SHOWN}"
                )
            await pilot.press(*["down"] * (index + 1), "enter")
            await until(pilot, lambda: app.screen is browser)
            await pilot.pause()
            check_screen(app)
            index += 1

        # the outline of the page: enter on each heading
        await open_page(pilot, browser, space_id, page_id)
        for index in range(3):
            await pilot.press("t")
            await until_screen(pilot, OutlineScreen)
            check_screen(app, shown("heading"), shown("section"))
            await pilot.press(*["down"] * index, "enter")
            await until(pilot, lambda: app.screen is browser)
            check_screen(app)

        # enter on every node of the tree (twice on a folder: it is toggled back)
        line = 0
        while line <= tree.last_line:
            tree.focus()
            tree.cursor_line = line
            await pilot.pause()
            node = tree.cursor_node
            assert node is not None
            await pilot.press("enter")
            await pilot.pause()
            if node.allow_expand:
                await pilot.press("enter")
                await pilot.pause()
            check_screen(app)
            line += 1
        # a click on every literal "[@click=app.quit]" is only a click
        clicked = 0
        for y, text in enumerate(check_screen(app)):
            x = text.find("[@click=app.quit]")
            if x >= 0:
                await pilot.click(offset=(x + 1, y))
                await pilot.pause()
                check_screen(app)
                clicked += 1
        assert clicked >= 3
        assert opened == ["https://example.com/docs"]
        await pilot.press("q")
    assert app.return_code == 0


# -- (b)-(e) reading flows ----------------------------------------------------------------------
def filler(word: str, count: int) -> str:
    return "\n\n".join(f"{word} paragraph {n}: nothing to see here." for n in range(count))


MANUAL = f"""# Using the manual

The first paragraph of the manual.

{filler("Intro", 40)}

## Deep section

The quokka lives here, far down the page.

{filler("Middle", 40)}

## Another heading

Text under another heading.

{filler("Tail", 40)}
"""

LINKS = """# Links

See [the site](https://example.com/x) for more.

Write to [the team](mailto:team@example.com).

Never [this](javascript:alert(1)).
"""


@pytest.fixture
def guide(world: World) -> dict[str, str]:
    """Space "Guide" at the organization's root: a long Manual and a page of Links."""
    r = world.client("alice").post(f"/orgs/{world.org}/spaces", json={"title": "Guide"})
    assert r.status_code in (200, 201), r.text
    space_id = r.json()["id"]
    merge_changes(world, space_id, [insert("Manual", MANUAL), insert("Links", LINKS)])
    manual, links = page_ids(world, space_id)
    return {"space": space_id, "Manual": manual, "Links": links}


async def test_search_then_open_a_section(world, guide, tmp_path, opened):
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await start(app, pilot)
        await pilot.press("s")
        search = await until_screen(pilot, SearchScreen)
        await pilot.press(*"quokka", "enter")
        results = search.query_one("#search-results", OptionList)
        await until(pilot, lambda: results.option_count > 0 and app.focused is results)
        prompts = [
            results.get_option_at_index(i).prompt.plain  # type: ignore[union-attr]
            for i in range(results.option_count)
        ]
        section = next(i for i, p in enumerate(prompts) if "Deep section" in p)
        assert "quokka" in prompts[section]
        while results.highlighted != section:
            await pilot.press("down")
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is browser)
        viewer = browser.viewer
        await until(pilot, lambda: browser.current_page == (guide["space"], guide["Manual"]))
        await until(pilot, lambda: "Deep section" in " ".join(top_lines(viewer)))
        assert viewer.scroll_y > 0
        assert not any("first paragraph" in line for line in viewer.visible_text())
        assert browser.header.title_text == "Manual"
        assert opened == []


async def test_outline_scrolls_to_the_heading(world, guide, tmp_path, opened):
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await start(app, pilot)
        await open_page(pilot, browser, guide["space"], guide["Manual"])
        viewer = browser.viewer
        assert viewer.scroll_y == 0
        assert "Using the manual" in " ".join(top_lines(viewer))
        await pilot.press("t")
        await until_screen(pilot, OutlineScreen)
        listing = app.screen.query_one("#outline-list", OptionList)
        titles = [
            listing.get_option_at_index(i).prompt.plain.strip()  # type: ignore[union-attr]
            for i in range(listing.option_count)
        ]
        assert titles == ["Using the manual", "Deep section", "Another heading"]
        await pilot.press(*"another", "enter")
        await until(pilot, lambda: app.screen is browser)
        await until(pilot, lambda: "Another heading" in " ".join(top_lines(viewer)))
        assert viewer.scroll_y > 0
        # and back to the top through the outline (it opens on the heading being read)
        await pilot.press("t")
        await until_screen(pilot, OutlineScreen)
        listing = app.screen.query_one("#outline-list", OptionList)
        assert listing.highlighted is not None and listing.highlighted > 0
        await pilot.press(*["up"] * listing.highlighted, "enter")
        await until(pilot, lambda: app.screen is browser)
        await until(pilot, lambda: viewer.scroll_y == 0)


async def test_help_lists_the_browser_bindings_with_ids(world, guide, tmp_path, opened):
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await start(app, pilot)
        await open_page(pilot, browser, guide["space"], guide["Manual"])
        # (enter gave the page the focus: escape is active too)
        assert browser.viewer.has_focus
        await pilot.press("question_mark")
        await until_screen(pilot, HelpScreen)
        await pilot.pause()
        help_lines = "\n".join(
            str(static.content) for static in app.screen.query(".help-table")
        ).splitlines()
        ids = [line.split()[-1] for line in help_lines if line.split()]
        for binding in BrowserScreen.BINDINGS:
            assert isinstance(binding, Binding)
            rows = [line for line, id_ in zip(help_lines, ids, strict=True) if id_ == binding.id]
            assert rows, (binding.id, help_lines)
            assert all(binding.description in row for row in rows), rows
        assert {"browser.back", "browser.open_link", "page_viewer.find", "app.quit"} <= set(ids)
        assert "alt+← " in next(line for line in help_lines if line.endswith("browser.back"))
        check_screen(app, "Key bindings", "page_viewer.leave")  # the focused page's first
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is browser)
        assert app.is_running
        assert browser.viewer.has_focus


async def test_external_links_open_only_on_o(world, guide, tmp_path, opened):
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await start(app, pilot)
        notes = notes_of(app)
        await pilot.press("o")  # nothing chosen yet
        assert opened == []
        assert notes[-1].startswith("No link to open")
        await open_page(pilot, browser, guide["space"], guide["Links"])
        viewer = browser.viewer
        assert viewer.has_focus  # enter in the tree gave the page the focus
        # the links the page offers: tab goes round them; javascript: is not one of them
        hrefs = []
        for _ in range(3):
            await pilot.press("tab")
            target = viewer.focused_target
            assert target is not None
            hrefs.append(target.target.href)
        assert hrefs == [
            "https://example.com/x",
            "mailto:team@example.com",
            "https://example.com/x",
        ]
        assert any("Never [this](javascript:alert(1))." in line for line in viewer.visible_text())
        # enter on the http link: offered, not opened
        await pilot.press("enter")
        await pilot.pause()
        assert notes[-1] == "press o to open https://example.com/x"
        assert browser.pending_url == "https://example.com/x"
        assert opened == []
        # another scheme is refused, and so is javascript: however it arrives
        await pilot.press("tab", "enter")
        await pilot.pause()
        assert notes[-1] == "Refused to open a mailto: link"
        browser.follow_link("javascript:alert(1)")
        await pilot.pause()
        assert notes[-1] == "Refused to open a javascript: link"
        assert browser.pending_url == "https://example.com/x"
        assert opened == []
        assert browser.current_page == (guide["space"], guide["Links"])
        # the explicit key opens the offered http link, once per press
        await pilot.press("o")
        assert opened == ["https://example.com/x"]
        assert notes[-1] == "Opened https://example.com/x"
        assert app.is_running
