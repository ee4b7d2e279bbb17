"""Back and forward return to the place the reader left: scroll position and chosen link."""

from __future__ import annotations

import pytest

from gitbook_tui.tui.browse.page_history import PageHistory
from gitbook_tui.tui.render.viewport import ReadingPosition
from support import tree_world
from support.tree_world import app_on, open_page
from support.waits import until

PARAGRAPHS = [f"Paragraph {n} of the long page." for n in range(120)]
PARAGRAPHS[60] = "Now read [the other page](other.md) and come back."
LONG = "# Long\n\n" + "\n\n".join(PARAGRAPHS)


@pytest.fixture
def pages(world, workspace):
    page = tree_world.page
    tree_world.add_pages(
        world, workspace["notes"], [page("Long", LONG), page("Other", "# Other\n\nHello.")]
    )
    return workspace


async def test_back_and_forward_restore_scroll_and_link(world, pages, tmp_path):
    app = app_on(world, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        browser = await open_page(pilot, app, pages["notes"], "Long")
        viewer = browser.viewer
        await pilot.press("ctrl+f", "ctrl+f", "ctrl+f", "ctrl+f", "ctrl+d")
        await pilot.press("tab")  # the link of paragraph 60
        target = viewer.focused_target
        assert target is not None and target.target.href == "other.md"
        top = viewer.viewport.top
        assert top > 50

        async def go(key: str, title: str) -> None:
            """Press ``key`` and wait for the page ``title``."""
            await pilot.press(key)
            await until(pilot, lambda: browser.header.title_text == title)

        def back_at_the_link() -> bool:
            return viewer.viewport is not None and viewer.viewport.top == top

        await go("enter", "Other")
        assert viewer.viewport.top == 0
        await go("backspace", "Long")
        await until(pilot, back_at_the_link)
        target = viewer.focused_target
        assert target is not None and target.target.href == "other.md"
        # forward and back again: each page where it was left
        await go("alt+right", "Other")
        assert viewer.viewport.top == 0
        await go("alt+left", "Long")
        await until(pilot, back_at_the_link)


def test_page_history_keeps_a_position_per_entry() -> None:
    history = PageHistory()
    history.visit(("s", "a"))
    history.remember(ReadingPosition(3, 1, (3, 0)))
    history.visit(("s", "b"))
    assert history.position is None
    history.remember(ReadingPosition(7, 0))
    assert history.back() == ("s", "a")
    assert history.position == ReadingPosition(3, 1, (3, 0))
    assert history.forward() == ("s", "b")
    assert history.position == ReadingPosition(7, 0)
    history.back()
    history.visit(("s", "c"))  # drops b and its position
    assert history.entries == [("s", "a"), ("s", "c")] and history.position is None
