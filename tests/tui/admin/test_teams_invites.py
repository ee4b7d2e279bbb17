"""The Teams and Invites tabs on the demo workspace, as an admin and as a non-admin."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from textual.widgets import SelectionList

from gitbook_tui.tui.admin.member_picker_screen import MemberPickerScreen
from gitbook_tui.tui.common.confirm_screen import ConfirmScreen
from gitbook_tui.tui.common.form_screen import FormScreen
from support.admin_world import admin_shown, listed
from support.waits import until, until_screen


async def test_teams_overlap_and_a_new_team(demo: FastAPI, tmp_path: Path) -> None:
    async with admin_shown(demo, tmp_path, "teams") as (app, pilot, _, tab, _):
        assert listed(tab) == ["Customer support", "Docs guild", "Platform engineering"]
        who = {cells[0][0]: cells[3][0] for cells in tab.table.rows}
        assert (
            "Sofia Lindqvist" in who["Docs guild"]
            and "Sofia Lindqvist" in who["Platform engineering"]
        )
        await pilot.press("n")
        picker = await until_screen(pilot, MemberPickerScreen)
        picker.query_one(SelectionList).select_all()
        await pilot.press("enter")
        form = await until_screen(pilot, FormScreen)
        await pilot.press(*"Release crew", "ctrl+s")
        await until(pilot, lambda: not isinstance(app.screen, FormScreen))
        await until(pilot, lambda: "Release crew" in listed(tab))
        assert form.draft_key is not None


async def test_deleting_a_team_confirms_naming_its_members(demo: FastAPI, tmp_path: Path) -> None:
    async with admin_shown(demo, tmp_path, "teams") as (_, pilot, _, tab, _):
        await pilot.press("d")  # the first row: Customer support
        confirm = await until_screen(pilot, ConfirmScreen)
        assert "Customer support" in str(confirm._effect) and "Aiko Mori" in str(confirm._effect)
        await pilot.press("enter")
        await until(pilot, lambda: "Customer support" not in listed(tab))


async def test_invites_show_links_and_pending_and_refuse_with_reasons(
    demo: FastAPI, tmp_path: Path
) -> None:
    async with admin_shown(demo, tmp_path, "invites") as (app, pilot, _, tab, _):
        rows = listed(tab)
        assert rows.count("Link: anyone with it") == 2
        assert "priya.natarajan@partner.example" in rows and "audit@outside-firm.example" in rows
        await pilot.press("y")
        await until(pilot, lambda: any("Copied" in str(n.message) for n in app._notifications))
        await pilot.press("i")
        form = await until_screen(pilot, FormScreen)
        await pilot.press(*"lee@lanternfish.dev not-an-address", "ctrl+s")
        await until(pilot, lambda: "already a member" in form.error_of("emails"))
        assert "not an email address" in form.error_of("emails")
        field = form.query_one("#field-emails")
        field.value += " new.writer@lanternfish.dev"  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        await until(pilot, lambda: not isinstance(app.screen, FormScreen))
        await until(pilot, lambda: "new.writer@lanternfish.dev" in listed(tab))
        note = next(n for n in app._notifications if "Invited" in str(n.message))
        assert "Not invited lee@lanternfish.dev: already a member" in str(note.message)


async def test_a_reader_sees_teams_and_is_told_why_links_are_hidden(
    demo: FastAPI, tmp_path: Path
) -> None:
    async with admin_shown(demo, tmp_path, "teams", user="aiko") as (app, pilot, screen, _, _):
        assert "Docs guild" in listed(screen.current)
        await pilot.press("n")
        await pilot.pause()
        assert not isinstance(app.screen, MemberPickerScreen)
        await pilot.press("right_square_bracket")
        await until(pilot, lambda: screen.current.loaded)
        state = str(screen.current.query_one("#invites-state").content)
        assert "organization admins only" in state
