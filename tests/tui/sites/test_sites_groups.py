"""Section groups in the site editor's Structure tab: the order model and move planning
(no Textual), and Pilot flows against the in-process server — groups as parent rows, a new
group, a section moved into and out of a group, a group reordered (and rolled back when
refused), a group renamed and deleted, and a reader's denied keys."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from gitbook_tui.models import Site, SiteSection, SiteSpace, SiteStructure
from gitbook_tui.tui.common.confirm_screen import ConfirmScreen
from gitbook_tui.tui.common.form_screen import FormScreen
from gitbook_tui.tui.sites.pick_screen import PickScreen
from gitbook_tui.tui.sites.site_data import SiteData, layout_of
from gitbook_tui.tui.sites.structure_order import Row, StructureOrder
from gitbook_tui.tui.sites.structure_plan import plan_moves
from support.sites_world import (
    Transport,
    add_group,
    build_site,
    grouped_site,
    select,
    server_tree,
    sites_run,
    structure,
    titles,
)
from support.waits import settle, until, until_screen
from support.worlds import World


# -- the order model ---------------------------------------------------------------------------
def _order() -> StructureOrder:
    """Root: a, G[b, c], d; G2[] at the end."""
    tree = SiteStructure.model_validate(
        {
            "type": "sections",
            "structure": [
                {"object": "site-section", "id": "a"},
                {
                    "object": "site-section-group",
                    "id": "G",
                    "title": "G",
                    "children": [
                        {"object": "site-section", "id": "b"},
                        {"object": "site-section", "id": "c"},
                    ],
                },
                {"object": "site-section", "id": "d"},
                {"object": "site-section-group", "id": "G2", "title": "G2", "children": []},
            ],
        }
    )
    sections = [
        SiteSection(id=i, title=i.upper(), siteSpaces=[SiteSpace(id=f"{i}1")] if i == "b" else [])
        for i in "abcd"
    ]
    data = SiteData(site=Site(id="site"), sections=sections)
    data.groups, data.layout = layout_of(tree, sections)
    order = StructureOrder()
    order.load(data)
    return order


def _rows(order: StructureOrder) -> list[tuple[str, int]]:
    return [(row.id, depth) for row, _, depth in order.rows()]


def test_rows_show_groups_as_parents_with_depth() -> None:
    order = _order()
    assert _rows(order) == [("a", 0), ("G", 0), ("b", 1), ("b1", 2), ("c", 1), ("d", 0), ("G2", 0)]
    assert [s.id for s in order.sections] == ["a", "b", "c", "d"]
    assert order.parent_of(Row("section", "c", "c")) == "G"


def test_a_section_steps_into_and_out_of_groups() -> None:
    order = _order()
    start = order.snapshot()
    a = Row("section", "a", "a")
    assert order.shift(a, 1)  # onto the group: its first item
    assert order.layout["G"] == [("section", "a"), ("section", "b"), ("section", "c")]
    assert order.changed(a, start)
    assert order.shift(a, -1)  # past the group's first place: out, before the group
    assert order.layout[""][:2] == [("section", "a"), ("group", "G")]
    assert not order.changed(a, start)
    c = Row("section", "c", "c")
    assert order.shift(c, 1)  # past the last place: out, after the group
    after = [("section", "a"), ("group", "G"), ("section", "c"), ("section", "d"), ("group", "G2")]
    assert order.layout[""] == after
    d = Row("section", "d", "d")
    assert order.shift(d, 1) and order.layout["G2"] == [("section", "d")]  # into an empty group
    assert not order.shift(Row("section", "a", "a"), -1)  # the top of the site


def test_groups_move_among_their_siblings_only() -> None:
    order = _order()
    g = Row("group", "G", "")
    assert order.shift(g, -1) and order.layout[""][0] == ("group", "G")
    assert not order.shift(g, -1)
    assert order.layout["G"] == [("section", "b"), ("section", "c")]  # it keeps what it holds


def test_plan_moves_reaches_every_order_with_allowed_anchors() -> None:
    rng = random.Random(20261123)
    for _ in range(400):
        nodes = [(rng.choice(["section", "group"]), str(i)) for i in range(rng.randint(1, 7))]
        target = nodes[:]
        rng.shuffle(target)
        order = list(nodes)
        for move in plan_moves(nodes, target):
            if move.node[0] == "section":
                assert move.anchor[0] == "section"  # the API's section pointer
            order.remove(move.node)
            at = order.index(move.anchor)
            order.insert(at + 1 if move.where == "after" else at, move.node)
        assert order == target
    assert plan_moves([("section", "a")], [("section", "a")]) == []


def test_layout_without_the_structure_operation_has_no_groups() -> None:
    sections = [SiteSection(id="a"), SiteSection(id="b")]
    groups, layout = layout_of(None, sections)
    assert groups == [] and layout == {"": [("section", "a"), ("section", "b")]}


# -- Pilot flows --------------------------------------------------------------------------------
async def test_groups_show_as_parent_rows(world: World, tmp_path: Path) -> None:
    grouped_site(world)
    async with sites_run(world, tmp_path) as (pilot, *_):
        pane = await structure(pilot, 6)
        assert titles(pane) == [
            "Guides",
            "User Guide",
            "SDK",
            "Products",
            "Reference",
            "API Reference",
        ]
        assert [r.kind for r in pane.rows] == [
            "section",
            "space",
            "space",
            "group",
            "section",
            "space",
        ]
        select(pane, "Products")
        await pilot.pause()
        detail = str(pane.query_one("#structure-detail").render())
        assert "Reference" in detail and "the site's root" in detail
        select(pane, "Reference")
        await pilot.pause()
        detail = str(pane.query_one("#structure-detail").render())
        assert "group" in detail and "Products" in detail


async def test_create_a_group(world: World, tmp_path: Path) -> None:
    """Over 5 s under load: the site's structure opened, a group made through its form, checked on the server."""
    site = grouped_site(world)
    async with sites_run(world, tmp_path) as (pilot, _app, *_):
        pane = await structure(pilot, 6)
        await pilot.press("n")
        await until_screen(pilot, PickScreen)
        await pilot.press("j", "enter")  # "New section group"
        await until_screen(pilot, FormScreen)
        await pilot.press(*"Tutorials", "ctrl+s")
        await until(pilot, lambda: "Tutorials" in titles(pane))
        assert server_tree(world, site)[-1] == ("Tutorials", [])
        assert pane.rows[titles(pane).index("Tutorials")].kind == "group"


async def test_move_a_section_into_and_out_of_a_group(world: World, tmp_path: Path) -> None:
    """A section moved into a group and out again. Slow: two moves and their writes."""
    site = grouped_site(world)
    async with sites_run(world, tmp_path) as (pilot, *_):
        pane = await structure(pilot, 6)
        select(pane, "Guides")
        await pilot.press("space", "j")  # onto the group: its first section
        assert titles(pane)[:2] == ["Products", "Guides"]  # shown at once
        await pilot.press("space")
        await settle(pilot)
        assert server_tree(world, site) == [("Products", ["Guides", "Reference"])]
        sections = world.client().get(f"/orgs/{world.org}/sites/{site.site}/sections").json()
        by_title = {s["title"]: s for s in sections["items"]}
        assert by_title["Guides"]["sectionGroup"] == by_title["Reference"]["sectionGroup"]
        await until(pilot, lambda: len(pane.rows) == 6)
        select(pane, "Guides")
        await pilot.press("ctrl+k")  # out of the group, before it
        await settle(pilot)
        assert server_tree(world, site) == ["Guides", ("Products", ["Reference"])]


async def test_reorder_groups_and_roll_back_when_refused(world: World, tmp_path: Path) -> None:
    site = grouped_site(world)
    add_group(world, site, "Extras", [])
    async with sites_run(world, tmp_path) as (pilot, app, notes):
        pane = await structure(pilot, 7)
        transport = app.transport
        assert isinstance(transport, Transport)
        transport.refuse("POST", "/move", 409, "The site changed meanwhile")
        select(pane, "Extras")
        await pilot.press("ctrl+k")
        await until(pilot, lambda: any("The site changed meanwhile" in n for n in notes))
        await settle(pilot)
        assert titles(pane)[3] == "Products"  # rolled back
        assert any("undone" in n for n in notes)
        assert server_tree(world, site) == ["Guides", ("Products", ["Reference"]), ("Extras", [])]
        select(pane, "Extras")
        await pilot.press("ctrl+k")  # accepted this time
        await settle(pilot)
        assert server_tree(world, site) == ["Guides", ("Extras", []), ("Products", ["Reference"])]
        assert titles(pane)[3] == "Extras"


async def test_rename_and_delete_a_group(world: World, tmp_path: Path) -> None:
    """A group renamed, then deleted after a confirmation. Slow: two dialogs and writes."""
    site = grouped_site(world)
    async with sites_run(world, tmp_path) as (pilot, app, *_):
        pane = await structure(pilot, 6)
        select(pane, "Products")
        await pilot.press("e")
        form = await until_screen(pilot, FormScreen)
        assert form.values()["title"] == "Products"
        form.query_one("#field-title").value = ""  # type: ignore[attr-defined]
        await pilot.pause()
        assert "1 to 100" in form.error_of("title")
        form.query_one("#field-title").value = "Platform"  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        await until(pilot, lambda: "Platform" in titles(pane))
        assert server_tree(world, site)[-1] == ("Platform", ["Reference"])
        select(pane, "Platform")
        await pilot.press("d")
        await until_screen(pilot, ConfirmScreen)
        effect = str(app.screen.query_one("#confirm-effect").render())
        assert "Reference" in effect and "stays published" in effect
        assert "the site's root" in effect
        await pilot.press("enter")
        await until(pilot, lambda: "Platform" not in titles(pane))
        assert server_tree(world, site) == ["Guides", "Reference"]


async def test_reader_is_denied_group_changes(world: World, tmp_path: Path) -> None:
    site = grouped_site(world)
    async with sites_run(world, tmp_path, token="tok-rhea") as (pilot, app, notes):
        pane = await structure(pilot, 6)
        select(pane, "Products")
        for key in ("n", "e", "d", "space", "ctrl+j"):
            await pilot.press(key)
            await pilot.pause()
            assert not isinstance(app.screen, (PickScreen, FormScreen, ConfirmScreen))
        assert pane.grabbed is None
        assert any("needs the create role" in n for n in notes)
        assert server_tree(world, site) == ["Guides", ("Products", ["Reference"])]


async def test_new_section_goes_into_the_selected_group(world: World, tmp_path: Path) -> None:
    """A new section is created in the group under the cursor. Slow: the form and its writes."""
    site = grouped_site(world)
    async with sites_run(world, tmp_path) as (pilot, _app, *_):
        pane = await structure(pilot, 6)
        select(pane, "API Reference")  # a space of Reference, in group Products
        await pilot.press("n")
        await until_screen(pilot, PickScreen)
        await pilot.press("enter")  # "New section"
        form = await until_screen(pilot, FormScreen)
        products = next(g for g in pane.order.groups.values() if g.title == "Products")
        assert form.values()["group"] == products.id
        await pilot.press(*"Errata", "ctrl+s")
        await until(pilot, lambda: "Errata" in titles(pane))
        assert server_tree(world, site) == ["Guides", ("Products", ["Reference", "Errata"])]


async def test_a_hostile_group_title_is_inert(world: World, tmp_path: Path) -> None:
    from support.sites_world import HOSTILE

    site = build_site(world, bad_redirects=False)
    add_group(world, site, HOSTILE[:100], ["Reference"])
    async with sites_run(world, tmp_path) as (pilot, app, *_):
        pane = await structure(pilot, 6)
        pane.query_one("#structure-list").highlighted = 3  # type: ignore[attr-defined]
        await pilot.pause()
        label = str(pane.query_one("#structure-list").get_option_at_index(3).prompt)  # type: ignore[attr-defined]
        assert "[@click=app.quit]Evil[/]" in label
        assert "\x1b" not in label and "\u202e" not in label
        detail = str(pane.query_one("#structure-detail").render())
        assert "[@click=app.quit]Evil[/]" in detail and "\x1b" not in detail
        await pilot.press("d")
        await until_screen(pilot, ConfirmScreen)
        effect = str(app.screen.query_one("#confirm-effect").render())
        assert "[@click=app.quit]Evil[/]" in effect and "\x1b" not in effect
        await pilot.press("escape")
        assert app.is_running


async def test_enter_shows_a_groups_detail_at_80_columns(world: World, tmp_path: Path) -> None:
    from gitbook_tui.tui.sites.report_screen import ReportScreen

    grouped_site(world)
    async with sites_run(world, tmp_path, size=(80, 24)) as (pilot, app, *_):
        pane = await structure(pilot, 6)
        select(pane, "Products")
        await pilot.press("enter")
        await until_screen(pilot, ReportScreen)
        text = " ".join(str(w.render()) for w in app.screen.query("Static"))
        assert "Reference" in text and "holds" in text


def test_a_restored_draft_naming_a_deleted_group_keeps_the_choices_valid() -> None:
    from gitbook_tui.tui.common.form_screen import FormField

    async def submit(values: Any) -> None:
        return None

    fields = [
        FormField("title", "Title", ""),
        FormField("group", "In section group", "", "select", options=[("root", ""), ("G", "g1")]),
    ]
    form = FormScreen("New section", fields, submit, restored={"title": "Kept", "group": "gone"})
    assert [f.value for f in form.fields] == ["Kept", ""]
