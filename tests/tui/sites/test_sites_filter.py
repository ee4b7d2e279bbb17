"""``/`` in the Sites list and the site editor's Structure tab: typed text filters the rows
and never reaches the screen's commands (``quick`` does not quit); escape clears, enter opens
the highlighted match (the filter stays applied); moving and adding wait until the filter is
cleared."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input, Static

from gitbook_tui.tui.browse.browser_screen import BrowserScreen
from gitbook_tui.tui.common.filter_box import FilterBox
from gitbook_tui.tui.common.help_screen import HelpScreen
from gitbook_tui.tui.sites.pick_screen import PickScreen
from gitbook_tui.tui.sites.report_screen import ReportScreen
from gitbook_tui.tui.sites.site_editor_screen import SiteEditorScreen
from gitbook_tui.tui.sites.sites_screen import SitesScreen
from gitbook_tui.tui.sites.structure_pane import StructurePane
from support.notes import notes_of
from support.sites_world import (
    build_site,
    grouped_site,
    open_editor,
    open_sites,
    sites_run,
    titles,
    transport_of,
)
from support.waits import settle, until, until_screen
from support.worlds import World

SIZE = (80, 24)


async def help_text(pilot: Pilot[Any]) -> str:
    """The curated help (``?``) of the current screen, closed again."""
    app = pilot.app
    below = app.screen
    await pilot.press("question_mark")
    await until_screen(pilot, HelpScreen)
    await pilot.pause()
    text = " ".join(str(s.render()) for s in app.screen.query(Static))
    await pilot.press("escape")
    await until(pilot, lambda: app.screen is below)
    return text


def state_text(screen: SitesScreen) -> str:
    return str(screen.query_one("#sites-state").render())


async def test_sites_list_filter_keeps_typing_out_of_commands(world: World, tmp_path: Path) -> None:
    """Letters typed in the sites list filter are text, never commands. Slow: types letter by letter,
    checking the list after each step."""
    build_site(world)
    other = {"title": "Beta Handbook", "visibility": "public"}
    r = world.client("alice").post(f"/orgs/{world.org}/sites", json=other)
    assert r.status_code == 201, r.text
    async with sites_run(world, tmp_path, size=SIZE) as (pilot, app, *_):
        sites = await open_sites(pilot)
        assert [s.title for s in sites.shown] == ["Acme Docs", "Beta Handbook"]
        assert "sites.filter" in await help_text(pilot)
        sent = len(transport_of(app).requests)
        await pilot.press("slash", *"quick", *"roy", "j", "k")
        await pilot.pause()
        box = sites.query_one(FilterBox)
        assert box.value == "quickroyjk" and box.has_focus
        assert app.is_running and app.screen is sites  # q did not quit, r/o/y did nothing
        assert len(transport_of(app).requests) == sent  # r did not reload
        assert sites.shown == []
        assert "No matches for “quickroyjk” — escape clears the filter" in state_text(sites)
        await pilot.press("escape")  # clears the filter, back on the table
        await until(pilot, lambda: len(sites.shown) == 2)
        assert not box.display and sites.query_one("#sites-table").has_focus
        assert app.screen is sites
        # URL and visibility are searched too; enter opens the match
        await pilot.press("slash", *"public beta")
        await until(pilot, lambda: [s.title for s in sites.shown] == ["Beta Handbook"])
        assert "1 of 2 sites match" in state_text(sites)
        await pilot.press("enter")
        await until_screen(pilot, SiteEditorScreen)
        assert app.screen.site.title == "Beta Handbook"  # type: ignore[attr-defined]
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is sites and sites.loaded)
        assert sites.query_one("#sites-table").has_focus
        assert [s.title for s in sites.shown] == ["Beta Handbook"]  # the filter stays
        # escape on the table clears the filter first, then leaves for Browse
        await pilot.press("escape")
        await until(pilot, lambda: len(sites.shown) == 2)
        assert app.screen is sites
        await pilot.press("escape")
        await until_screen(pilot, BrowserScreen)


async def test_structure_filter_keeps_parents_and_blocks_moves(
    world: World, tmp_path: Path
) -> None:
    """The structure filter keeps matches' parents and refuses moves while filtered. Slow: several
    filters and move attempts in one editor."""
    grouped_site(world)
    async with sites_run(world, tmp_path, size=SIZE) as (pilot, app, notes):
        editor = await open_editor(pilot)
        pane = editor.query_one(StructurePane)
        await until(pilot, lambda: len(pane.rows) == 6)
        assert "structure.filter" in await help_text(pilot)
        notes = notes_of(app)
        # an empty box: ctrl+j moves nothing (ctrl+k is the box's own "delete to the end")
        await pilot.press("slash", "ctrl+j", "ctrl+k")
        await pilot.press(*"quick", *"dane", "asterisk", "space")
        await pilot.pause()
        box = pane.query_one(FilterBox)
        assert box.value == "quickdane* " and box.has_focus
        assert app.is_running and app.screen is editor  # nothing quit, removed, added…
        assert pane.rows == [] and pane.grabbed is None
        empty = str(pane.query_one("#structure-empty").render())
        assert "No matches for “quickdane*” — escape clears the filter" in empty
        assert transport_of(app).sent("POST") == transport_of(app).sent("DELETE") == []
        box.value = ""
        await pilot.press(*"refer")
        # the matches with the rows that hold them (group Products), cursor on the first
        await until(pilot, lambda: titles(pane) == ["Products", "Reference", "API Reference"])
        assert pane.current is not None and pane.current.kind == "section"
        await pilot.press("enter")  # the match opened (its detail: 80 columns), then the list
        await until_screen(pilot, ReportScreen)
        await pilot.press("escape")
        await until(pilot, lambda: pane.query_one("#structure-list").has_focus)
        assert pane._item(pane.current).title == "Reference"  # type: ignore[arg-type,union-attr]
        # moving and adding wait for the filter to be cleared; the reason is shown
        await pilot.press("space", "ctrl+j", "n", "a")
        await settle(pilot)
        assert pane.grabbed is None and not isinstance(app.screen, PickScreen)
        assert sum("Clear the filter first" in n for n in notes) == 5
        assert titles(pane) == ["Products", "Reference", "API Reference"]
        assert transport_of(app).sent("POST") == []
        # escape on the list clears the filter, the cursor stays on its row
        await pilot.press("escape")
        await until(pilot, lambda: len(pane.rows) == 6)
        assert app.screen is editor and not box.display
        assert pane._item(pane.current).title == "Reference"  # type: ignore[arg-type,union-attr]
        # an escape typed in the box clears it and never closes the editor
        await pilot.press("slash", *"sdk")
        await until(pilot, lambda: titles(pane) == ["Guides", "SDK"])
        await pilot.press("escape")
        await until(pilot, lambda: len(pane.rows) == 6)
        assert app.screen is editor and pane.query_one("#structure-list").has_focus
        await pilot.press("space")  # moving works again
        assert pane.grabbed is not None
        await pilot.press("escape")
        assert pane.grabbed is None


async def test_redirects_filter_uses_the_same_box(world: World, tmp_path: Path) -> None:
    build_site(world)
    async with sites_run(world, tmp_path, size=SIZE) as (pilot, app, *_):
        editor = await open_editor(pilot)
        await pilot.press("right_square_bracket")
        await pilot.press("slash", *"quick")
        await pilot.pause()
        box = editor.query_one("#redirects-filter", Input)
        assert isinstance(box, FilterBox) and box.value == "quick"
        assert app.is_running and app.screen is editor
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is editor and not box.display and box.value == ""
