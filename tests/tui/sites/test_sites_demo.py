"""The site editor on the seeded demo workspace: the bad redirects the demo seeds are the
lint's findings, and the 1,200-redirect site opens."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI

from gitbook_tui.server.demo.seed_sites_extra import LEGACY_REDIRECTS
from gitbook_tui.tui.app import GitBookApp
from gitbook_tui.tui.sites.lint_screen import LintScreen
from gitbook_tui.tui.sites.redirects_pane import RedirectsPane
from gitbook_tui.tui.sites.site_editor_screen import SiteEditorScreen
from support.demo_tui import demo_gitbook_app
from support.sites_world import open_editor, open_sites
from support.waits import until, until_screen
from support.worlds import Template
from support.worlds import demo_app as demo_server


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory, demo_template: Template) -> Iterator[FastAPI]:
    yield demo_server(demo_template, tmp_path_factory.mktemp("demo") / "demo.sqlite")


def demo_app(demo: FastAPI, tmp_path: Path) -> GitBookApp:
    return demo_gitbook_app(demo, tmp_path)


async def open_legacy_redirects(pilot: Any) -> RedirectsPane:
    """Open Tidewater Legacy Docs' redirects tab and wait until all its redirects show."""
    editor = await open_site(pilot, "Tidewater Legacy Docs")
    await pilot.press("right_square_bracket")
    pane = editor.query_one(RedirectsPane)
    await until(pilot, lambda: len(pane.shown) == LEGACY_REDIRECTS and pane.filled)
    return pane


async def open_site(pilot: Any, title: str) -> SiteEditorScreen:
    """Open the demo site ``title`` in the site editor (the demo loads slowly)."""
    return await open_editor(pilot, title, timeout=30)


async def test_lint_finds_the_seeded_bad_redirects(demo: FastAPI, tmp_path: Path) -> None:
    app = demo_app(demo, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_site(pilot, "Tidewater Docs")
        await pilot.press("right_square_bracket", "L")
        await until_screen(pilot, LintScreen)
        findings = {(f.kind, f.redirect.source) for f in app.screen.findings}  # type: ignore[attr-defined]
        assert ("gone", "/old-faq") in findings
        assert ("chain", "/v0/start") in findings and ("chain", "/legacy/start") in findings
        assert any(kind == "shadowed" for kind, _ in findings)
        assert not any(source == "/beta/preview" for _, source in findings)  # a draft


async def test_legacy_site_shows_every_redirect(demo: FastAPI, tmp_path: Path) -> None:
    app = demo_app(demo, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await open_legacy_redirects(pilot)
        table = pane.query_one("#redirects-table")
        assert table.row_count == LEGACY_REDIRECTS  # type: ignore[attr-defined]
        sources = [e.source.lower() for e in pane.shown]
        assert sources == sorted(sources)


async def test_developer_hub_shows_its_section_groups(demo: FastAPI, tmp_path: Path) -> None:
    from gitbook_tui.server.demo.seed_sites_extra import HUB_TITLE
    from gitbook_tui.tui.sites.structure_pane import StructurePane

    app = demo_app(demo, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await open_site(pilot, HUB_TITLE)
        pane = editor.query_one(StructurePane)
        await until(pilot, lambda: bool(pane.rows))
        heads = [
            (row.kind, pane._item(row).title)  # type: ignore[union-attr]
            for row in pane.rows
            if row.kind != "space"
        ]
        assert heads == [
            ("section", "Overview"),
            ("group", "Build"),
            ("section", "SDK guides"),
            ("section", "tide CLI"),
            ("group", "Reference"),
            ("section", "HTTP API"),
            ("section", "Configuration"),
            ("group", "Labs"),
            ("section", "Changelog"),
        ]


@pytest.mark.parametrize("suffix", ["csv", "yaml"])
async def test_export_then_import_changes_nothing(
    demo: FastAPI, tmp_path: Path, suffix: str
) -> None:
    """Tidewater Docs' redirects (a chain, a draft, a wildcard, external ones, section
    destinations, one to a deleted page) exported with X and read back with I: all unchanged."""
    from gitbook_tui.tui.common.form_screen import FormScreen
    from gitbook_tui.tui.sites.import_screen import ImportScreen

    app = demo_app(demo, tmp_path)
    out = tmp_path / f"exported.{suffix}"
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await open_site(pilot, "Tidewater Docs")
        await pilot.press("right_square_bracket")
        pane = editor.query_one(RedirectsPane)
        await until(pilot, lambda: bool(pane.shown))
        for key, done in (("X", out.exists), ("I", lambda: isinstance(app.screen, ImportScreen))):
            await pilot.press(key)
            await until_screen(pilot, FormScreen)
            box = app.screen.query_one("#field-file")
            box.value = str(out)  # type: ignore[attr-defined]
            await pilot.press("enter")
            await until(pilot, done)
        preview = app.screen
        assert isinstance(preview, ImportScreen)
        sources = {p.row.source for p in preview.plan}
        assert {"/v0/start", "/legacy/start", "/beta/preview", "/v1", "/old-faq"} <= sources
        assert {p.row.source: p.reason for p in preview.plan if p.action != "same"} == {}
        assert len(preview.plan) == len(editor.data.redirects)  # type: ignore[union-attr]
        summary = str(preview.query_one("#import-summary").render())
        assert summary.startswith("0 to create · 0 to change · ") and "· 0 refused" in summary


async def test_redirects_table_moves_with_the_pager_keys(demo: FastAPI, tmp_path: Path) -> None:
    from gitbook_tui.tui.common.confirm_screen import ConfirmScreen

    app = demo_app(demo, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        pane = await open_legacy_redirects(pilot)
        table = pane.query_one("#redirects-table")
        await until(pilot, lambda: table.has_focus)

        async def row_after(*keys: str) -> int:
            await pilot.press(*keys)
            await pilot.pause()
            return table.cursor_row  # type: ignore[attr-defined,no-any-return]

        last = LEGACY_REDIRECTS - 1
        assert await row_after("G") == last
        assert await row_after("g") == 0
        assert await row_after("end") == last
        assert await row_after("home") == 0
        half = await row_after("ctrl+d")
        assert half > 1
        assert await row_after("ctrl+u") == 0
        page = await row_after("ctrl+f")
        assert page > half
        assert await row_after("pagedown") == 2 * page
        assert await row_after("pageup") == page
        assert await row_after("ctrl+b") == 0
        assert await row_after("j") == 1
        # d still deletes (asks first): the pager's half-page letters are left out here
        await pilot.press("d")
        await until_screen(pilot, ConfirmScreen)
        await pilot.press("escape")


async def test_sites_list_cuts_long_cells_with_an_ellipsis(demo: FastAPI, tmp_path: Path) -> None:
    app = demo_app(demo, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        sites = await open_sites(pilot, timeout=30)
        table = sites.query_one("#sites-table")
        await pilot.pause()
        widths = [c.get_render_width(table) for c in table.columns.values()]  # type: ignore[attr-defined]
        assert sum(widths) <= 80 - 2  # no column runs off the right edge
        cut = 0
        for index, site in enumerate(sites.sites):
            url = site.urls.published if site.urls and site.urls.published else "—"
            shown = str(table.get_row_at(index)[3])  # type: ignore[attr-defined]
            if shown != url:
                cut += 1
                head, _, tail = shown.partition("…")
                assert tail or shown.endswith("…"), shown
                assert head in url and url.endswith(tail), (shown, url)
        assert cut  # the demo's URLs do not fit at 80 columns
        urls = [str(table.get_row_at(i)[3]) for i in range(len(sites.sites))]  # type: ignore[attr-defined]
        published = [u for u in urls if u != "—"]
        assert len(set(published)) == len(published)  # two sites' URLs never look the same


async def test_redirects_table_cuts_destinations_with_an_ellipsis(
    demo: FastAPI, tmp_path: Path
) -> None:
    app = demo_app(demo, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        pane = await open_legacy_redirects(pilot)
        table = pane.query_one("#redirects-table")
        widths = [c.get_render_width(table) for c in table.columns.values()]  # type: ignore[attr-defined]
        assert sum(widths) <= 80 - 2  # the Type and State columns are on screen
        cut = 0
        for index, entry in enumerate(pane.shown[:200]):
            label = pane._label(entry)
            shown = str(table.get_row_at(index)[1])  # type: ignore[attr-defined]
            if shown != label:
                cut += 1
                assert shown.endswith("…") and label.startswith(shown[:-1]), (shown, label)
        assert cut
