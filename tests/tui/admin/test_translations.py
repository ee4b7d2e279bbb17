"""The Translations tab on the demo workspace: the settings with their target languages,
creating (codes checked as typed, names accepted), editing and deleting (confirmed), and the
tab read-only for a non-admin."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI

from gitbook_tui.tui.common.confirm_screen import ConfirmScreen
from gitbook_tui.tui.common.form_screen import FormScreen
from support.admin_world import admin_shown, listed
from support.waits import until, until_screen

DEMO = "Docs in Japanese and German"


def cells(tab: object, title: str) -> list[str]:
    rows = tab.table.rows  # type: ignore[attr-defined]
    return next([c[0] for c in r] for r in rows if r[0][0] == title)


async def test_create_edit_and_delete_translation_settings(demo: FastAPI, tmp_path: Path) -> None:
    """New settings with languages checked as typed, an edit, and a confirmed delete. (Three
    forms over the demo.)"""

    async with admin_shown(demo, tmp_path, "translations") as (_, pilot, _, tab, _):
        assert cells(tab, DEMO)[1:3] == ["2 languages", "ja Japanese, de German"]
        await pilot.press("n")
        form = await until_screen(pilot, FormScreen)
        form.query_one("#field-title").value = "Docs for Brazil"  # type: ignore[attr-defined]
        langs = form.query_one("#field-languages")
        langs.value = "pt-br klingon"  # type: ignore[attr-defined]
        await until(pilot, lambda: "Not a language code: klingon" in form.error_of("languages"))
        langs.value = "pt-br Spanish"  # type: ignore[attr-defined]
        await until(
            pilot,
            lambda: (
                "Portuguese (Brazil), es Spanish" in str(form.query_one("#hint-languages").content)
            ),
        )
        await pilot.press("ctrl+s")
        await until(pilot, lambda: "Docs for Brazil" in listed(tab))
        assert cells(tab, "Docs for Brazil")[2] == "pt-br Portuguese (Brazil), es Spanish"
        tab.table._set_cursor(listed(tab).index(DEMO))
        await pilot.press("e")
        form = await until_screen(pilot, FormScreen)
        assert form.query_one("#field-languages").value == "ja de"  # type: ignore[attr-defined]
        form.query_one("#field-languages").value = "ja"  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        # (the list is refreshed as the form closes: d goes to the list once it has the focus)
        await until(
            pilot,
            lambda: cells(tab, DEMO)[1] == "1 language" and tab.table.has_focus,
            "the saved settings listed, the list focused",
        )
        await pilot.press("d")
        confirm = await until_screen(pilot, ConfirmScreen)
        assert f"“{DEMO}” into ja Japanese are deleted" in str(confirm._effect)
        await pilot.press("enter")
        await until(pilot, lambda: DEMO not in listed(tab))


async def test_a_reader_sees_translations_read_only(demo: FastAPI, tmp_path: Path) -> None:
    """Aiko reads the settings; d says why and opens nothing."""

    shown = admin_shown(demo, tmp_path, "translations", user="aiko")
    async with shown as (app, pilot, screen, _, notes):
        assert DEMO in listed(screen.current)
        await pilot.press("d")
        await until(pilot, lambda: any("Only organization admins create" in n for n in notes))
        assert not isinstance(app.screen, ConfirmScreen)
