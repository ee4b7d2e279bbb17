"""Pilot flows of the site editor against the in-process server: structure edits and
reorder (with rollback), redirect forms (with the server's 400/409 inline, drafts kept
across a restart), test, lint, import/export, settings, and a reader's denied actions."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.message import Message
from textual.widgets import Input

from gitbook_tui.tui.app import GitBookApp
from gitbook_tui.tui.common.confirm_screen import ConfirmScreen
from gitbook_tui.tui.common.form_screen import FormScreen
from gitbook_tui.tui.sites import site_editor_screen
from gitbook_tui.tui.sites.import_screen import ImportScreen
from gitbook_tui.tui.sites.lint_screen import LintScreen
from gitbook_tui.tui.sites.pick_screen import PickScreen
from gitbook_tui.tui.sites.report_screen import ReportScreen
from gitbook_tui.tui.sites.settings_pane import SettingsPane
from gitbook_tui.tui.sites.site_editor_screen import SiteEditorScreen
from gitbook_tui.tui.sites.structure_pane import StructurePane
from support.sites_world import (
    build_site,
    open_editor,
    open_from_redirects,
    open_redirects,
    open_sites,
    sites_run,
    transport_of,
)
from support.waits import settle, until, until_screen
from support.worlds import World


async def type_into(pilot: Any, field: str, text: str, *, clear: bool = False) -> None:
    form = pilot.app.screen
    assert isinstance(form, FormScreen)
    box = form.query_one(f"#field-{field}", Input)
    box.focus()
    if clear:
        box.value = ""
    await pilot.press(*text)
    await pilot.pause()


async def structure(pilot: Any, app: GitBookApp) -> StructurePane:
    editor = await open_editor(pilot)
    pane = editor.query_one(StructurePane)
    await until(pilot, lambda: len(pane.rows) == 5)
    return pane


def order(pane: StructurePane) -> list[str]:
    return [pane._item(r).title or "" for r in pane.rows]  # type: ignore[union-attr]


def server_sections(world: World, site: str) -> list[str]:
    r = world.client("alice").get(f"/orgs/{world.org}/sites/{site}/sections")
    return [s["title"] for s in r.json()["items"]]


# -- structure --------------------------------------------------------------------------------
async def test_structure_lists_sections_and_spaces(world: World, tmp_path: Path) -> None:
    build_site(world)
    async with sites_run(world, tmp_path) as (pilot, app, *_):
        pane = await structure(pilot, app)
        assert order(pane) == ["Guides", "User Guide", "SDK", "Reference", "API Reference"]
        assert [r.kind for r in pane.rows] == ["section", "space", "space", "section", "space"]


async def test_new_section_and_add_space(world: World, tmp_path: Path) -> None:
    """A new section created, then a space added to it. Slow: two forms and their writes."""
    site = build_site(world)
    async with sites_run(world, tmp_path) as (pilot, app, *_):
        pane = await structure(pilot, app)
        await pilot.press("n")  # a section or a group: the first is a section
        await until_screen(pilot, PickScreen)
        await pilot.press("enter")
        await until_screen(pilot, FormScreen)
        await type_into(pilot, "title", "Changelog")
        await pilot.press("ctrl+s")
        await until(pilot, lambda: "Changelog" in order(pane))
        assert server_sections(world, site.site)[-1] == "Changelog"
        # add the Handbook space to the Reference section
        await until(pilot, lambda: pane.current is not None)
        pane.query_one("#structure-list").highlighted = order(pane).index("Reference")  # type: ignore[attr-defined]
        await pilot.press("a")
        picker = await until_screen(pilot, PickScreen)
        index = [str(label) for label, _ in picker.choices].index("Handbook  · private")
        picker.query_one("#pick-list").highlighted = index  # type: ignore[attr-defined]
        await pilot.press("enter")
        # Handbook is private: the site widens who reads it, so it asks first
        await until_screen(pilot, ConfirmScreen)
        await pilot.press("enter")
        await until(pilot, lambda: "Handbook" in order(pane))
        assert order(pane).index("Handbook") == order(pane).index("API Reference") + 1


async def test_edit_path_conflict_shown_inline_and_kept(world: World, tmp_path: Path) -> None:
    """A path taken by another section is shown inline and the typed path kept. Slow: a form, a
    refused write and a retry."""
    build_site(world)
    async with sites_run(world, tmp_path) as (pilot, app, *_):
        pane = await structure(pilot, app)
        pane.query_one("#structure-list").highlighted = 3  # type: ignore[attr-defined]
        await pilot.press("e")
        form = await until_screen(pilot, FormScreen)
        await type_into(pilot, "path", "guides", clear=True)
        await pilot.press("ctrl+s")
        await until(pilot, lambda: form.error_of("path") != "")
        assert "409" in form.error_of("path") and "guides" in form.error_of("path")
        assert form.values()["path"] == "guides"  # what was typed is kept
        assert app.screen is form
        await type_into(pilot, "path", "ref", clear=True)
        await pilot.press("ctrl+s")
        await until(pilot, lambda: not isinstance(app.screen, FormScreen))
        await until(pilot, lambda: any(s.path == "ref" for s in pane.sections))


async def test_make_default_and_remove_with_confirmation(world: World, tmp_path: Path) -> None:
    """A site space made the default, then removed after a confirmation naming it. Slow: two
    dialogs and writes."""
    site = build_site(world)
    async with sites_run(world, tmp_path) as (pilot, app, *_):
        pane = await structure(pilot, app)
        pane.query_one("#structure-list").highlighted = 2  # SDK  # type: ignore[attr-defined]
        await pilot.press("asterisk")
        await until(pilot, lambda: bool(pane.spaces[site.sections["Guides"]][1].default))
        pane.query_one("#structure-list").highlighted = 3  # Reference  # type: ignore[attr-defined]
        await pilot.press("d")
        await until_screen(pilot, ConfirmScreen)
        effect = str(app.screen.query_one("#confirm-effect").render())
        assert "unpublishes that section's content" in effect and "spaces are kept" in effect
        await pilot.press("enter")
        await until(pilot, lambda: "Reference" not in order(pane))
        assert server_sections(world, site.site) == ["Guides"]


async def test_reorder_grab_move_drop_sends_one_move(world: World, tmp_path: Path) -> None:
    site = build_site(world)
    async with sites_run(world, tmp_path) as (pilot, app, *_):
        pane = await structure(pilot, app)
        await pilot.press("space", "j")
        assert order(pane)[:3] == ["Reference", "API Reference", "Guides"]  # shown at once
        assert (
            not transport_of(app).sent("POST")[-1:]
            or "move" not in transport_of(app).sent("POST")[-1]
        )
        await pilot.press("space")
        await settle(pilot)
        assert server_sections(world, site.site) == ["Reference", "Guides"]
        moves = [p for p in transport_of(app).sent("POST") if p.endswith("/move")]
        assert len(moves) == 1
        # escape puts a grabbed item back
        await pilot.press("space", "j", "escape")
        assert order(pane)[0] == "Reference"


async def test_reorder_refused_rolls_back_with_message(world: World, tmp_path: Path) -> None:
    site = build_site(world)
    async with sites_run(world, tmp_path) as (pilot, app, notes):
        pane = await structure(pilot, app)
        transport_of(app).refuse("POST", "/move", 409, "The site changed meanwhile")
        pane.query_one("#structure-list").highlighted = 1  # User Guide  # type: ignore[attr-defined]
        await pilot.press("ctrl+j")
        await until(pilot, lambda: any("The site changed meanwhile" in n for n in notes))
        assert [p for p in transport_of(app).sent("POST") if p.endswith("/move")]
        assert order(pane)[1:3] == ["User Guide", "SDK"]  # rolled back
        assert any("undone" in n for n in notes)
        assert server_sections(world, site.site) == ["Guides", "Reference"]


# -- redirects --------------------------------------------------------------------------------
async def test_new_redirect_validates_as_typed_and_saves(world: World, tmp_path: Path) -> None:
    """A new redirect is validated as typed and saved. Slow: types the form key by key."""
    site = build_site(world)
    async with sites_run(world, tmp_path) as (pilot, *_):
        pane, form = await open_from_redirects(pilot, "n", FormScreen)
        await type_into(pilot, "source", "/Old-Install")
        assert "Already redirected as /old-install" in form.error_of("source")
        await type_into(pilot, "source", "/new page", clear=True)
        assert "not ' '" in form.error_of("source")
        await type_into(pilot, "source", "/getting-started", clear=True)
        assert form.error_of("source") == ""
        await type_into(pilot, "destination", "/nowhere")
        assert "No page" in form.error_of("destination")
        await type_into(pilot, "destination", "/configure", clear=True)
        hint = str(form.query_one("#hint-destination").render())
        assert "User Guide › Configure" in hint
        await pilot.press("ctrl+s")
        await until(pilot, lambda: "/getting-started" in [e.source for e in pane.shown])
        r = world.client("alice").get(
            f"/orgs/{world.org}/sites/{site.site}/redirect?source=/getting-started"
        )
        assert r.json()["target"].endswith("/configure")


async def test_server_409_and_400_inline_keep_what_was_typed(world: World, tmp_path: Path) -> None:
    """409 and 400 answers shown inline in the form, what was typed kept. Slow: two refused writes."""
    site = build_site(world)
    async with sites_run(world, tmp_path) as (pilot, *_):
        _, form = await open_from_redirects(pilot, "n", FormScreen)
        await type_into(pilot, "source", "/later")
        await type_into(pilot, "destination", "/sdk")
        # someone else adds /later meanwhile: the server answers 409
        body = {"source": "/later", "destination": {"kind": "external", "url": "https://x.test/"}}
        base = f"/orgs/{world.org}/sites/{site.site}"
        assert world.client("carol").post(f"{base}/redirects", json=body).status_code == 201
        await pilot.press("ctrl+s")
        await until(pilot, lambda: form.error_of("source") != "")
        assert "already redirects" in form.error_of("source") and "409" in form.error_of("source")
        assert form.values()["source"] == "/later" and form.values()["destination"] == "/sdk"
        # the SDK site space is removed meanwhile: the server answers 400 on the destination
        world.client("alice").delete(f"{base}/site-spaces/{site.site_spaces['SDK']}")
        await type_into(pilot, "source", "/later-2", clear=True)
        await pilot.press("ctrl+s")
        await until(pilot, lambda: form.error_of("destination") != "")
        assert "400" in form.error_of("destination")
        assert "no site space" in form.error_of("destination")
        assert form.values()["source"] == "/later-2"


async def test_form_draft_survives_a_restart(world: World, tmp_path: Path) -> None:
    """A half-filled redirect form is offered again after a restart. Slow: two app runs."""
    build_site(world)
    async with sites_run(world, tmp_path) as (pilot, *_):
        await open_from_redirects(pilot, "n", FormScreen)
        await type_into(pilot, "source", "/kept-draft")
        await pilot.press("escape")
        await settle(pilot)
    async with sites_run(world, tmp_path) as (pilot, _, notes):
        _, form = await open_from_redirects(pilot, "n", FormScreen)
        assert form.values()["source"] == "/kept-draft"
        assert any("Restored the draft" in n for n in notes)


async def test_edit_and_delete_redirect(world: World, tmp_path: Path) -> None:
    """A redirect edited, then deleted with confirmation. Slow: two forms and two server writes."""
    site = build_site(world)
    async with sites_run(world, tmp_path) as (pilot, app, *_):
        pane = await open_redirects(pilot)
        table = pane.query_one("#redirects-table")
        table.move_cursor(row=[e.source for e in pane.shown].index("/forum"))
        await pilot.press("e")
        await until_screen(pilot, FormScreen)
        await type_into(pilot, "destination", "https://community.example.com/", clear=True)
        await pilot.press("ctrl+s")
        await until(pilot, lambda: not isinstance(app.screen, FormScreen))
        await settle(pilot)
        forum = next(e for e in pane.shown if e.source == "/forum")
        assert forum.destination.url == "https://community.example.com/"
        await pilot.press("d")
        await until_screen(pilot, ConfirmScreen)
        assert "Deletes the redirect /forum" in str(
            app.screen.query_one("#confirm-effect").render()
        )
        await pilot.press("enter")
        await until(pilot, lambda: "/forum" not in [e.source for e in pane.shown])
        r = world.client("alice").get(f"/orgs/{world.org}/sites/{site.site}/redirects")
        assert "/forum" not in [x["source"] for x in r.json()["items"]]


async def test_filter_and_test_a_path(world: World, tmp_path: Path) -> None:
    """Redirects filtered, then a path tested against them. Slow: the editor and the test dialog."""
    build_site(world)
    async with sites_run(world, tmp_path) as (pilot, app, *_):
        pane = await open_redirects(pilot)
        await pilot.press("slash", *"old")
        await until(
            pilot,
            lambda: [e.source for e in pane.shown] == ["/old-install", "/old-trouble", "/setup"],
        )
        await pilot.press("escape")
        await until(pilot, lambda: len(pane.shown) == 5)
        await pilot.press("t")
        await until_screen(pilot, FormScreen)
        await type_into(pilot, "path", "/setup", clear=True)
        await pilot.press("enter")
        await until_screen(pilot, ReportScreen)
        text = str(app.screen.query_one("#report-body").render())
        assert "/setup → /old-install (this site)" in text
        assert "/old-install → User Guide › Install" in text
        assert "Lands on https://acme.gitbook.io/docs/install" in text


async def test_lint_lists_seeded_problems_and_fixes_a_chain(world: World, tmp_path: Path) -> None:
    site = build_site(world)
    async with sites_run(world, tmp_path) as (pilot, app, *_):
        _, lint_screen = await open_from_redirects(pilot, "L", LintScreen)
        kinds = {(f.kind, f.redirect.source) for f in lint_screen.findings}
        assert kinds == {("gone", "/old-trouble"), ("chain", "/setup"), ("shadowed", "/install")}
        lint_screen.query_one("#lint-list").highlighted = [  # type: ignore[attr-defined]
            f.kind for f in lint_screen.findings
        ].index("chain")
        await pilot.press("enter")  # fix as suggested: point /setup at the end of the chain
        form = await until_screen(pilot, FormScreen)
        assert form.values()["destination"] == "/install"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: not isinstance(app.screen, FormScreen))
        await settle(pilot)
        r = world.client("alice").get(f"/orgs/{world.org}/sites/{site.site}/redirect?source=/setup")
        assert r.json()["target"].endswith("/install")


async def test_import_csv_dry_run_then_apply(world: World, tmp_path: Path) -> None:
    """A CSV of redirects: dry run lists what would change, apply writes it. Slow: a file imported
    twice, each row checked."""
    site = build_site(world)
    csv_file = tmp_path / "moves.csv"
    csv_file.write_text(
        "source,destination,permanent\n"
        "/a,/configure,true\n"
        "/FORUM,https://new-forum.example.com/,false\n"
        "/bad path,/configure\n"
        "/b,/nowhere\n"
        "/old-install,/install,true\n"
    )
    async with sites_run(world, tmp_path) as (pilot, app, *_):
        pane, _ = await open_from_redirects(pilot, "I", FormScreen)
        await type_into(pilot, "file", str(csv_file))
        await pilot.press("enter")
        preview = await until_screen(pilot, ImportScreen)
        assert [p.action for p in preview.plan] == ["create", "change", "refuse", "refuse", "same"]
        summary = str(preview.query_one("#import-summary").render())
        assert summary == "1 to create · 1 to change · 1 unchanged · 2 refused"
        before = len(transport_of(app).sent("POST"))
        assert len(transport_of(app).sent("POST")) == before  # a dry run sends nothing
        await pilot.press("enter")
        await until_screen(pilot, ReportScreen)
        assert "1 created · 1 changed" in str(app.screen.query_one("#report-body").render())
        await pilot.press("escape")
        await until(pilot, lambda: "/a" in [e.source for e in pane.shown])
        r = world.client("alice").get(f"/orgs/{world.org}/sites/{site.site}/redirects")
        forum = next(x for x in r.json()["items"] if x["source"] == "/forum")
        assert forum["destination"]["url"] == "https://new-forum.example.com/"


async def test_export_yaml(world: World, tmp_path: Path) -> None:
    """Redirects exported as YAML: a file that exists is refused untouched, a new one written
    and read back. Slow: the editor and its export form, two paths typed key by key."""
    build_site(world)
    out = tmp_path / "out.yaml"
    taken = tmp_path / "taken.csv"
    taken.write_text("mine")
    async with sites_run(world, tmp_path) as (pilot, app, *_):
        _, form = await open_from_redirects(pilot, "X", FormScreen)
        await type_into(pilot, "file", str(taken), clear=True)
        assert "exists" in form.error_of("file")
        await pilot.press("enter")
        assert app.screen is form and taken.read_text() == "mine"
        await type_into(pilot, "file", str(out), clear=True)
        await pilot.press("enter")
        await until(pilot, out.exists)
    import yaml

    items = yaml.safe_load(out.read_text())["redirects"]
    assert items[0] == {
        "source": "/forum",
        "destination": "https://forum.example.com/",
        "permanent": False,
        "draft": False,
        "wildcard": False,
        "kind": "external",
        "ref": "",
    }
    install = next(item for item in items if item["source"] == "/old-install")
    assert (install["destination"], install["permanent"], install["kind"]) == (
        "/install",
        True,
        "site-page",
    )


# -- settings ---------------------------------------------------------------------------------
async def test_settings_title_visibility_publish_adaptive(world: World, tmp_path: Path) -> None:
    """Site settings: title, visibility (confirmed), publish and adaptive content. Slow: four forms
    and writes."""
    site = build_site(world)
    base = f"/orgs/{world.org}/sites/{site.site}"
    async with sites_run(world, tmp_path) as (pilot, app, *_):
        editor = await open_editor(pilot)
        await pilot.press("left_square_bracket")
        assert editor.tab == "settings"
        await pilot.press("e")
        await until_screen(pilot, FormScreen)
        await type_into(pilot, "title", "Acme Handbook", clear=True)
        await pilot.press("ctrl+s")
        await until(pilot, lambda: editor.site.title == "Acme Handbook")
        # widening unlisted → public asks first, naming the audience
        await pilot.press("v")
        await until_screen(pilot, PickScreen)
        app.screen.query_one("#pick-list").highlighted = 0  # public  # type: ignore[attr-defined]
        await pilot.press("enter")
        await until_screen(pilot, ConfirmScreen)
        effect = str(app.screen.query_one("#confirm-effect").render())
        assert "from unlisted to public" in effect and "anyone on the internet" in effect
        await pilot.press("enter")
        await until(pilot, lambda: str(editor.site.visibility) == "public")
        # unpublish asks first
        await pilot.press("P")
        await until_screen(pilot, ConfirmScreen)
        assert "Unpublishes" in str(app.screen.query_one("#confirm-effect").render())
        await pilot.press("enter")
        await until(pilot, lambda: editor.site.published is False)
        assert world.client("alice").get(base).json()["published"] is False
        await pilot.press("A")
        await until(
            pilot, lambda: bool(editor.site.adaptiveContent and editor.site.adaptiveContent.enabled)
        )
        assert world.client("alice").get(base).json()["adaptiveContent"] == {"enabled": True}


# -- permissions and hostile text -------------------------------------------------------------
async def test_reader_sees_denied_actions_with_reason(world: World, tmp_path: Path) -> None:
    build_site(world)
    async with sites_run(world, tmp_path, token="tok-rhea") as (pilot, app, notes):
        editor = await open_editor(pilot)
        banner = str(editor.query_one("#editor-state").render())
        assert banner.startswith("Read-only: Changing this site needs the create role")
        posts = len(transport_of(app).sent("POST"))
        await pilot.press("n")
        await pilot.press("space", "j", "space")
        await until(pilot, lambda: len([n for n in notes if "create role" in n]) >= 2)
        assert not isinstance(app.screen, FormScreen)
        assert len(transport_of(app).sent("POST")) == posts
        await pilot.press("right_square_bracket", "right_square_bracket", "P")
        await until(pilot, lambda: any("Only organization admins" in n for n in notes))
        pane = editor.query_one(SettingsPane)
        assert pane.denial_reason("publish") is not None


async def test_hostile_text_is_inert(world: World, tmp_path: Path) -> None:
    """Hostile titles, paths and URLs stay literal in every sites pane. Slow: walks every tab."""
    from support.sites_world import HOSTILE

    site = build_site(world, bad_redirects=False, title="Hostile site")
    base = f"/orgs/{world.org}/sites/{site.site}"
    c = world.client("alice")
    c.patch(base, json={"title": HOSTILE[:100]})
    sections = c.get(f"{base}/sections").json()["items"]
    c.patch(f"{base}/sections/{sections[0]['id']}", json={"title": HOSTILE[:100]})
    evil_url = "https://x.test/[@click=app.quit]Evil[/]"
    r = c.post(
        f"{base}/redirects",
        json={"source": "/evil", "destination": {"kind": "external", "url": evil_url}},
    )
    assert r.status_code == 201, r.text
    async with sites_run(world, tmp_path) as (pilot, app, *_):
        await until(pilot, lambda: app.browser is not None)
        await pilot.press("4")
        from gitbook_tui.tui.sites.sites_screen import SitesScreen

        await until(pilot, lambda: isinstance(app.screen, SitesScreen) and app.screen.loaded)
        await pilot.press("enter")
        await until(
            pilot, lambda: isinstance(app.screen, SiteEditorScreen) and app.screen.data is not None
        )
        await settle(pilot)
        assert app.is_running  # the [@click=app.quit] link did nothing
        header = str(app.screen.query_one("#editor-header").render())
        assert "[@click=app.quit]Evil[/]" in header
        assert "\x1b" not in header and "\u202e" not in header
        pane = app.screen.query_one(StructurePane)
        label = str(pane.query_one("#structure-list").get_option_at_index(0).prompt)  # type: ignore[attr-defined]
        assert "[@click=app.quit]" in label and "\x1b" not in label
        sites_table = app.screen_stack[-2].query_one("#sites-table")
        title_cell = sites_table.get_row_at(0)[0]
        assert title_cell.plain.startswith("[@click=app.quit]Evil[/]")
        assert "\x1b" not in title_cell.plain
        await pilot.press("right_square_bracket")
        table = app.screen.query_one("#redirects-table")
        await until(pilot, lambda: table.row_count > 0)  # type: ignore[attr-defined]
        rows = [table.get_row_at(i) for i in range(table.row_count)]  # type: ignore[attr-defined]
        assert any(row[1].plain == evil_url for row in rows)
        await pilot.press("enter", "y")
        assert app.is_running


async def test_adaptive_schema_in_editor_checked_before_sending(
    world: World, tmp_path: Path, monkeypatch: Any
) -> None:
    """A claim that is not boolean is caught before sending; a schema the server refuses
    shows its 400; both keep the text for the next E; a good one is saved."""
    site = build_site(world)
    unsigned = '"unsigned": {"type": "object", "properties": {}, "additionalProperties": false}'
    edits = [
        '{"type": "object", "properties": {"beta": {"type": "string"}}}',
        '{"type": "object", "properties": {"beta": {"type": "boolean"}, ' + unsigned + "}}",
        '{"type": "object", "additionalProperties": false, "properties": '
        '{"beta": {"type": "boolean"}, ' + unsigned + "}}",
    ]
    seen: list[str] = []

    async def fake_editor(app: Any, text: str, *, suffix: str = ".md") -> str:
        seen.append(text)
        return edits.pop(0)

    monkeypatch.setattr("gitbook_tui.tui.sites.schema_editing.edit_externally", fake_editor)
    async with sites_run(world, tmp_path) as (pilot, app, *_):
        await open_editor(pilot)
        await pilot.press("left_square_bracket", "E")
        await until_screen(pilot, ReportScreen)
        body = str(app.screen.query_one("#report-body").render())
        assert "must be a boolean claim" in body and "press E to continue" in body
        assert '"$schema"' in seen[0]  # started from the server's schema
        await pilot.press("escape", "E")
        await until(pilot, lambda: isinstance(app.screen, ReportScreen) and len(edits) == 1)
        body = str(app.screen.query_one("#report-body").render())
        assert "additionalProperties: must be false" in body  # the server's 400
        assert '"type": "string"' in seen[1]  # continued from the kept text
        await pilot.press("escape", "E")
        await until(pilot, lambda: not edits)
        await settle(pilot)
    r = world.client("alice").get(f"/orgs/{world.org}/sites/{site.site}/adaptive-schema")
    assert r.json()["jsonSchema"]["properties"]["beta"] == {"type": "boolean"}


async def test_errors_name_the_server_and_retry_works(world: World, tmp_path: Path) -> None:
    build_site(world)
    async with sites_run(world, tmp_path) as (pilot, app, *_):
        await until(pilot, lambda: app.browser is not None)
        transport_of(app).refuse("GET", "/sites", 503, "maintenance window")
        await pilot.press("4")
        from gitbook_tui.tui.sites.sites_screen import SitesScreen

        await until_screen(pilot, SitesScreen)
        state = app.screen.query_one("#sites-state")
        await until(pilot, lambda: "maintenance window" in str(state.render()))
        text = str(state.render())
        assert "http://testserver/v1" in text and "r retry" in text
        await pilot.press("r")
        await until(pilot, lambda: app.screen.loaded)  # type: ignore[attr-defined]
        assert "1 site" in str(state.render())
        # the editor's load fails the same way, then R reloads it
        transport_of(app).refuse("GET", "/redirects", 503, "maintenance window")
        await pilot.press("enter")
        editor = await until_screen(pilot, SiteEditorScreen)
        banner = editor.query_one("#editor-state")
        await until(pilot, lambda: "maintenance window" in str(banner.render()))
        await pilot.press("R")
        await until(pilot, lambda: editor.data is not None)
        await pilot.press("escape")
        await until_screen(pilot, SitesScreen)


async def test_toggle_live_draft_optimistic_with_rollback(world: World, tmp_path: Path) -> None:
    site = build_site(world)
    base = f"/orgs/{world.org}/sites/{site.site}"
    async with sites_run(world, tmp_path) as (pilot, app, notes):
        pane = await open_redirects(pilot)
        pane.query_one("#redirects-table").move_cursor(row=0)  # /forum
        await pilot.press("f")
        await until(pilot, lambda: any("/forum is now a draft" in n for n in notes))
        drafts = world.client("alice").get(f"{base}/redirects", params={"draft": True}).json()
        assert [r["source"] for r in drafts["items"]] == ["/forum"]
        assert pane.shown[0].draft
        transport_of(app).refuse("PATCH", site.redirects["/forum"], 409, "Locked by a review")
        await pilot.press("f")
        await until(pilot, lambda: any("Locked by a review" in n for n in notes))
        assert pane.shown[0].source == "/forum" and pane.shown[0].draft  # rolled back


async def test_copy_site_url(world: World, tmp_path: Path) -> None:
    build_site(world)
    async with sites_run(world, tmp_path) as (pilot, app, *_):
        from support.sites_world import open_sites

        await open_sites(pilot)
        await pilot.press("y")
        await until(pilot, lambda: app.clipboard == "https://acme.gitbook.io/docs")


async def test_enter_shows_the_detail_at_80_columns(world: World, tmp_path: Path) -> None:
    build_site(world)
    async with sites_run(world, tmp_path, size=(80, 24)) as (pilot, app, *_):
        await structure(pilot, app)
        await pilot.press("j", "enter")
        await until_screen(pilot, ReportScreen)
        body = str(app.screen.query_one("#report-body").render())
        assert "user-guide" in body and "yes ★" in body


async def test_wildcard_redirect(world: World, tmp_path: Path) -> None:
    """A wildcard redirect saved from the form is listed and stored as capturing. Slow: the
    editor and the form, two fields typed key by key."""
    site = build_site(world)
    async with sites_run(world, tmp_path) as (pilot, *_):
        pane, form = await open_from_redirects(pilot, "n", FormScreen)
        await type_into(pilot, "source", "/v1")
        await type_into(pilot, "destination", "https://legacy.example.com/v1")
        form.query_one("#field-wildcard").value = True  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        await until(pilot, lambda: "/v1" in [e.source for e in pane.shown])
        assert next(e for e in pane.shown if e.source == "/v1").wildcard
    r = world.client("alice").get(f"/orgs/{world.org}/sites/{site.site}/redirects")
    assert next(x for x in r.json()["items"] if x["source"] == "/v1")["captureWildcard"] is True


async def test_an_untouched_form_leaves_no_draft(world: World, tmp_path: Path) -> None:
    build_site(world)
    async with sites_run(world, tmp_path) as (pilot, _app, notes):
        _, form = await open_from_redirects(pilot, "e", FormScreen)
        assert form.error_of("source") == "" and not form.touched
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("e")
        await until_screen(pilot, FormScreen)
        await settle(pilot)
    assert not any("Restored" in n for n in notes)


async def test_escape_before_the_editor_loaded_leaves_it_and_nothing_breaks(
    world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``escape`` while the editor still waits for the server: back at the sites list,
    which works on. The answer that comes in while the editor is being closed is dropped:
    it was shown into the closing editor, whose widgets were going (the app crashed on a
    missing one in CI)."""
    build_site(world)
    answered = asyncio.Event()
    load = site_editor_screen.load_site_data

    async def slow_load(*args: Any) -> Any:
        data = await load(*args)
        await answered.wait()
        return data

    closing = asyncio.Event()

    def answer_while_closing(message: Message) -> None:
        if closing.is_set() and isinstance(message, events.ScreenSuspend):
            answered.set()  # the editor is leaving (escape), its widgets are still there

    monkeypatch.setattr(site_editor_screen, "load_site_data", slow_load)
    async with sites_run(world, tmp_path, message_hook=answer_while_closing) as run:
        pilot, app = run.pilot, run.app
        sites = await open_sites(pilot)
        await pilot.press("enter")
        editor = await until_screen(pilot, SiteEditorScreen)
        await until(pilot, lambda: editor.workers, "the editor loading")
        closing.set()
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is sites and answered.is_set(), "the list back")
        await until(pilot, lambda: all(w.is_finished for w in editor.workers), "the load ended")
        await settle(pilot)
        assert app.is_running and editor.data is None
        await pilot.press("enter")  # the list works on: the editor opens and loads
        again = await until_screen(pilot, SiteEditorScreen)
        await until(pilot, lambda: again.data is not None, "the editor loaded")
