"""The site editor's data functions, run without a Textual app: what each sends, checked on
the in-process server, and the import and export files on disk. The Textual modules of the
feature send nothing themselves."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import gitbook_tui.tui.sites as sites_feature
from gitbook_tui.models import PublishCheckout, Site
from gitbook_tui.tui.sites import redirect_data, settings_data, structure_data
from gitbook_tui.tui.sites.redirect_files import parse_import, plan_import
from gitbook_tui.tui.sites.redirect_rules import Destination
from gitbook_tui.tui.sites.site_data import SiteData, load_site_data, load_sites
from gitbook_tui.tui.sites.structure_order import Row, StructureOrder
from support.sites_world import SiteWorld, add_group, build_site, server_tree
from support.worlds import Clients, World

SENDS = re.compile(r"client\.\w+\.\w+\(|\.sites\.\w+\(|client\.sites\b")


def test_no_textual_module_of_the_feature_sends_a_request() -> None:
    folder = Path(sites_feature.__file__).parent
    senders = []
    for module in sorted(folder.glob("*.py")):
        text = module.read_text(encoding="utf-8")
        if re.search(r"^(from|import) textual", text, re.M) and SENDS.search(text):
            senders.append(module.name)
    assert senders == []


async def _data(connect: Clients, world: World, site: SiteWorld) -> SiteData:
    return await load_site_data(connect("alice"), world.org, site.site)


# -- structure ------------------------------------------------------------------------------------
async def test_new_section_and_group_are_created_with_trimmed_titles(
    world: World, connect: Clients
) -> None:
    site = build_site(world, bad_redirects=False)
    client, org = connect("alice"), world.org
    await structure_data.create_section(
        client, org, site.site, title="  Handbook ", space_id=None, group_id=None
    )
    await structure_data.create_section_group(client, org, site.site, title=" Products ", icon="  ")
    data = await _data(connect, world, site)
    assert [s.title for s in data.sections][-1] == "Handbook"
    assert [(g.title, g.icon) for g in data.groups] == [("Products", None)]


async def test_a_space_is_added_to_a_section(world: World, connect: Clients) -> None:
    site = build_site(world, bad_redirects=False)
    spaces = await connect("alice").spaces.list_in_org(world.org).to_list()
    handbook = next(s for s in spaces if s.title == "Handbook")
    guides = site.sections["Guides"]
    await structure_data.add_site_space(connect("alice"), world.org, site.site, handbook.id, guides)
    data = await _data(connect, world, site)
    section = next(s for s in data.sections if s.id == guides)
    assert handbook.title in [ss.title for ss in section.siteSpaces]


async def test_an_edit_sends_the_changes_and_clears_an_emptied_icon(
    world: World, connect: Clients
) -> None:
    site = build_site(world, bad_redirects=False)
    client, org = connect("alice"), world.org
    group_id = add_group(world, site, "Products", ["Reference"])
    data = await _data(connect, world, site)
    group = next(g for g in data.groups if g.id == group_id)
    await structure_data.update_item(client, org, site.site, group, {"icon": "book"})
    await structure_data.update_item(client, org, site.site, group, {"title": " Tools "})
    data = await _data(connect, world, site)
    assert [(g.title, g.icon) for g in data.groups] == [("Tools", "book")]
    await structure_data.update_item(client, org, site.site, data.groups[0], {"icon": ""})
    data = await _data(connect, world, site)
    assert data.groups[0].icon is None
    section = next(s for s in data.sections if s.title == "Guides")
    await structure_data.update_item(client, org, site.site, section, {"title": "Manuals"})
    data = await _data(connect, world, site)
    assert "Manuals" in [s.title for s in data.sections]


async def test_make_default_and_remove(world: World, connect: Clients) -> None:
    site = build_site(world, bad_redirects=False)
    client, org = connect("alice"), world.org
    guides, sdk = site.sections["Guides"], site.site_spaces["SDK"]
    await structure_data.make_default(client, org, site.site, Row("space", sdk, guides))
    reference = site.sections["Reference"]
    await structure_data.make_default(client, org, site.site, Row("section", reference, reference))
    data = await _data(connect, world, site)
    by_title = {s.title: s for s in data.sections}
    assert by_title["Reference"].default and not by_title["Guides"].default
    assert [ss.title for ss in by_title["Guides"].siteSpaces if ss.default] == ["SDK"]
    await structure_data.remove_item(client, org, site.site, Row("space", sdk, guides))
    await structure_data.remove_item(client, org, site.site, Row("section", guides, guides))
    data = await _data(connect, world, site)
    assert [s.title for s in data.sections] == ["Reference"]


async def test_a_move_into_a_group_is_sent_as_the_server_operations(
    world: World, connect: Clients
) -> None:
    site = build_site(world, bad_redirects=False)
    add_group(world, site, "Products", ["Reference"])
    order = StructureOrder()
    order.load(await _data(connect, world, site))
    guides = Row("section", site.sections["Guides"], site.sections["Guides"])
    origin = order.snapshot()
    assert order.shift(guides, 1)  # onto the group below: into it, first
    sent = await structure_data.send_move(
        connect("alice"), world.org, site.site, order, guides, origin
    )
    assert sent >= 1
    assert server_tree(world, site) == [("Products", ["Guides", "Reference"])]


async def test_a_refused_move_says_how_much_was_sent(world: World, connect: Clients) -> None:
    site = build_site(world, bad_redirects=False)
    order = StructureOrder()
    order.load(await _data(connect, world, site))
    gone = Row("space", "site-space-gone", site.sections["Guides"])
    order.spaces[gone.section].append(
        order.spaces[gone.section][0].model_copy(update={"id": gone.id})
    )
    with pytest.raises(structure_data.MoveRefused) as refused:
        await structure_data.send_move(
            connect("alice"), world.org, site.site, order, gone, order.snapshot()
        )
    assert refused.value.sent == 0 and refused.value.error is not None


# -- redirects ------------------------------------------------------------------------------------
async def test_a_redirect_is_saved_switched_looked_up_and_deleted(
    world: World, connect: Clients
) -> None:
    site = build_site(world, bad_redirects=False)
    client, org = connect("alice"), world.org
    away = Destination("external", url="https://example.com/new")
    made = await redirect_data.save_redirect(
        client, org, site.site, None, "/gone", away, permanent=True, draft=False, wildcard=False
    )
    assert await redirect_data.lookup_target(client, org, site.site, "/gone") == (
        "https://example.com/new"
    )
    assert await redirect_data.lookup_target(client, org, site.site, "/never") is None
    entry = next(e for e in (await _data(connect, world, site)).redirects if e.id == made)
    kept = await redirect_data.save_redirect(
        client, org, site.site, entry, "/moved", away, permanent=False, draft=False, wildcard=True
    )
    assert kept == made
    await redirect_data.set_draft(client, org, site.site, made, True)
    entry = next(e for e in (await _data(connect, world, site)).redirects if e.id == made)
    assert (entry.source, entry.permanent, entry.wildcard, entry.draft) == (
        "/moved",
        False,
        True,
        True,
    )
    await redirect_data.delete_redirect(client, org, site.site, made)
    assert made not in [e.id for e in (await _data(connect, world, site)).redirects]


async def test_an_import_sends_the_plan_and_notes_each_refusal(
    world: World, connect: Clients
) -> None:
    site = build_site(world, bad_redirects=False)
    data = await _data(connect, world, site)
    text = (
        "source,destination,permanent\n"
        "/one,https://example.com/1,true\n"
        "/forum,https://example.com/forum-new,false\n"
        "/two,https://example.com/2,true\n"
    )
    plan = plan_import(parse_import(text), data.redirects, data.site_map)
    assert [c.action for c in plan] == ["create", "change", "create"]
    await connect("alice").sites.create_redirect(
        world.org, site.site, "/two", {"kind": "external", "url": "https://x.test/"}
    )  # sent meanwhile: the import's creation of /two is refused
    outcome = await redirect_data.send_import(connect("alice"), world.org, site.site, plan)
    assert (outcome.created, outcome.changed) == (1, 1)
    assert len(outcome.refused) == 1 and outcome.refused[0].startswith("line 4 /two:")


async def test_import_and_export_files(tmp_path: Path, world: World, connect: Clients) -> None:
    site = build_site(world, bad_redirects=False)
    data = await _data(connect, world, site)
    assert redirect_data.import_name_problem("  ") is not None
    assert redirect_data.import_name_problem(str(tmp_path / "none.csv")) == (
        f"No file {tmp_path / 'none.csv'}."
    )
    out = tmp_path / "out.yaml"
    assert redirect_data.export_name_problem(str(tmp_path / "out.txt")) == (
        "Name a .csv or .yaml file."
    )
    assert redirect_data.export_name_problem(f" {out} ") is None
    written = await redirect_data.write_export(f" {out} ", data.redirects, data.site_map)
    assert written == out and "/old-install" in out.read_text(encoding="utf-8")
    assert "exists" in (redirect_data.export_name_problem(str(out)) or "")
    with pytest.raises(FileExistsError):  # never overwritten
        await redirect_data.write_export(str(out), [], data.site_map)
    assert "/old-install" in out.read_text(encoding="utf-8")
    assert redirect_data.import_name_problem(str(out)) is None
    name, text = await redirect_data.read_import_file(str(out))
    assert name == "out.yaml"
    rows = parse_import(text, name)
    assert sorted(r.source for r in rows) == sorted(e.source for e in data.redirects)


# -- settings and the list ------------------------------------------------------------------------
async def test_settings_writes(world: World, connect: Clients) -> None:
    site = build_site(world, bad_redirects=False)
    client, org = connect("alice"), world.org
    renamed = await settings_data.rename_site(client, org, site.site, "  Acme Manuals ")
    assert renamed.title == "Acme Manuals"
    assert (await settings_data.set_visibility(client, org, site.site, "public")).visibility == (
        "public"
    )
    adaptive = await settings_data.set_adaptive(client, org, site.site, True)
    assert adaptive.adaptiveContent is not None and adaptive.adaptiveContent.enabled
    unpublished = await settings_data.set_published(client, org, site.site, False)
    assert isinstance(unpublished, Site) and not unpublished.published
    published = await settings_data.set_published(client, org, site.site, True)
    assert not isinstance(published, PublishCheckout) and published.published


async def test_the_adaptive_schema_round_trips_as_text(world: World, connect: Clients) -> None:
    site = build_site(world, bad_redirects=False)
    client, org = connect("alice"), world.org
    unsigned = {"type": "object", "properties": {}, "additionalProperties": False}
    schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {"beta": {"type": "boolean"}, "unsigned": unsigned},
    }
    await settings_data.save_schema(client, org, site.site, schema)
    text = await settings_data.schema_text(client, org, site.site)
    assert text.endswith("\n") and '\n  "properties": {' in text
    assert '"beta"' in text


async def test_the_sites_are_listed_by_title(world: World, connect: Clients) -> None:
    c = world.client()
    for title in ("zeta", "Alpha", "beta"):
        assert c.post(f"/orgs/{world.org}/sites", json={"title": title}).status_code == 201
    sites = await load_sites(connect("alice"), world.org)
    assert [s.title for s in sites] == ["Alpha", "beta", "zeta"]
