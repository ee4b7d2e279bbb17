"""The Members tab on the demo workspace: listing, filtering, the role filter, changing a
role (confirmed when raising to admin), removing a member (confirmed, naming what they
lose), and the same tab read-only for a non-admin."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI

from gitbook_tui.tui.common.confirm_screen import ConfirmScreen
from gitbook_tui.tui.common.form_screen import FormScreen
from support.admin_world import admin_shown, listed
from support.waits import until, until_screen


async def test_members_list_and_filter(demo: FastAPI, tmp_path: Path) -> None:
    async with admin_shown(demo, tmp_path) as (_, pilot, _, tab, _):
        names = listed(tab)
        assert "Maya Okafor" in names and "Ravi Chandrasekar" in names
        assert "priya.natarajan" in names  # invited by email, not joined
        await pilot.press("slash", *"ravi")
        await until(pilot, lambda: listed(tab) == ["Ravi Chandrasekar"])
        assert "1 of" in str(tab.query_one("#members-state").content)
        await pilot.press("escape")
        await until(pilot, lambda: len(listed(tab)) == len(names))
        await pilot.press("f")  # admins only
        await until(pilot, lambda: listed(tab) == ["Jonas Achterberg", "Maya Okafor"])
        await pilot.press("slash", *"zzz")
        await until(pilot, lambda: listed(tab) == [])
        assert "No members match" in str(tab.query_one("#members-state").content)


async def test_raising_to_admin_confirms_then_changes(demo: FastAPI, tmp_path: Path) -> None:
    async with admin_shown(demo, tmp_path) as (app, pilot, _, tab, _):
        await pilot.press("slash", *"ravi", "enter")
        await pilot.press("e")
        form = await until_screen(pilot, FormScreen)
        form.query_one("#field-role").value = "admin"  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        confirm = await until_screen(pilot, ConfirmScreen)
        assert "becomes an organization admin" in str(confirm._effect)
        await pilot.press("enter")
        await until(pilot, lambda: not isinstance(app.screen, FormScreen | ConfirmScreen))
        ravi = next(m for m in tab.members if m.name == "Ravi Chandrasekar")  # type: ignore[attr-defined]
        await until(
            pilot,
            lambda: next(m for m in tab.members if m.name == "Ravi Chandrasekar").role == "admin",  # type: ignore[attr-defined]
        )
        assert ravi.id


async def test_removing_names_what_they_lose(demo: FastAPI, tmp_path: Path) -> None:
    async with admin_shown(demo, tmp_path) as (_, pilot, _, tab, _):
        await pilot.press("slash", *"ravi", "enter", "d")
        confirm = await until_screen(pilot, ConfirmScreen)
        effect = str(confirm._effect)
        assert "Ravi Chandrasekar loses access to" in effect and "spaces" in effect
        assert "Changelog" in effect or "…" in effect
        await pilot.press("enter")
        await until(pilot, lambda: "Ravi Chandrasekar" not in listed(tab))


async def test_a_non_admin_reads_with_dimmed_actions(demo: FastAPI, tmp_path: Path) -> None:
    async with admin_shown(demo, tmp_path, user="ravi") as (app, pilot, screen, _, _):
        assert "Read-only" in str(screen.query_one("#admin-access").content)
        assert "Maya Okafor" in listed(screen.current)
        await pilot.press("e")
        await pilot.pause()
        assert not isinstance(app.screen, FormScreen)
        assert any("Only organization admins" in str(n.message) for n in app._notifications)
