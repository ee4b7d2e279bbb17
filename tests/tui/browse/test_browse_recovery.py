"""Browse after QA pass 2: failed branches reload once the server answers again, ``r``
retries every failed branch, tree load errors name the server (the banner cut with "…"),
and a space selected in the tree is the open space for ``3`` (Comments) and ``2``."""

from __future__ import annotations

from typing import Any

import pytest

from gitbook_tui.tui.browse.browser_screen import BrowserScreen
from gitbook_tui.tui.common.error_banner import MAX_ROWS
from gitbook_tui.tui.common.theme_style import theme_style
from support.tree_world import Transport, make_app, make_client, move_to, tree_of, visible_labels
from support.waits import settle, until, until_screen

FAILED = "⚠ could not load — r to retry"


def spy_notes(app: Any) -> list[str]:
    notes: list[str] = []
    original = app.notify

    def spy(message: Any, **kw: Any) -> None:
        notes.append(str(message))
        original(message, **kw)

    app.notify = spy
    return notes


async def fail_two_branches(pilot: Any, app: Any, transport: Transport) -> Any:
    """Go offline and expand Product (a collection) and Notes (a space): both fail."""
    await until(pilot, lambda: isinstance(app.screen, BrowserScreen) and app.screen.is_mounted)
    tree = tree_of(app)
    await until(pilot, lambda: "▤ Product" in visible_labels(tree))
    transport.offline = True
    tree.focus()
    await move_to(pilot, tree, "Notes")
    await pilot.press("l")
    await until(pilot, lambda: visible_labels(tree).count(FAILED) == 1)
    return tree


async def expand_product(pilot: Any, tree: Any) -> None:
    for _ in range(40):
        if str(tree.cursor_node.label).endswith("Product"):
            break
        await pilot.press("k")
    await pilot.press("l")
    await until(pilot, lambda: visible_labels(tree).count(FAILED) == 2)


async def test_failed_branches_reload_when_the_server_answers_again(world, workspace, tmp_path):
    transport = Transport(world.app)
    app = make_app(make_client(transport), tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        tree = await fail_two_branches(pilot, app, transport)
        await expand_product(pilot, tree)
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
    transport = Transport(world.app)
    app = make_app(make_client(transport), tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        tree = await fail_two_branches(pilot, app, transport)
        sent = len(transport.requests)
        await settle(pilot)
        assert len(transport.requests) == sent  # no polling
        assert visible_labels(tree).count(FAILED) == 1


async def test_r_retries_every_failed_branch_and_says_how_many(world, workspace, tmp_path):
    transport = Transport(world.app)
    app = make_app(make_client(transport), tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        notes = spy_notes(app)
        tree = await fail_two_branches(pilot, app, transport)
        await expand_product(pilot, tree)
        transport.offline = False
        await pilot.press("r")  # on Product: Notes is retried too
        await until(pilot, lambda: FAILED not in visible_labels(tree))
        await until(pilot, lambda: "▤ Guides" in visible_labels(tree))
        assert "Retrying 2 branches…" in notes
        assert not tree.state.failures


async def test_tree_error_names_the_server_and_the_banner_cuts_with_ellipsis(
    world, workspace, tmp_path
):
    transport = Transport(world.app)
    app = make_app(make_client(transport), tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        notes = spy_notes(app)
        tree = await fail_two_branches(pilot, app, transport)
        await expand_product(pilot, tree)
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

    app = make_app(make_client(Transport(world.app)), tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, BrowserScreen) and app.screen.is_mounted)
        browser = app.screen
        tree = tree_of(app)
        await until(pilot, lambda: "▤ Product" in visible_labels(tree))
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

    app = make_app(make_client(Transport(world.app)), tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, BrowserScreen) and app.screen.is_mounted)
        browser = app.screen
        tree = tree_of(app)
        assert await tree.reveal(await app.client.spaces.get(workspace["handbook"]))
        tree.focus()
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
        await until(pilot, lambda: isinstance(app.screen, CommentsScreen))
        assert app.screen.space_id == workspace["handbook"]
        assert app.screen.page_scope == browser.current_page[1]


async def test_could_not_load_lines_take_the_new_theme_colour(world, workspace, tmp_path):
    """The "could not load" line holds the theme's error colour: a theme switch redraws it."""
    transport = Transport(world.app)
    app = make_app(make_client(transport), tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        tree = await fail_two_branches(pilot, app, transport)

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
