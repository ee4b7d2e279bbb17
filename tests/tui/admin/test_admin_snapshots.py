"""Snapshot tests of the Admin view at 80×24 and 120×40: every tab as an admin, and the
Members, Integrations and Permissions tabs as a reader (dimmed actions, the read-only notice),
and adding an integration to one space (the picker, the confirmation).

Regenerate after a deliberate change with ``--snapshot-update`` and review the SVGs in
``tests/tui/admin/__snapshots__/test_admin_snapshots/``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from textual.pilot import Pilot

from gitbook_tui.tui.admin import admin_data, openapi_data
from gitbook_tui.tui.admin.place_picker_screen import PlacePickerScreen
from gitbook_tui.tui.common.confirm_screen import ConfirmScreen
from gitbook_tui.tui.common.intents import ShowPermissions
from support.admin_world import admin_app, demo_id, listed, open_admin, open_permissions
from support.frozen_clock import freeze_clocks
from support.snapshot_sizes import AN_HOUR_IN, SIZES, Snap
from support.waits import settle, until_screen


@pytest.fixture(autouse=True)
def steady(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    freeze_clocks(monkeypatch, AN_HOUR_IN)  # never ticks mid-frame
    # "last seen" is relative to now: the demo's clock is fixed, the wall clock is not
    monkeypatch.setattr(
        admin_data, "ago", lambda when, now=None: "never" if when is None else "2d ago"
    )
    for module in ("members_tab", "openapi_tab", "translations_tab"):
        monkeypatch.setattr(
            f"gitbook_tui.tui.admin.{module}.ago",
            lambda when, now=None: "never" if when is None else "2d ago",
        )
    # the demo's spec was fetched from a local server on a free port: pin it
    real_row = openapi_data.spec_row

    def pinned_row(*args: Any) -> openapi_data.SpecRow:
        row = real_row(*args)
        return replace(row, source=re.sub(r"127\.0\.0\.1:\d+", "127.0.0.1:8000", row.source))

    monkeypatch.setattr(openapi_data, "spec_row", pinned_row)
    yield


def snap_admin(
    snap_compare: Snap,
    demo: FastAPI,
    tmp_path: Path,
    size: Any,
    where: str | ShowPermissions,
    user: str = "maya",
) -> bool:
    """Run the app as ``user`` on the Admin view's tab ``where`` (or the Permissions tab a
    ``ShowPermissions`` asks for), settled, and compare it with the test's snapshot."""

    async def run_before(pilot: Pilot[Any]) -> None:
        if isinstance(where, ShowPermissions):
            await open_permissions(pilot, where)
        else:
            await open_admin(pilot, where)
        await settle(pilot)

    app = admin_app(demo, tmp_path, user=user)
    return snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize(
    "tab", ["members", "teams", "invites", "integrations", "openapi", "translations"]
)
@pytest.mark.parametrize("size", SIZES)
def test_admin_tab(snap_compare: Snap, demo: FastAPI, tmp_path: Path, size: Any, tab: str) -> None:
    assert snap_admin(snap_compare, demo, tmp_path, size, tab)


@pytest.mark.parametrize("tab", ["members", "integrations"])
@pytest.mark.parametrize("size", SIZES)
def test_reader(snap_compare: Snap, demo: FastAPI, tmp_path: Path, size: Any, tab: str) -> None:
    """A non-admin: the read-only notice and the dimmed keys."""

    assert snap_admin(snap_compare, demo, tmp_path, size, tab, user="aiko")


@pytest.mark.parametrize("user", ["maya", "ravi"])
@pytest.mark.parametrize("size", SIZES)
def test_permissions_tab(
    snap_compare: Snap, demo: FastAPI, tmp_path: Path, size: Any, user: str
) -> None:
    """The guide's grants and everyone with access: as an admin, and read-only for Ravi."""
    guide = demo_id(demo, "space", "Tidewater User Guide")
    assert snap_admin(snap_compare, demo, tmp_path, size, ShowPermissions(space_id=guide), user)


@pytest.mark.parametrize("step", ["picker", "confirm"])
@pytest.mark.parametrize("size", SIZES)
def test_add_to_a_space(
    snap_compare: Snap, demo: FastAPI, tmp_path: Path, size: Any, step: str
) -> None:
    """``a`` on the Slack integration: the spaces it may be added to, then the confirmation
    naming what it will be able to do there."""

    async def run_before(pilot: Pilot[Any]) -> None:
        screen = await open_admin(pilot, "integrations")
        tab = screen.current
        tab.table._set_cursor(listed(tab).index("Tidewater Slack notifications"))
        await pilot.press("a")
        await until_screen(pilot, PlacePickerScreen)
        if step == "confirm":
            await pilot.press("enter")
            await until_screen(pilot, ConfirmScreen)
        await settle(pilot, ignore=("admin-integration-place",))

    app = admin_app(demo, tmp_path)
    assert snap_compare(app, terminal_size=size, run_before=run_before)
