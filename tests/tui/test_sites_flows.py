"""Pilot flows of the site editor against the in-process server."""

from __future__ import annotations

from pathlib import Path

from conftest import World, until
from sites_kit import build_site, make_app, open_editor, redirects_pane, settle
from gitbook_tui.tui.sites.structure_pane import StructurePane


async def test_structure_lists_sections_and_spaces(world: World, tmp_path: Path) -> None:
    build_site(world)
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await open_editor(pilot)
        pane = editor.query_one(StructurePane)
        await until(pilot, lambda: len(pane.rows) == 5)
        assert [r.kind for r in pane.rows] == ["section", "space", "space", "section", "space"]
        pane_r = redirects_pane(editor)
        await settle(pilot)
        assert [e.source for e in pane_r.shown][:2] == ["/forum", "/install"]
