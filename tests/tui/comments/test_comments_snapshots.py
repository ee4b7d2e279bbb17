"""Snapshots of the Comments view at 80×24 and 120×40: the list, one page's threads by an
author with none there, a thread with reactions,
the composer and the reaction picker; Browse with writes queued offline ("2 queued" in its
status bar); a change request's threads with a new thread quoting a diff block.

Regenerate after a deliberate change with ``python -m pytest
tests/tui/comments/test_comments_snapshots.py --snapshot-update`` and review the SVGs in
``tests/tui/comments/__snapshots__/test_comments_snapshots/`` before committing them. Ages are
computed against a frozen "now" (two days after the server's fixed clock).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from textual.pilot import Pilot

from gitbook_tui.api import AsyncGitBook
from gitbook_tui.tui.app import GitBookApp
from gitbook_tui.tui.browse.browser_screen import BrowserScreen
from gitbook_tui.tui.comments.comments_screen import CommentsScreen
from gitbook_tui.tui.comments.reaction_picker import ReactionPicker
from gitbook_tui.tui.common.config import TuiConfig
from gitbook_tui.tui.common.state import AccountState, StartTarget, StateStore, account_key
from gitbook_tui.tui.common.status_bar import StatusBar
from support.comments_world import (
    BASE,
    Transport,
    build_space,
    comments_at,
    make_app,
    open_comments,
    reply_offline,
)
from support.frozen_clock import freeze_clocks
from support.review_world import open_review
from support.snapshot_sizes import SIZES, Snap
from support.waits import settle, until, until_screen
from support.worlds import START

WALL_CLOCK = (START + timedelta(days=2)).timestamp()


@pytest.fixture(autouse=True)
def frozen(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(
        "gitbook_tui.tui.comments.thread_data.utc_now", lambda: START + timedelta(days=2)
    )
    freeze_clocks(monkeypatch, WALL_CLOCK)
    # no live refresh in the middle of a picture: on a slow machine it came while the
    # composer was open and marked its thread "✎ draft" (the text typed is saved)
    monkeypatch.setattr("gitbook_tui.tui.comments.thread_loader.REFRESH_SECONDS", 3600.0)
    yield


def _app(world: Any, tmp_path: Any) -> tuple[Any, dict[str, str]]:
    ids = build_space(world)
    app, _ = make_app(world, tmp_path, start=StartTarget(ids["space"], ids["Welcome"]))
    return app, ids


@pytest.mark.parametrize("size", SIZES)
def test_thread_list(snap_compare: Snap, world, tmp_path, size) -> None:
    app, _ids = _app(world, tmp_path)

    async def run_before(pilot: Pilot[Any]) -> None:
        await open_comments(pilot)
        await settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_page_scope_by_an_author_with_no_thread_there(
    snap_compare: Snap, world, tmp_path, size
) -> None:
    """The title names the page and the author; the empty list says whose threads."""
    app, _ids = _app(world, tmp_path)

    async def run_before(pilot: Pilot[Any]) -> None:
        screen = await open_comments(pilot, key="C")
        await pilot.press("F")
        await until(pilot, lambda: pilot.app.screen.__class__.__name__ == "AuthorPicker")
        await pilot.press("home", "j", "j", "enter")  # anyone, Alice, Cody
        await until(pilot, lambda: screen.state.author is not None and screen.loaded)
        await until(
            pilot, lambda: "Cody · 0 threads" in str(screen.query_one("#comments-title").render())
        )
        await settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


def _snap_first_thread(
    snap: Snap,
    world: Any,
    tmp_path: Any,
    size: tuple[int, int],
    keys: tuple[str, ...],
    ready: Callable[[Any], bool],
    typed: str = "",
) -> bool:
    """The snapshot of the Comments view on the first thread after ``keys``, once
    ``ready(screen)`` holds and ``typed`` is typed."""
    app, ids = _app(world, tmp_path)

    async def run_before(pilot: Pilot[Any]) -> None:
        screen = await comments_at(pilot, ids["first"])
        await pilot.press(*keys)
        await until(pilot, lambda: ready(screen))
        await pilot.press(*typed)
        await settle(pilot)

    return snap(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_thread_with_reactions(snap_compare: Snap, world, tmp_path, size) -> None:
    assert _snap_first_thread(
        snap_compare, world, tmp_path, size, ("enter",), lambda s: len(s.pane.posts) == 2
    )


@pytest.mark.parametrize("size", SIZES)
def test_composer(snap_compare: Snap, world, tmp_path, size) -> None:
    """The composer open under a thread, text typed. Slow: a snapshot of the Comments view built from
    its first request."""
    assert _snap_first_thread(
        snap_compare,
        world,
        tmp_path,
        size,
        ("enter", "c"),
        lambda s: s.composer.is_open,
        typed="Good point, **adding** it.",
    )


@pytest.mark.parametrize("size", SIZES)
def test_reaction_picker(snap_compare: Snap, world, tmp_path, size) -> None:
    app, ids = _app(world, tmp_path)

    async def run_before(pilot: Pilot[Any]) -> None:
        await comments_at(pilot, ids["first"])
        await settle(pilot)  # the panes sized to the rows before the picker covers them
        await pilot.press("colon")
        await until_screen(pilot, ReactionPicker)
        await settle(pilot, ignore=("comments-react",))  # (the action waits on the picker)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_queued_count_in_browse(snap_compare: Snap, world, tmp_path, size) -> None:
    """Two writes queued offline in Comments: Browse's status bar says "2 queued"."""
    ids = build_space(world)
    app, transport = make_app(world, tmp_path, start=StartTarget(ids["space"], ids["Welcome"]))

    async def run_before(pilot: Pilot[Any]) -> None:
        screen = await comments_at(pilot, ids["second"])
        transport.offline = True
        await pilot.press("x")
        await until(pilot, lambda: screen.queued == 1)
        await reply_offline(pilot, screen, transport, "Written on a train")
        await pilot.press("1")
        await until_screen(pilot, BrowserScreen)
        bar = pilot.app.screen.query_one(StatusBar)
        await until(pilot, lambda: bar.queue_text == "2 queued")
        pilot.app.clear_notifications()
        await settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_change_request_thread_quoting_a_block(
    snap_compare: Snap, world, desk, tmp_path, size
) -> None:
    """``c`` on a diff block of the review pane: the CR's threads, the quote in the composer."""
    # (the comments tests' transport: fixed rate-limit headers, whatever was requested)
    client = AsyncGitBook("tok-alice", base_url=BASE, transport=Transport(world.app))
    store = StateStore(tmp_path / "state.json")
    store.save(account_key(client), AccountState(org_id=world.org))
    app = GitBookApp(client, config=TuiConfig(), state_store=store)

    async def run_before(pilot: Pilot[Any]) -> None:
        review = await open_review(app, pilot, "Update partition sizing")
        await until(pilot, lambda: review.diff.current is not None)
        await pilot.press("c")
        screen = await until_screen(pilot, CommentsScreen)
        await until(pilot, lambda: screen.composer.is_open, timeout=20)
        await pilot.press(*"Why not 100?")
        await settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run_before)
