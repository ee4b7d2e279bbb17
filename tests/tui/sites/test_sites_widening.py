"""Adding a space to a site confirms when it widens who can read the space, naming the
audience and the URL; a space already as open as the site is added at once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.widgets import OptionList

from gitbook_tui.tui.app import GitBookApp
from gitbook_tui.tui.common.confirm_screen import ConfirmScreen
from gitbook_tui.tui.sites.pick_screen import PickScreen
from gitbook_tui.tui.sites.structure_pane import StructurePane
from support.sites_world import build_site, open_editor, sites_run
from support.waits import until, until_screen
from support.worlds import World


def titles(pane: StructurePane) -> list[str]:
    return [pane._item(r).title or "" for r in pane.rows]  # type: ignore[union-attr]


def site_space_titles(world: World, site: str) -> list[str]:
    r = world.client("alice").get(f"/orgs/{world.org}/sites/{site}/sections")
    return [ss["title"] for s in r.json()["items"] for ss in s["siteSpaces"]]


async def pick_space(pilot: Any, app: GitBookApp, pane: StructurePane, space: str) -> None:
    pane.query_one("#structure-list", OptionList).highlighted = titles(pane).index("Reference")
    await pilot.press("a")
    picker = await until_screen(pilot, PickScreen)
    labels = [str(label) for label, _ in picker.choices]
    index = next(i for i, label in enumerate(labels) if label.startswith(f"{space}  · "))
    picker.query_one("#pick-list", OptionList).highlighted = index
    await pilot.press("enter")


async def test_adding_a_private_space_confirms_naming_the_audience(
    world: World, tmp_path: Path
) -> None:
    """Over 5 s under load: the sites editor, its picker and its confirmation, each a server round trip."""
    site = build_site(world)  # published, unlisted; Handbook is a private space
    world.client("alice").patch(
        f"/orgs/{world.org}/sites/{site.site}", json={"visibility": "public"}
    )
    async with sites_run(world, tmp_path) as (pilot, app, *_):
        editor = await open_editor(pilot)
        pane = editor.query_one(StructurePane)
        await until(pilot, lambda: len(pane.rows) == 5)
        await pick_space(pilot, app, pane, "Handbook")
        await until_screen(pilot, ConfirmScreen)
        effect = str(app.screen.query_one("#confirm-effect").render())
        assert "“Handbook” (private)" in effect
        assert "anyone on the internet" in effect
        assert f"{site.url}/reference" in effect
        await pilot.press("escape")  # cancelled: nothing added
        await until(pilot, lambda: app.screen is editor)
        assert "Handbook" not in site_space_titles(world, site.site)
        await pick_space(pilot, app, pane, "Handbook")
        await until_screen(pilot, ConfirmScreen)
        await pilot.press("enter")
        await until(pilot, lambda: "Handbook" in titles(pane))
        assert "Handbook" in site_space_titles(world, site.site)


async def test_the_picker_shows_each_space_s_own_visibility(world: World, tmp_path: Path) -> None:
    build_site(world)
    async with sites_run(world, tmp_path) as (pilot, app, *_):
        editor = await open_editor(pilot)
        pane = editor.query_one(StructurePane)
        await until(pilot, lambda: len(pane.rows) == 5)
        await pilot.press("a")
        await until_screen(pilot, PickScreen)
        labels = [str(label) for label, _ in app.screen.choices]  # type: ignore[attr-defined]
        assert "Handbook  · private" in labels


async def test_adding_a_space_as_open_as_the_site_does_not_confirm(
    world: World, tmp_path: Path
) -> None:
    site = build_site(world)  # unlisted
    world.client("alice").post(
        f"/orgs/{world.org}/spaces", json={"title": "Open Notes", "visibility": "public"}
    )
    async with sites_run(world, tmp_path) as (pilot, app, *_):
        editor = await open_editor(pilot)
        pane = editor.query_one(StructurePane)
        await until(pilot, lambda: len(pane.rows) == 5)
        await pick_space(pilot, app, pane, "Open Notes")
        await until(pilot, lambda: "Open Notes" in titles(pane))
        assert not isinstance(app.screen, ConfirmScreen)
        assert "Open Notes" in site_space_titles(world, site.site)
