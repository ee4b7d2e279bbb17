"""Browse after QA pass 2: failed branches reload once the server answers again, ``r``
retries every failed branch, tree load errors name the server (the banner cut with "…"),
and a space selected in the tree is the open space for ``3`` (Comments) and ``2``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from gitbook_tui.tui.app import GitBookApp
from gitbook_tui.tui.browse.tree.workspace_tree import WorkspaceTree
from gitbook_tui.tui.common.error_banner import MAX_ROWS
from gitbook_tui.tui.common.theme_style import theme_style
from support.notes import notes_of
from support.tree_world import (
    Transport,
    app_and_transport,
    app_on,
    expand,
    move_to,
    reveal_space,
    tree_showing,
    until_browser,
    visible_labels,
)
from support.waits import settle, until, until_screen

FAILED = "⚠ could not load — r to retry"


class Offline(NamedTuple):
    """The running app whose server went away, and what a test looks at."""

    pilot: Any
    app: GitBookApp
    transport: Transport
    tree: WorkspaceTree
    notes: list[str]


@asynccontextmanager
async def failed_branches(
    world: Any, tmp_path: Path, *, both: bool, size: tuple[int, int] = (120, 40)
) -> AsyncIterator[Offline]:
    """Run the app, go offline and expand Notes (a space) — and with ``both`` then Product
    (a collection) — so that each expanded branch fails to load."""
    app, transport = app_and_transport(world, tmp_path)
    async with app.run_test(size=size) as pilot:
        notes = notes_of(app)
        tree = await tree_showing(pilot, app, "▤ Product")
        transport.offline = True
        tree.focus()
        await expand(pilot, tree, "Notes")
        await until(pilot, lambda: visible_labels(tree).count(FAILED) == 1)
        if both:
            for _ in range(40):
                if str(tree.cursor_node.label).endswith("Product"):
                    break
                await pilot.press("k")
            await pilot.press("l")
            await until(pilot, lambda: visible_labels(tree).count(FAILED) == 2)
        yield Offline(pilot, app, transport, tree, notes)


async def test_failed_branches_reload_when_the_server_answers_again(world, workspace, tmp_path):
    async with failed_branches(world, tmp_path, both=True) as (pilot, app, transport, tree, _):
        assert len(tree.state.failures) == 2
        transport.offline = False
        # any answer (here one a view would send) says the server is back: no key pressed
        await app.client.spaces.get(workspace["notes"])
        # the failure lines go first; the branches' children arrive with their own answers
        await until(pilot, lambda: FAILED not in visible_labels(tree))
        await until(pilot, lambda: "▤ Guides" in visible_labels(tree))
        assert not tree.state.failures
        await until(pilot, lambda: not app.screen.sidebar.banner.showing)  # (on the next answer)


async def test_no_reload_while_the_server_is_still_unreachable(world, workspace, tmp_path):
    async with failed_branches(world, tmp_path, both=False) as (pilot, _, transport, tree, _):
        sent = len(transport.requests)
        await settle(pilot)
        assert len(transport.requests) == sent  # no polling
        assert visible_labels(tree).count(FAILED) == 1


async def test_r_retries_every_failed_branch_and_says_how_many(world, workspace, tmp_path):
    async with failed_branches(world, tmp_path, both=True) as (pilot, _, transport, tree, notes):
        transport.offline = False
        await pilot.press("r")  # on Product: Notes is retried too
        await until(pilot, lambda: FAILED not in visible_labels(tree))
        await until(pilot, lambda: "▤ Guides" in visible_labels(tree))
        assert "Retrying 2 branches…" in notes
        assert not tree.state.failures


async def test_tree_error_names_the_server_and_the_banner_cuts_with_ellipsis(
    world, workspace, tmp_path
):
    offline = failed_branches(world, tmp_path, both=True, size=(80, 24))
    async with offline as (pilot, app, _, _, notes):
        banner = app.screen.sidebar.banner
        await until(pilot, lambda: banner.showing)
        assert "Could not load Product from http://testserver/v1: " in banner.message
        assert any(
            n.startswith("Could not load Product from http://testserver/v1: ") for n in notes
        )
        await until(pilot, lambda: banner.size.width > 0)
        rows = str(banner.render()).split("\n")
        width = banner.content_region.width
        assert len(rows) <= MAX_ROWS
        assert all(len(row) <= width for row in rows)
        assert rows[-1].strip() == "r retry  ·  x dismiss"  # the server is in the message
        assert rows[-2].endswith("…")  # the message did not fit: cut, and says so
        assert rows[0].startswith("⚠ Could not load Product")


async def test_3_with_a_space_selected_shows_its_comments(world, workspace, tmp_path):
    from gitbook_tui.tui.comments.comments_screen import CommentsScreen

    app = app_on(world, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        browser = await until_browser(pilot, app)
        tree = await tree_showing(pilot, app, "▤ Product")
        tree.focus()
        await move_to(pilot, tree, "Notes")
        await pilot.press("enter")  # expands it; no page opened
        assert browser.current_page is None
        assert app.space_id == workspace["notes"]
        await pilot.press("3")
        screen = await until_screen(pilot, CommentsScreen)
        assert screen.space_id == workspace["notes"]
        await until(pilot, lambda: screen.loaded)
        assert "No space open" not in screen._empty_text()
        await pilot.press("1")
        await until(pilot, lambda: app.screen is browser)
        tree.focus()
        await pilot.press("k")  # onto the organization's last collection: in no space
        await until(pilot, lambda: app.space_id is None)


@pytest.mark.parametrize("how", ["key", "palette"])
async def test_C_shows_the_open_pages_threads_whatever_row_the_tree_is_on(
    world, workspace, tmp_path, how
):
    """``C`` and the palette's "Comments on this page" (the same ``show_view`` call)."""
    from gitbook_tui.tui.comments.comments_screen import CommentsScreen

    app = app_on(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await reveal_space(pilot, app, workspace["handbook"])
        tree = browser.workspace_tree
        await move_to(pilot, tree, "Intro")
        await pilot.press("enter")
        await until(pilot, lambda: browser.header.title_text == "Intro")
        assert app.space_id == workspace["handbook"]
        browser.focus_tree()
        await move_to(pilot, tree, "Notes")
        await until(pilot, lambda: app.space_id == workspace["notes"])  # the row's space
        if how == "key":
            await pilot.press("C")  # the open page's threads: the page's space
        else:
            await app.run_action("show_view('comments', 'page')")
        await until_screen(pilot, CommentsScreen)
        assert app.screen.space_id == workspace["handbook"]
        assert app.screen.page_scope == browser.current_page[1]


async def test_could_not_load_lines_take_the_new_theme_colour(world, workspace, tmp_path):
    """The "could not load" line holds the theme's error colour: a theme switch redraws it."""
    async with failed_branches(world, tmp_path, both=False) as (pilot, app, _, tree, _):

        def error_style() -> str:
            nodes = [tree.root]
            while nodes:
                node = nodes.pop()
                nodes.extend(node.children)
                if node.data is not None and node.data.status == "error":
                    return str(node.label.spans[-1].style)
            raise AssertionError("no error line")

        seen = [theme_style(app.theme_variables, "$text-error")]
        assert error_style() == seen[0]
        for name in ("nord", "solarized-light"):
            app.theme = name
            # the theme's variables are in place a refresh later
            await until(pilot, lambda: theme_style(app.theme_variables, "$text-error") != seen[-1])
            seen.append(theme_style(app.theme_variables, "$text-error"))
            await until(pilot, lambda: error_style() == seen[-1])
