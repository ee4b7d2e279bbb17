"""Snapshot tests of the site editor at 80×24 and 120×40: the sites list, each tab, the
redirect form with an error and the lint findings.

Regenerate after a deliberate change with ``--snapshot-update`` and review the SVGs in
``tests/tui/sites/__snapshots__/test_sites_snapshots/``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from gitbook_tui.tui.common.form_screen import FormScreen
from gitbook_tui.tui.sites.lint_screen import LintScreen
from gitbook_tui.tui.sites.sites_screen import SitesScreen
from support.frozen_clock import freeze_clocks
from support.sites_world import build_site, make_app, open_editor, open_from_redirects, open_sites
from support.snapshot_sizes import AN_HOUR_IN, SIZES, Snap
from support.waits import settle, until
from support.worlds import World


@pytest.fixture(autouse=True)
def no_blink(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    freeze_clocks(monkeypatch, AN_HOUR_IN)
    yield


def snap_after(
    snap_compare: Snap,
    world: World,
    tmp_path: Path,
    size: tuple[int, int],
    steps: Callable[[Pilot[Any]], Awaitable[Any]],
    then: Callable[[Pilot[Any]], None] = lambda pilot: None,
    token: str = "tok-alice",
) -> bool:
    """Snapshot the app signed in with ``token`` once ``steps`` ran and it settled; ``then``
    checks the settled screen before the picture is taken."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await steps(pilot)
        await settle(pilot)
        then(pilot)

    app = make_app(world, tmp_path, token=token)
    return snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_sites_list(snap_compare: Snap, world: World, tmp_path, size) -> None:
    build_site(world)

    def on_the_sites_list(pilot: Pilot[Any]) -> None:
        assert isinstance(pilot.app.screen, SitesScreen)

    assert snap_after(snap_compare, world, tmp_path, size, open_sites, on_the_sites_list)


@pytest.mark.parametrize("tab", ["structure", "redirects", "settings"])
@pytest.mark.parametrize("size", SIZES)
def test_editor_tab(snap_compare: Snap, world: World, tmp_path, size, tab) -> None:
    """Each tab of the site editor. Slow: a snapshot of the editor after its tab's first request."""
    build_site(world)

    async def open_tab(pilot: Pilot[Any]) -> None:
        editor = await open_editor(pilot)
        while editor.tab != tab:
            await pilot.press("right_square_bracket")

    assert snap_after(snap_compare, world, tmp_path, size, open_tab)


@pytest.mark.parametrize("size", SIZES)
def test_redirect_form_with_error(snap_compare: Snap, world: World, tmp_path, size) -> None:
    """A new redirect whose source the site already redirects (case-insensitively)."""
    build_site(world)

    async def fill_the_form(pilot: Pilot[Any]) -> None:
        await open_from_redirects(pilot, "n", FormScreen)
        await pilot.press(*"/Old-Install", "tab", *"/configure")

    def refused(pilot: Pilot[Any]) -> None:
        form = pilot.app.screen
        assert isinstance(form, FormScreen) and "Already redirected" in form.error_of("source")

    assert snap_after(snap_compare, world, tmp_path, size, fill_the_form, refused)


@pytest.mark.parametrize("size", SIZES)
def test_lint_findings(snap_compare: Snap, world: World, tmp_path, size) -> None:
    """Lint findings listed. Slow: a snapshot after the whole redirect set is linted."""
    build_site(world)

    async def lint(pilot: Pilot[Any]) -> None:
        await open_from_redirects(pilot, "L", LintScreen)

    assert snap_after(snap_compare, world, tmp_path, size, lint)


@pytest.mark.parametrize("size", SIZES)
def test_reader_sees_dimmed_keys(snap_compare: Snap, world: World, tmp_path, size) -> None:
    """A reader (read role): the editing keys dimmed, the reason above the tabs."""
    build_site(world)
    assert snap_after(snap_compare, world, tmp_path, size, open_editor, token="tok-rhea")


@pytest.mark.parametrize("size", SIZES)
def test_structure_with_groups(snap_compare: Snap, world: World, tmp_path, size) -> None:
    """Groups as parent rows: Guides at the root, group Products holding Reference and a new
    section Changelog, an empty draft group Labs; the cursor on Products (its detail)."""
    site = build_site(world, bad_redirects=False)
    c = world.client("alice")
    base = f"/orgs/{world.org}/sites/{site.site}"
    made = c.post(f"{base}/sections", json={"spaceId": None, "title": "Changelog"})
    assert made.status_code == 201, made.text
    group = c.post(
        f"{base}/section-groups",
        json={"title": "Products", "sections": [site.sections["Reference"], made.json()["id"]]},
    )
    assert group.status_code == 201, group.text
    labs = c.post(f"{base}/section-groups", json={"title": "Labs", "draft": True})
    assert labs.status_code == 201, labs.text

    async def highlight_products(pilot: Pilot[Any]) -> None:
        editor = await open_editor(pilot)
        pane = editor.query_one("#structure-pane")
        await until(pilot, lambda: len(pane.rows) == 9)  # type: ignore[attr-defined]
        pane.query_one("#structure-list").highlighted = 3  # type: ignore[attr-defined]

    assert snap_after(snap_compare, world, tmp_path, size, highlight_products)
