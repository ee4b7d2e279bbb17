"""The Integrations tab on the demo workspace: installations and what each reaches, the
details of the highlighted one, uninstalling and installing (confirmed), and the tab
read-only for a non-admin."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI

from gitbook_tui.tui.admin.integrations_tab import IntegrationsTab
from gitbook_tui.tui.admin.place_picker_screen import PlacePickerScreen
from gitbook_tui.tui.common.confirm_screen import ConfirmScreen
from gitbook_tui.tui.common.denial import denial_of
from support.admin_world import admin_shown, listed, rows_by_key
from support.waits import until, until_screen

SLACK = "Tidewater Slack notifications"


def details(tab: IntegrationsTab) -> str:
    return str(tab.query_one("#integrations-details").content)


async def test_installations_reach_and_details(demo: FastAPI, tmp_path: Path) -> None:
    """Installations, what each reaches and the highlighted one's details; uninstalling and
    installing again, each confirmed naming its effect. (Round trips over the demo.)"""

    async with admin_shown(demo, tmp_path, "integrations") as (_, pilot, _, tab, _):
        assert isinstance(tab, IntegrationsTab)
        slack = next(r for r in rows_by_key(tab).values() if r[0] == SLACK)
        assert slack[1] == "active" and slack[2].startswith("2 spaces")
        assert "live latency widget" in details(tab)  # the first row's
        tab.table._set_cursor(listed(tab).index(SLACK))
        await until(pilot, lambda: SLACK in details(tab))
        assert "HTTP API Reference" in details(tab) and "Tidewater User Guide" in details(tab)
        assert "space:content:read" in details(tab)
        tab.table._set_cursor(listed(tab).index(SLACK))
        await pilot.press("d")
        confirm = await until_screen(pilot, ConfirmScreen)
        effect = str(confirm._effect)
        assert "stops reaching 2 spaces (HTTP API Reference, Tidewater User Guide)" in effect
        await pilot.press("enter")
        await until(pilot, lambda: next(r for r in tab.rows if r.title == SLACK).installed is False)
        tab.table._set_cursor(listed(tab).index(SLACK))
        await pilot.press("i")
        confirm = await until_screen(pilot, ConfirmScreen)
        assert "may reach every space and every site" in str(confirm._effect)
        await pilot.press("enter")
        await until(pilot, lambda: next(r for r in tab.rows if r.title == SLACK).installed)


async def test_a_reader_sees_integrations_read_only(demo: FastAPI, tmp_path: Path) -> None:
    """Ravi reads the installations; d says why and opens nothing."""

    shown = admin_shown(demo, tmp_path, "integrations", user="ravi")
    async with shown as (app, pilot, _, tab, notes):
        assert SLACK in listed(tab)
        assert "read-only" in str(tab.query_one("#integrations-state").content)
        await pilot.press("d")
        await until(pilot, lambda: any("Only organization admins install" in n for n in notes))
        assert not isinstance(app.screen, ConfirmScreen)


async def test_one_space_taken_off_and_put_back(demo: FastAPI, tmp_path: Path) -> None:
    """``x`` picks a space the installation reaches and confirms what stops; ``a`` picks a
    space of the organization (filtered) and confirms what the integration may do there."""

    async with admin_shown(demo, tmp_path, "integrations") as (_, pilot, _, tab, notes):
        assert isinstance(tab, IntegrationsTab)
        tab.table._set_cursor(listed(tab).index(SLACK))
        await pilot.press("x")
        picker = await until_screen(pilot, PlacePickerScreen)
        assert [str(p) for p in picker.shown][:2] == [
            "space HTTP API Reference",
            "space Tidewater User Guide",
        ]
        await pilot.press("j", "enter")
        confirm = await until_screen(pilot, ConfirmScreen)
        effect = str(confirm._effect)
        assert "stops reaching space Tidewater User Guide: it can no longer read it" in effect
        assert "keeps 1 other space (HTTP API Reference)" in effect
        await pilot.press("enter")
        await until(
            pilot,
            lambda: next(r for r in tab.rows if r.title == SLACK).spaces == ("HTTP API Reference",),
        )
        tab.table._set_cursor(listed(tab).index(SLACK))

        await pilot.press("a")
        picker = await until_screen(pilot, PlacePickerScreen)
        assert "space HTTP API Reference" not in [str(p) for p in picker.shown]
        assert not any(p.kind == "site" for p in picker.shown)  # on every site already
        await pilot.press("slash", *"user gui", "enter")
        confirm = await until_screen(pilot, ConfirmScreen)
        effect = str(confirm._effect)
        assert f"{SLACK} will be able to read space Tidewater User Guide." in effect
        await pilot.press("enter")
        await until(
            pilot,
            lambda: (
                next(r for r in tab.rows if r.title == SLACK).spaces
                == (
                    "HTTP API Reference",
                    "Tidewater User Guide",
                )
            ),
        )
        assert any("is on space Tidewater User Guide now" in n for n in notes)


async def test_a_reader_may_not_add_or_remove_an_integration(demo: FastAPI, tmp_path: Path) -> None:
    """Aiko's ``a`` and ``x`` say why and open no picker; the footer shows them dimmed."""

    shown = admin_shown(demo, tmp_path, "integrations", user="aiko")
    async with shown as (app, pilot, _, tab, notes):
        tab.table._set_cursor(listed(tab).index(SLACK))
        for key in ("a", "x"):
            notes.clear()
            await pilot.press(key)
            await until(pilot, lambda: any("Only organization admins install" in n for n in notes))
            assert not isinstance(app.screen, PlacePickerScreen | ConfirmScreen)
        assert (
            denial_of(tab, "add_place") == denial_of(tab, "remove_place") == IntegrationsTab.DENIED
        )
