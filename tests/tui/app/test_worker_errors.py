"""Every worker's unexpected exception — not only the client's errors — becomes a visible
error in its pane with ``r`` to retry: the page, the tree, the organizations (issue #8,
item 10). Faults are injected through the transport (an exception that is no ``httpx``
error escapes the client as is) and by monkeypatching."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gitbook_tui.tui.browse.page_loader import PageLoader
from gitbook_tui.tui.browse.tree.workspace_tree import space_key
from support.fault_runs import browsing
from support.faults import FaultTransport, seed_space, visible_labels
from support.waits import until
from support.worlds import World

ERROR_LINE = "⚠ could not load — r to retry"


@pytest.fixture
def manual(world: World) -> dict[str, str]:
    return seed_space(world)


async def test_a_page_loader_bug_shows_in_the_page_pane_and_r_retries(
    world: World, manual: dict[str, str], tmp_path: Path
) -> None:
    async with browsing(world, tmp_path) as (_, pilot, browser, transport, notes):
        transport.raise_on = "/content/page/"
        browser.open_page(manual["space"], manual["Home"])
        await until(pilot, lambda: browser.page_error)
        banner = browser.page_banner
        assert "Could not open the page: unexpected error (InjectedBug" in banner.message
        assert banner.server == "http://testserver/v1" and banner.can_retry
        assert any("InjectedBug" in n for n in notes)
        assert browser.page is None
        transport.heal()
        browser.viewer.focus()
        await pilot.press("r")
        await until(pilot, lambda: browser.page is not None and browser.page.title == "Home")
        assert not browser.page_error
        assert browser.header.title_text == "Home"


async def test_a_bug_after_the_read_is_shown_too(
    world: World, manual: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = PageLoader.load
    broken = {"on": True}

    async def load(self: PageLoader, *args: Any, **kwargs: Any) -> Any:
        if broken["on"]:
            raise KeyError("markdown")
        return await original(self, *args, **kwargs)

    monkeypatch.setattr(PageLoader, "load", load)
    async with browsing(world, tmp_path) as (_, pilot, browser, _, _):
        browser.open_page(manual["space"], manual["Guide"])
        await until(pilot, lambda: browser.page_error)
        assert "KeyError" in browser.page_banner.message
        broken["on"] = False
        browser.viewer.focus()
        await pilot.press("r")
        await until(pilot, lambda: browser.header.title_text == "Guide")


async def test_a_tree_loader_bug_shows_on_its_node_and_r_retries(
    world: World, manual: dict[str, str], tmp_path: Path
) -> None:
    async with browsing(world, tmp_path) as (_, pilot, browser, transport, notes):
        tree = browser.workspace_tree
        await until(pilot, lambda: "□ Manual" in visible_labels(tree))
        transport.raise_on = "/content/pages"
        assert tree.select_key(space_key(manual["space"]), expand=False)
        await pilot.press("enter")  # expands the space
        await until(pilot, lambda: ERROR_LINE in visible_labels(tree))
        # (names the server, as every view's load error does)
        assert any(
            n.startswith("Could not load Manual from http") and "unexpected error (InjectedBug" in n
            for n in notes
        )
        transport.heal()
        await pilot.press("r")
        await until(pilot, lambda: "Home" in " ".join(visible_labels(tree)))
        assert ERROR_LINE not in visible_labels(tree)


async def test_an_org_loader_bug_still_opens_the_browser_with_the_error(
    world: World, manual: dict[str, str], tmp_path: Path
) -> None:
    transport = FaultTransport(world.app)
    transport.raise_on = "/orgs"
    async with browsing(world, tmp_path, transport) as (_, pilot, browser, _, notes):
        tree = browser.workspace_tree
        await until(pilot, lambda: ERROR_LINE in visible_labels(tree))
        assert any("Could not list organizations: unexpected error" in n for n in notes)
        transport.heal()
        tree.focus()
        tree.cursor_line = 0
        await pilot.press("r")
        await until(pilot, lambda: "Acme Docs" in visible_labels(tree))
