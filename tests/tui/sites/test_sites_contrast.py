"""The structure pane's default mark ★ takes its colour from the theme and reads at
WCAG AA (4.5:1) on its row, highlighted or not, in every built-in theme — or, where the
theme's own highlighted row falls short of that, at least as well as the row's text."""

from __future__ import annotations

from pathlib import Path

from textual.color import Color

from gitbook_tui.tui.common.contrast import TEXT_CONTRAST, contrast
from gitbook_tui.tui.common.theme_style import theme_style
from gitbook_tui.tui.sites.redirects_pane import RedirectsPane, RedirectsTable
from gitbook_tui.tui.sites.structure_pane import StructureList, StructurePane
from support.sites_world import build_site, open_editor, sites_run
from support.waits import until
from support.worlds import World


def _color(value: object) -> Color:
    triplet = getattr(value, "triplet", None)
    assert triplet is not None, value
    return Color(*triplet)


async def test_default_mark_reads_in_every_theme(world: World, tmp_path: Path) -> None:
    """The default site space's mark reads in every built-in theme. Slow: the structure redrawn in
    each of the ~20 themes."""
    build_site(world)  # Guides ★ (its User Guide ★) and Reference (its API Reference ★)
    async with sites_run(world, tmp_path) as (pilot, app, *_):
        editor = await open_editor(pilot)
        pane = editor.query_one(StructurePane)
        await until(pilot, lambda: len(pane.rows) == 5)
        listing = pane.query_one(StructureList)
        themes = [name for name in app.available_themes if "ansi" not in name]
        assert "textual-light" in themes
        failures = []
        for name in themes:
            app.theme = name
            await until(pilot, lambda: pane.marked_theme == app.theme)
            await pilot.pause()
            marks = 0
            for y in range(len(pane.rows)):
                line = list(listing.render_line(y))
                text = next(s for s in line if s.text.strip() and s.style is not None)
                assert text.style is not None
                row_ratio = contrast(_color(text.style.color), _color(text.style.bgcolor))
                for segment in line:
                    if "★" not in segment.text or segment.style is None:
                        continue
                    marks += 1
                    fg, bg = segment.style.color, segment.style.bgcolor
                    ratio = contrast(_color(fg), _color(bg))
                    if ratio < min(TEXT_CONTRAST, row_ratio) - 0.01:
                        failures.append((name, y, round(ratio, 2)))
                    if name == "textual-light":
                        assert ratio >= TEXT_CONTRAST, (y, ratio)  # QA: 1.25:1 before
            assert marks >= 2, name
        assert not failures, failures


async def test_gone_destinations_follow_a_theme_switch(world: World, tmp_path: Path) -> None:
    """The "(gone)" cells hold the theme's error colour: switching themes redraws them."""
    build_site(world)  # /old-trouble points at a deleted page
    async with sites_run(world, tmp_path) as (pilot, app, *_):
        editor = await open_editor(pilot)
        while editor.tab != "redirects":
            await pilot.press("right_square_bracket")
        pane = editor.query_one(RedirectsPane)
        table = pane.query_one(RedirectsTable)
        await until(pilot, lambda: pane.data is not None and pane.filled and table.row_count > 0)

        def gone_style() -> str:
            cells = [
                c
                for row in range(table.row_count)
                for c in table.get_row_at(row)
                if c.plain.endswith("(gone)")
            ]
            assert cells
            return str(cells[0].style)

        seen = [theme_style(app.theme_variables, "$text-error")]
        for name in ("nord", "solarized-light"):
            app.theme = name
            # the theme's variables are in place a refresh later
            await until(pilot, lambda: theme_style(app.theme_variables, "$text-error") != seen[-1])
            seen.append(theme_style(app.theme_variables, "$text-error"))
            await until(pilot, lambda: gone_style() == seen[-1])
