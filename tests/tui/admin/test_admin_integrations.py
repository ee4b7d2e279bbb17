"""The Integrations tab on the demo workspace: installations and what each reaches, the
details of the highlighted one, uninstalling and installing (confirmed), and the tab
read-only for a non-admin."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI

from gitbook_tui.tui.admin.integrations_tab import IntegrationsTab
from gitbook_tui.tui.common.confirm_screen import ConfirmScreen
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
