"""The import dry run at 80 columns: every column on screen, cut with "…", and the full
reason of the highlighted refused row under the table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import DataTable, Input

from gitbook_tui.tui.common.form_screen import FormScreen
from gitbook_tui.tui.common.theme_style import theme_style
from gitbook_tui.tui.sites.import_screen import ImportScreen
from support.sites_world import build_site, open_editor, redirects_pane, sites_run
from support.waits import until, until_screen
from support.worlds import World


async def open_dry_run(pilot: Pilot[Any], csv_file: Path) -> None:
    """From the site editor's Redirects tab: I, the file's path, enter: the dry run."""
    app = pilot.app
    editor = await open_editor(pilot)
    await pilot.press("right_square_bracket")
    await until(pilot, lambda: bool(redirects_pane(editor).shown))
    await pilot.press("I")
    await until_screen(pilot, FormScreen)
    app.screen.query_one("#field-file", Input).value = str(csv_file)
    await pilot.press("enter")
    await until_screen(pilot, ImportScreen)


async def test_import_dry_run_fits_80_columns(world: World, tmp_path: Path) -> None:
    build_site(world)
    csv_file = tmp_path / "moves.csv"
    csv_file.write_text(
        "source,destination,permanent\n"
        "/a-rather-long-source-path/that-goes-on,https://forum.example.com/a/long/path\n"
        "/bad path,/configure\n"
    )
    async with sites_run(world, tmp_path, size=(80, 24)) as (pilot, app, *_):
        await open_dry_run(pilot, csv_file)
        preview = app.screen
        assert isinstance(preview, ImportScreen)
        table = preview.query_one(DataTable)
        await pilot.pause()
        widths = [c.get_render_width(table) for c in table.columns.values()]
        assert sum(widths) <= 80 - 4 - 2  # the Why column is on screen
        reason = preview.plan[1].reason
        assert len(reason) > widths[4]
        shown = str(table.get_row_at(1)[4])
        assert shown.endswith("…") and reason.startswith(shown[:-1])
        long_source = str(table.get_row_at(0)[2])
        assert long_source.endswith("…")
        table.move_cursor(row=1)
        await pilot.pause()
        why = str(preview.query_one("#import-why").render())
        assert reason in why


async def test_import_dry_run_colours_follow_a_theme_switch(world: World, tmp_path: Path) -> None:
    """The "refused" cells hold the theme's error colour: a theme switch while the dry run
    is open (from the palette) redraws them."""
    build_site(world)
    csv_file = tmp_path / "moves.csv"
    csv_file.write_text("source,destination,permanent\n/bad path,/configure\n")
    async with sites_run(world, tmp_path) as (pilot, app, *_):
        await open_dry_run(pilot, csv_file)
        table = app.screen.query_one(DataTable)
        await until(pilot, lambda: table.row_count == 1)

        def refused_style() -> str:
            return str(table.get_row_at(0)[1].style)

        seen = [theme_style(app.theme_variables, "bold $text-error")]
        assert refused_style() == seen[0]
        for name in ("nord", "solarized-light"):
            app.theme = name
            # the theme's variables are in place a refresh later
            await until(
                pilot, lambda: theme_style(app.theme_variables, "bold $text-error") != seen[-1]
            )
            seen.append(theme_style(app.theme_variables, "bold $text-error"))
            await until(pilot, lambda: refused_style() == seen[-1])
        assert isinstance(app.screen, ImportScreen)
