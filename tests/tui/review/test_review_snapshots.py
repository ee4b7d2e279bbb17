"""Snapshots of the review desk at 80×24 and 120×40: inbox, review pane (inline and split),
merge checklist, conflict panel, review message, the reviews in full and the picker of where a suggested edit goes.

Deterministic like ``browse/test_browse_snapshots.py``: the fixed-clock in-process server, the inbox's
"updated" ages computed against a pinned now, the status bar and cache clocks frozen, no
cursor blink, data dirs in ``tmp_path``. Regenerate with ``--snapshot-update`` and review
the SVGs in ``__snapshots__/test_review_snapshots/`` before committing them.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from textual.pilot import Pilot

from gitbook_tui.tui.common.composer import Composer
from gitbook_tui.tui.common.confirm_screen import ConfirmScreen
from gitbook_tui.tui.render.diff_view import DiffView
from gitbook_tui.tui.review.conflict_panel import ConflictPanel
from gitbook_tui.tui.review.edit_target_screen import EditTargetScreen
from gitbook_tui.tui.review.merge_checklist_screen import MergeChecklistScreen
from gitbook_tui.tui.review.review_message_screen import ReviewMessageScreen
from gitbook_tui.tui.review.reviews_screen import ReviewsScreen
from support.frozen_clock import freeze_clocks
from support.review_world import (
    LONG,
    SECOND,
    make_app,
    open_inbox,
    open_page,
    open_review,
    press_edit,
    review,
    review_dialog,
)
from support.snapshot_sizes import AN_HOUR_IN, SIZES, Snap
from support.waits import settle, until, until_screen
from support.worlds import START


@pytest.fixture(autouse=True)
def frozen(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    freeze_clocks(monkeypatch, AN_HOUR_IN)
    monkeypatch.setattr("gitbook_tui.tui.review.inbox_data.now", lambda: START + timedelta(hours=2))
    yield


# An action's worker waits on its dialog: the snapshots are taken with it open.
REVIEW_ACTIONS = ("cr-action", "suggest-edit")


@pytest.mark.parametrize("size", SIZES)
def test_inbox(snap_compare: Snap, world, desk, tmp_path, size) -> None:
    """All open change requests of the organization, the first selected."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await open_inbox(pilot.app, pilot)
        await pilot.press("l", "l", "l", "l")
        await settle(pilot, ignore=REVIEW_ACTIONS)

    assert snap_compare(make_app(world, tmp_path), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("mode", ["inline", "split"])
def test_review_pane(snap_compare: Snap, world, desk, tmp_path, size, mode) -> None:
    """#2 with its changed page, the diff in ``mode`` (``|`` toggles from the default)."""

    async def run_before(pilot: Pilot[Any]) -> None:
        review = await open_review(pilot.app, pilot, "Update partition sizing")
        diff = review.query_one(DiffView)
        if diff.effective_mode != mode:
            await pilot.press("|")
        assert diff.effective_mode == mode
        await settle(pilot, ignore=REVIEW_ACTIONS)

    assert snap_compare(make_app(world, tmp_path), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_merge_dialog(snap_compare: Snap, world, desk, tmp_path, size) -> None:
    """The merge checklist of the conflicting, outdated, unapproved #3."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await review_dialog(pilot, "Conflicting edit", "m", MergeChecklistScreen)
        await settle(pilot, ignore=REVIEW_ACTIONS)

    assert snap_compare(make_app(world, tmp_path), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_conflict_panel(snap_compare: Snap, world, desk, tmp_path, size) -> None:
    """Updating #3 from main answers 409: the panel names the page, both edits side by side."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await review_dialog(pilot, "Conflicting edit", "u", ConfirmScreen)
        await pilot.press("enter")
        await until_screen(pilot, ConflictPanel)
        panel = pilot.app.screen
        await until(pilot, lambda: all(v.diff is not None for v in panel.query(DiffView)))
        await settle(pilot, ignore=REVIEW_ACTIONS)

    assert snap_compare(make_app(world, tmp_path), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_edit_target_picker(snap_compare: Snap, world, desk, tmp_path, size) -> None:
    """``e`` on a page by eve, who has two change requests open in the space: new or which."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await open_page(pilot.app, pilot, desk["space"]["id"], desk["page"])
        await press_edit(pilot)
        await until_screen(pilot, EditTargetScreen)
        await settle(pilot, ignore=REVIEW_ACTIONS)
        browser = pilot.app.browser
        browser.status.track_rate_limit(pilot.app.client.rate_limit)
        await pilot.pause()

    assert snap_compare(
        make_app(world, tmp_path, "eve", pin_rate=True), terminal_size=size, run_before=run_before
    )


@pytest.mark.parametrize("size", SIZES)
def test_review_message(snap_compare: Snap, world, desk, tmp_path, size) -> None:
    """``v`` by rita: the shared composer in the review dialog, with a message typed."""

    async def run_before(pilot: Pilot[Any]) -> None:
        dialog = await review_dialog(pilot, "Update partition sizing", "v", ReviewMessageScreen)
        composer = dialog.query_one(Composer)
        await until(pilot, lambda: composer.is_open and composer.area.has_focus)
        await pilot.press(*"Sizing reads well.")
        await settle(pilot, ignore=REVIEW_ACTIONS)

    assert snap_compare(
        make_app(world, tmp_path, "rita"), terminal_size=size, run_before=run_before
    )


def _reviewed(world, desk) -> None:
    review(world, desk, "rita", "changes-requested", LONG + "\n\n" + SECOND)
    review(world, desk, "alice", "approved", "Fine by me.")


@pytest.mark.parametrize("size", SIZES)
def test_review_pane_with_reviews(snap_compare: Snap, world, desk, tmp_path, size) -> None:
    """#2 with two reviews: one row each, the long message cut with "…" to the width."""
    _reviewed(world, desk)

    async def run_before(pilot: Pilot[Any]) -> None:
        review_screen = await open_review(pilot.app, pilot, "Update partition sizing")
        await until(pilot, lambda: review_screen.query_one("#cr-reviews").display)
        await settle(pilot, ignore=REVIEW_ACTIONS)

    assert snap_compare(make_app(world, tmp_path), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_reviews_in_full(snap_compare: Snap, world, desk, tmp_path, size) -> None:
    """``i``: every review with its verdict, age and whole message."""
    _reviewed(world, desk)

    async def run_before(pilot: Pilot[Any]) -> None:
        await open_review(pilot.app, pilot, "Update partition sizing")
        await pilot.press("i")
        await until_screen(pilot, ReviewsScreen)
        await settle(pilot, ignore=REVIEW_ACTIONS)

    assert snap_compare(make_app(world, tmp_path), terminal_size=size, run_before=run_before)
