"""Snapshots of the History view at 80×24 and 120×40: the log (with a revision marked), a
revision's diff and a page's blame. Deterministic like ``review/test_review_snapshots.py``: the fixed-clock
in-process server, the status bar and cache clocks frozen, no cursor blink. Regenerate with
``--snapshot-update`` and look at the SVGs in ``__snapshots__/test_history_snapshots/``
before committing them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from gitbook_tui.tui.history.blame_screen import BlameScreen
from gitbook_tui.tui.history.revision_screen import RevisionScreen
from support.frozen_clock import freeze_clocks
from support.history_world import direct_edit, merge, settled_history
from support.review_world import make_app
from support.snapshot_sizes import AN_HOUR_IN, SIZES, Snap
from support.waits import settle, until, until_screen
from support.worlds import World


@pytest.fixture(autouse=True)
def frozen(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    freeze_clocks(monkeypatch, AN_HOUR_IN)
    yield


def snap_history(
    snap_compare: Snap,
    world: World,
    tmp_path: Path,
    size: Any,
    story: dict,
    then: Callable[[Pilot[Any]], Awaitable[None]],
    page_id: str | None = None,
) -> bool:
    """Run the app on the story space's History view (``page_id``'s log), settled; do
    ``then`` there and compare the settled screen with the test's snapshot."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await settled_history(pilot.app, pilot, story["space"], page_id)
        await then(pilot)
        await settle(pilot)

    app = make_app(world, tmp_path, pin_rate=True)
    return snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_log(snap_compare: Snap, world, story, tmp_path, size) -> None:
    """The space's log, newest first, the second revision marked to compare."""

    async def mark_the_second(pilot: Pilot[Any]) -> None:
        await pilot.press("j", "space", "k")

    assert snap_history(snap_compare, world, tmp_path, size, story, mark_the_second)


@pytest.mark.parametrize("size", SIZES)
def test_revision_diff(snap_compare: Snap, world, story, tmp_path, size) -> None:
    """The newest direct edit: its one changed page and the diff against its parent."""

    async def open_the_newest_edit(pilot: Pilot[Any]) -> None:
        await pilot.press("j", "enter")
        screen = await until_screen(pilot, RevisionScreen)
        await until(pilot, lambda: screen.change is not None, timeout=20)

    assert snap_history(snap_compare, world, tmp_path, size, story, open_the_newest_edit)


SETUP_V1 = (
    "Install it with brew.\n\n## Configure\n\nSet the broker URL in `tide.toml`.\n\n"
    "```sh\ntide init\n```\n\n## Run\n\nStart the broker, then the consumers.\n"
)
SETUP_V2 = SETUP_V1.replace("Set the broker URL", "Set the broker URL and the region").replace(
    "tide init\n", "tide init\ntide up --region eu\n"
)


def _blamed_setup(world: Any, story: dict) -> None:
    """Setup grows blocks over three more revisions: a direct edit, a merge, a direct edit."""
    space, page = story["space"], story["pages"]["Setup"]
    direct_edit(world, space, page, SETUP_V1)
    update = {"operation": "update_page", "page": page, "document": {"markdown": SETUP_V2}}
    merge(world, {"id": space}, "alice", "Regions", [update])
    direct_edit(world, space, page, SETUP_V2 + "\nStop it with `tide down`.\n")


@pytest.mark.parametrize("size", SIZES)
def test_blame(snap_compare: Snap, world, story, tmp_path, size) -> None:
    """Setup's blame, every block dated: the cursor on the block the merge changed."""
    _blamed_setup(world, story)

    async def blame_to_the_merged_block(pilot: Pilot[Any]) -> None:
        await pilot.press("b")
        screen = await until_screen(pilot, BlameScreen)
        await until(pilot, lambda: screen.walk is not None and screen.walk.done, timeout=30)
        await pilot.press("j", "j")

    setup = story["pages"]["Setup"]
    assert snap_history(
        snap_compare, world, tmp_path, size, story, blame_to_the_merged_block, setup
    )
