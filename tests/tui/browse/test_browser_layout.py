"""The browser's layout on small and tall terminals: the compact page header, the tree
without a horizontal scrollbar, the footer's hints per focused widget; and the helpers
split out of the screen (page history, description clamping)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest
from textual.content import Content
from textual.widgets._footer import FooterKey

from gitbook_tui.api import AsyncGitBook
from gitbook_tui.tui.app import GitBookApp
from gitbook_tui.tui.browse.browser_screen import BrowserScreen
from gitbook_tui.tui.browse.page_header import clamp_lines
from gitbook_tui.tui.browse.page_history import PageHistory
from gitbook_tui.tui.common.config import TuiConfig
from gitbook_tui.tui.common.hint_footer import HintFooter
from gitbook_tui.tui.common.state import StartTarget, StateStore
from support.waits import footers_current, resize, until, until_screen

BASE = "http://testserver/v1"
DESCRIPTION = (
    "A long description of the page that goes on and on, well past the width of the page "
    "pane, so that it has to wrap over several lines on a wide terminal and be cut short "
    "with an ellipsis on a small one; nobody reads this far, but the header must cope."
)
BODY = "\n\n".join(f"Paragraph {n} with [a link](https://example.com/{n})." for n in range(40))


async def _no_sleep(_: float) -> None:
    await asyncio.sleep(0)


@pytest.fixture
def space(world: Any) -> dict[str, str]:
    """Space "Handbook" (with a very long-titled page for the tree) holding "Long read",
    a page with an emoji, a long description and many lines."""
    a = world.client("alice")
    space = a.post(f"/orgs/{world.org}/spaces", json={"title": "Handbook"}).json()
    cr = a.post(f"/spaces/{space['id']}/change-requests", json={"subject": "pages"}).json()
    changes = [
        {
            "operation": "insert_page",
            "title": "Long read",
            "emoji": "📘",
            "description": DESCRIPTION,
            "document": {"markdown": BODY},
        },
        {
            "operation": "insert_page",
            "title": "A page whose title is far too long to fit in the sidebar at all",
            "document": {"markdown": "Short.\n"},
        },
    ]
    path = f"/spaces/{space['id']}/change-requests/{cr['id']}"
    assert a.post(f"{path}/content", json={"changes": changes}).status_code == 200
    assert a.post(f"{path}/merge").status_code == 200
    pages = a.get(f"/spaces/{space['id']}/content/pages").json()["pages"]
    return {"space": space["id"], **{p["title"]: p["id"] for p in pages}}


def make_app(world: Any, tmp_path: Path, space: dict[str, str]) -> GitBookApp:
    transport = httpx.ASGITransport(app=world.app)
    client = AsyncGitBook(
        "tok-eve", base_url=BASE, transport=transport, max_retries=0, sleep=_no_sleep
    )
    return GitBookApp(
        client,
        config=TuiConfig(),
        state_store=StateStore(tmp_path / "state.json"),
        start=StartTarget(space["space"], space["Long read"]),
    )


async def opened(pilot: Any) -> BrowserScreen:
    browser = await until_screen(pilot, BrowserScreen)
    await until(pilot, lambda: browser.header.title_text == "Long read")
    await until(pilot, lambda: browser.viewer.document is not None)
    await pilot.pause()
    return browser


def footer_keys(browser: BrowserScreen) -> list[FooterKey]:
    return list(browser.query_one(HintFooter).query(FooterKey))


def hints(browser: BrowserScreen) -> list[str]:
    return [f"{key.key_display} {key.description}" for key in footer_keys(browser)]


# -- the page header ------------------------------------------------------------------------
async def test_compact_header_leaves_17_rows_of_page_at_80x24(world, space, tmp_path):
    app = make_app(world, tmp_path, space)
    async with app.run_test(size=(80, 24)) as pilot:
        browser = await opened(pilot)
        header = browser.header
        # breadcrumb, title + date, one line of description, the rule
        assert header.outer_size.height == 4
        assert browser.viewer.size.height >= 17
        lines = header.description.lines(header.description.content_size.width)
        assert len(lines) == 1 and lines[0].plain.endswith("…")
        assert header.updated_text.startswith("updated ") or header.updated_text[:2] == "20"
        title = header.query_one("#page-title")
        assert title.region.right <= header.query_one("#page-updated").region.x
        assert str(title.render()).startswith("📘 Long read")


async def test_tall_terminal_gives_the_description_three_lines(world, space, tmp_path):
    app = make_app(world, tmp_path, space)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await opened(pilot)
        assert browser.has_class("-tall")
        description = browser.header.description
        assert description.size.height == 3
        lines = description.lines(description.content_size.width)
        assert len(lines) == 3 and lines[-1].plain.endswith("…")
        assert browser.header.updated_text.startswith("updated 20")
        await resize(pilot, 80, 24)
        assert not browser.has_class("-tall")
        assert description.size.height == 1


async def test_updated_date_shortens_before_the_title_does(world, space, tmp_path):
    app = make_app(world, tmp_path, space)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await opened(pilot)
        browser.focus_page()  # (below 60 columns only the focused pane shows)
        await until(pilot, lambda: browser.viewer.has_focus)
        header = browser.header
        wide = header.updated_text
        assert wide.startswith("updated ") and len(wide) == len("updated 2026-01-01 00:00")
        await pilot.resize_terminal(33, 24)  # 30 columns inside the page header (one pane)
        await until(pilot, lambda: header.updated_text != wide)
        assert header.updated_text == wide[len("updated ") :][:10]  # the date alone
        await pilot.resize_terminal(17, 24)  # 14 columns: no room for a date
        await until(pilot, lambda: header.updated_text == "")
        title = header.query_one("#page-title")
        assert str(title.render()).startswith("📘 Long read")


def test_clamp_lines() -> None:
    text = Content("one two three four five six seven")
    assert [line.plain for line in clamp_lines(text, 40, 1)] == [text.plain]
    lines = clamp_lines(text, 10, 2)
    assert len(lines) == 2 and lines[-1].plain.endswith("…")
    assert all(len(line.plain) <= 10 for line in lines)
    assert clamp_lines(Content(""), 10, 2) == []
    assert clamp_lines(text, 0, 2) == []


# -- the tree -------------------------------------------------------------------------------
async def test_tree_has_no_horizontal_scrollbar(world, space, tmp_path):
    app = make_app(world, tmp_path, space)
    async with app.run_test(size=(80, 24)) as pilot:
        browser = await opened(pilot)
        tree = browser.workspace_tree
        await until(pilot, lambda: tree.virtual_size.width > tree.size.width)
        assert not tree.show_horizontal_scrollbar
        assert tree.scrollbar_size_horizontal == 0 or not tree.show_horizontal_scrollbar
        assert tree.outer_size.height == browser.query_one("#browser-body").size.height


# -- the footer -----------------------------------------------------------------------------
@pytest.mark.parametrize("width", [80, 120])
async def test_footer_hints_per_focused_widget(world, space, tmp_path, width):
    app = make_app(world, tmp_path, space)
    async with app.run_test(size=(width, 24)) as pilot:
        browser = await opened(pilot)
        browser.workspace_tree.focus()
        await pilot.pause()
        await pilot.pause()
        shown = hints(browser)
        for hint in ("⏎ Open", "/ Filter", "s Search", "? Help", "^p palette"):
            assert hint in shown, (hint, shown)
        assert shown[-2:] == ["? Help", "^p palette"]
        # everything fits: no key is cut at the right edge or hidden under the palette key
        keys = footer_keys(browser)
        palette = keys[-1]
        assert all(key.region.right <= palette.region.x for key in keys[:-1])
        assert palette.region.right <= width

        await pilot.press("f6")
        await until(pilot, lambda: browser.viewer.has_focus)
        await pilot.pause()
        await pilot.pause()
        shown = hints(browser)
        for hint in ("tab Next link", "/ Find", "t Outline", "? Help", "^p palette"):
            assert hint in shown, (hint, shown)
        assert "/ Filter" not in shown and "esc Close find" not in shown
        if width >= 120:
            assert len(shown) > 6  # room for more hints

        await pilot.press("slash")  # the find bar
        # the footer follows each binding refresh of the find bar's opening: its last one
        await until(pilot, lambda: "esc Close find" in hints(browser) and footers_current(app))
        assert hints(browser)[-2:] == ["f1 Help", "^p palette"]


async def test_footer_in_the_filter_box_and_on_resize(world, space, tmp_path):
    """The footer follows the filter box's focus and is refitted on a resize. Slow: the footer is
    composed anew at each of three sizes."""
    app = make_app(world, tmp_path, space)
    async with app.run_test(size=(120, 24)) as pilot:
        browser = await opened(pilot)
        browser.workspace_tree.focus()
        await pilot.pause()
        await pilot.pause()
        wide = hints(browser)
        await pilot.resize_terminal(80, 24)
        # the footer is composed anew on a resize: wait for the new one, not an empty one
        await until(
            pilot,
            lambda: (
                0 < len(hints(browser)) < len(wide)
                and hints(browser)[-2:] == ["? Help", "^p palette"]
            ),
        )
        await pilot.press("slash")
        await until(pilot, lambda: browser.query_one("#tree-filter").has_focus)
        await pilot.pause()
        await pilot.pause()
        shown = hints(browser)
        # ? is typed into the box: help is on f1 there
        assert "esc Clear filter" in shown and "f1 Help" in shown, shown
        await pilot.press("f1")
        await pilot.pause()
        assert type(app.screen).__name__ == "HelpScreen"


# -- history --------------------------------------------------------------------------------
def test_page_history() -> None:
    history = PageHistory()
    assert history.back() is None and history.forward() is None and history.current is None
    for page in ("a", "b", "c"):
        history.visit(("s", page))
    history.visit(("s", "c"))  # the current page again: no new entry
    assert history.entries == [("s", "a"), ("s", "b"), ("s", "c")] and history.index == 2
    assert history.back() == ("s", "b")
    assert history.back() == ("s", "a")
    assert history.back() is None
    assert history.forward() == ("s", "b")
    history.visit(("s", "d"))  # drops what came after b
    assert history.entries == [("s", "a"), ("s", "b"), ("s", "d")]
    assert history.forward() is None and history.current == ("s", "d")
