"""The interaction kit in the Sites view (issue 21): ``/``-``enter``-``escape`` in every list
(enter opens the highlighted match, the filter stays applied, escape clears it before going
back, the count is the count listed), truthful dialog footers, ``tab`` only among a
dialog's fields, the Structure tab's pane switch and focus marker, and the kit's list keys in
the dialogs' lists."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.screen import Screen
from textual.widgets import Input, Static

from gitbook_tui.tui.browse.browser_screen import BrowserScreen
from gitbook_tui.tui.common.confirm_screen import ConfirmScreen
from gitbook_tui.tui.common.filter_box import FilterBox
from gitbook_tui.tui.common.form_screen import FormScreen
from gitbook_tui.tui.common.hint_footer import HintFooter
from gitbook_tui.tui.common.pane_group import PANE_CLASS
from gitbook_tui.tui.sites.lint_screen import LintScreen
from gitbook_tui.tui.sites.pick_screen import PickScreen
from gitbook_tui.tui.sites.report_screen import ReportScreen
from gitbook_tui.tui.sites.site_editor_screen import SiteEditorScreen
from gitbook_tui.tui.sites.structure_pane import StructureList, StructurePane
from gitbook_tui.tui.textual_compat import FooterKey
from support.sites_world import (
    build_site,
    grouped_site,
    open_editor,
    open_sites,
    redirects_pane,
    sites_run,
    titles,
)
from support.waits import settle, until, until_screen
from support.worlds import World


def footer_texts(screen: Screen[Any]) -> list[str]:
    """The keys the screen's footer shows, as "key description"."""
    return [
        f"{k.key_display} {k.description}"
        for footer in screen.query(HintFooter)
        for k in footer.query(FooterKey)
    ]


def text_of(screen: Screen[Any], selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


def add_sites(world: World, *titles_: str) -> None:
    for title in titles_:
        r = world.client("alice").post(
            f"/orgs/{world.org}/sites", json={"title": title, "visibility": "public"}
        )
        assert r.status_code == 201, r.text


# -- the filter rule --------------------------------------------------------------------------
async def test_sites_list_enter_opens_the_match_and_keeps_the_filter(
    world: World, tmp_path: Path
) -> None:
    """``/handbook``, ``↓`` to the second match, ``enter`` opens its editor; back, the filter is
    still applied and listed as "2 of 3"; escape clears it, the next escape leaves. Slow: opens an
    editor and comes back."""
    build_site(world)
    add_sites(world, "Beta Handbook", "Gamma Handbook")
    async with sites_run(world, tmp_path, size=(100, 30)) as (pilot, app, *_):
        sites = await open_sites(pilot)
        await pilot.press("slash", *"handbook")
        await until(pilot, lambda: len(sites.shown) == 2)
        state = text_of(sites, "#sites-state")
        assert "2 of 3 sites match “handbook”" in state and "enter opens" in state
        await pilot.press("down")  # in the box: the second match, the box keeps the focus
        assert sites.query_one(FilterBox).has_focus
        await pilot.press("enter")
        editor = await until_screen(pilot, SiteEditorScreen)
        assert editor.site.title == "Gamma Handbook"
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is sites and sites.loaded)
        await settle(pilot)
        box = sites.query_one(FilterBox)
        assert box.value == "handbook" and box.display  # the filter stays applied
        assert [s.title for s in sites.shown] == ["Beta Handbook", "Gamma Handbook"]
        assert sites.query_one("#sites-table").has_focus
        await pilot.press("escape")  # a kept filter is cleared first
        await until(pilot, lambda: len(sites.shown) == 3)
        assert app.screen is sites and not box.display
        await pilot.press("slash", *"zzz")
        await until(pilot, lambda: not sites.shown)
        assert "No matches for “zzz” — escape clears the filter" in text_of(sites, "#sites-state")
        await pilot.press("escape", "escape")
        await until_screen(pilot, BrowserScreen)


async def test_structure_enter_in_the_filter_opens_the_match(world: World, tmp_path: Path) -> None:
    """At 80 columns ``enter`` in the structure filter shows the match's detail full screen;
    the filter stays, its count is the rows listed; an empty box left open is cleared by escape
    before the editor closes. Slow: a filter, a dialog and four escapes in one editor."""
    grouped_site(world)
    async with sites_run(world, tmp_path, size=(80, 24)) as (pilot, app, *_):
        editor = await open_editor(pilot)
        pane = editor.query_one(StructurePane)
        await until(pilot, lambda: len(pane.rows) == 6)
        await pilot.press("slash", *"refer")
        await until(pilot, lambda: titles(pane) == ["Products", "Reference", "API Reference"])
        count = text_of(editor, "#structure-count")
        assert "3 of 6 rows for “refer”" in count and "escape clears" in count
        await pilot.press("down", "enter")  # the next match, opened
        report = await until_screen(pilot, ReportScreen)
        assert report.report_title == "API Reference"
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is editor)
        assert titles(pane) == ["Products", "Reference", "API Reference"]  # still applied
        assert pane.query_one(StructureList).has_focus
        await pilot.press("escape")
        await until(pilot, lambda: len(pane.rows) == 6)
        assert app.screen is editor
        await pilot.press("slash", "enter")  # an empty filter opens the row, the box stays
        await until_screen(pilot, ReportScreen)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is editor)
        assert pane.query_one(FilterBox).display
        await pilot.press("escape")  # the open box first (it closed the editor)
        await until(pilot, lambda: not pane.query_one(FilterBox).display)
        assert app.screen is editor
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is not editor)


async def test_redirects_enter_opens_the_match_and_escape_clears_a_kept_filter(
    world: World, tmp_path: Path
) -> None:
    """Redirects: the count is the count listed, ``enter`` opens the highlighted match (where it
    lands), escape clears a kept filter before it closes the editor (it closed it). Slow: a
    filter, a report and three escapes in one editor."""
    build_site(world)
    async with sites_run(world, tmp_path) as (pilot, app, *_):
        editor = await open_editor(pilot)
        await pilot.press("right_square_bracket")
        pane = redirects_pane(editor)
        await pilot.press("slash", *"old")
        await until(pilot, lambda: len(pane.shown) == 3)
        summary = text_of(editor, "#redirects-summary")
        assert summary.startswith("3 of 5 redirects match “old”")
        await pilot.press("down", "enter")
        report = await until_screen(pilot, ReportScreen)
        assert report.report_title == "Redirect /old-trouble"
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is editor)
        assert len(pane.shown) == 3 and pane.query_one("#redirects-table").has_focus
        await pilot.press("escape")  # the kept filter first
        await until(pilot, lambda: len(pane.shown) == 5)
        assert app.screen is editor
        await pilot.press("slash", *"zzz")
        await until(pilot, lambda: not pane.shown)
        assert "No matches for “zzz” — escape clears the filter" in text_of(
            editor, "#redirects-summary"
        )
        await pilot.press("escape", "escape")
        await until(pilot, lambda: app.screen is not editor)


# -- wording ----------------------------------------------------------------------------------
async def test_structure_footer_reads_unambiguously(world: World, tmp_path: Path) -> None:
    """The footer read "d Remove space Move": ``space`` now leads, as "space Grab/move". Slow
    at times: an editor opened for its footer."""
    build_site(world)
    async with sites_run(world, tmp_path) as (pilot, *_):
        editor = await open_editor(pilot)
        await settle(pilot)
        keys = footer_texts(editor)
        assert "space Grab/move" in keys and "d Remove" in keys
        # no description followed by the key "space": it read "d Remove space Move"
        assert keys.index("space Grab/move") == 0


async def test_tool_dialogs_footers_say_what_their_keys_do(world: World, tmp_path: Path) -> None:
    """Test path and Import keep no draft: their footers say Test / Dry run and Cancel, and no
    hand-written key line repeats (or contradicts) the footer. Slow: two dialogs."""
    build_site(world)
    async with sites_run(world, tmp_path) as (pilot, *_):
        await open_editor(pilot)
        await pilot.press("right_square_bracket", "t")
        form = await until_screen(pilot, FormScreen)
        await settle(pilot)
        keys = footer_texts(form)
        assert "^s Test" in keys and "esc Cancel" in keys
        assert not any("draft" in k or "save" in k.lower() for k in keys)
        assert not any("draft kept" in str(s.render()) for s in form.query(Static))
        await pilot.press("escape")
        await pilot.press("I")
        form = await until_screen(pilot, FormScreen)
        await settle(pilot)
        keys = footer_texts(form)
        assert "^s Dry run" in keys and "esc Cancel" in keys
        assert not any("draft" in k for k in keys)


async def test_a_wildcard_redirect_reads_as_one(world: World, tmp_path: Path) -> None:
    """A wildcard (``captureWildcard`` on the bare source ``/v1``) shows as ``/v1/*``, never
    "/v1 …" (read as cut text); the summary says what ``/*`` means."""
    site = build_site(world)
    body = {
        "source": "/v1",
        "destination": {"kind": "external", "url": "https://legacy.example.com/v1"},
        "captureWildcard": True,
    }
    r = world.client("alice").post(f"/orgs/{world.org}/sites/{site.site}/redirects", json=body)
    assert r.status_code == 201, r.text
    async with sites_run(world, tmp_path, size=(80, 24)) as (pilot, *_):
        editor = await open_editor(pilot)
        await pilot.press("right_square_bracket")
        pane = redirects_pane(editor)
        await until(pilot, lambda: len(pane.shown) == 6)
        table = pane.query_one("#redirects-table")
        sources = [str(table.get_row_at(i)[0]) for i in range(6)]  # type: ignore[attr-defined]
        assert "/v1/*" in sources and not any("…" in s for s in sources)
        assert "/* and every path below" in text_of(editor, "#redirects-summary")


# -- focus never lands nowhere ----------------------------------------------------------------
async def test_tab_in_the_import_dialog_keeps_what_is_typed(world: World, tmp_path: Path) -> None:
    """``tab`` in the one-field Import dialog stays in the field: the next typed text lands
    there (it went nowhere). In the five-field redirect form ``tab`` cycles the fields only.
    Slow: two dialogs typed into key by key."""
    build_site(world)
    async with sites_run(world, tmp_path) as (pilot, *_):
        await open_editor(pilot)
        await pilot.press("right_square_bracket", "I")
        form = await until_screen(pilot, FormScreen)
        field = form.query_one("#field-file", Input)
        await pilot.press(*"abc", "tab", *"def", "shift+tab", *"gh")
        await pilot.pause()
        assert field.value == "abcdefgh" and field.has_focus
        await pilot.press("escape")
        await pilot.press("n")
        form = await until_screen(pilot, FormScreen)
        seen = []
        for _ in range(6):
            seen.append(form.focused.id if form.focused else None)
            await pilot.press("tab")
        assert seen == [
            "field-source",
            "field-destination",
            "field-permanent",
            "field-draft",
            "field-wildcard",
            "field-source",
        ]


# -- panes ------------------------------------------------------------------------------------
async def test_structure_list_and_detail_switch_with_the_kit_keys(
    world: World, tmp_path: Path
) -> None:
    """At 120 columns the Structure tab shows the list and the detail: the kit's pane keys
    switch between them and the focus marker (kit-pane) follows; ``enter`` drills into the
    detail, escape comes back; ``[``/``]`` still switch tabs. Slow: eight key rounds."""
    build_site(world)
    async with sites_run(world, tmp_path) as (pilot, app, *_):
        editor = await open_editor(pilot)
        pane = editor.query_one(StructurePane)
        listing, detail = pane.query_one(StructureList), pane.query_one("#structure-side")
        assert listing.has_class(PANE_CLASS) and detail.has_class(PANE_CLASS)
        assert listing.has_focus
        for key in ("tab", "w", "ctrl+w", "f6", "shift+tab"):
            await pilot.press(key)
            assert detail.has_focus, key
            assert detail.styles.border_left[0] != listing.styles.border_left[0]
            await pilot.press(key)
            assert listing.has_focus, key
        await pilot.press("enter")
        assert detail.has_focus
        await pilot.press("space")  # the pane's grab, not a reader's page down
        assert pane.grabbed is not None
        await pilot.press("escape")  # the grab is cancelled by the pane
        assert pane.grabbed is None and detail.has_focus
        await pilot.press("escape")
        assert listing.has_focus and app.screen is editor
        await pilot.press("right_square_bracket")
        assert editor.tab == "redirects"
        await pilot.press("tab")  # one pane here: the focus stays on the table
        assert redirects_pane(editor).query_one("#redirects-table").has_focus
        await pilot.press("left_square_bracket")
        assert editor.tab == "structure" and listing.has_focus


async def test_at_80_columns_the_pane_switch_names_the_key_that_shows_the_detail(
    world: World, tmp_path: Path
) -> None:
    """The detail is hidden at 80 columns: ``tab`` keeps the focus on the list and says that
    ``enter`` shows it. Slow at times: an editor opened for one key."""
    build_site(world)
    async with sites_run(world, tmp_path, size=(80, 24)) as (pilot, _, notes):
        editor = await open_editor(pilot)
        listing = editor.query_one(StructureList)
        await pilot.press("tab")
        await pilot.pause()
        assert listing.has_focus
        assert any("enter shows it" in n for n in notes)


# -- lint remembers: it stays open, lints again, names what a fix changes -------------------
def highlight(lint: LintScreen, kind: str, source: str) -> None:
    index = [(f.kind, f.redirect.source) for f in lint.findings].index((kind, source))
    lint.query_one("#lint-list").highlighted = index  # type: ignore[attr-defined]


async def test_lint_stays_open_lints_again_and_names_what_a_fix_changes(
    world: World, tmp_path: Path
) -> None:
    """/v0/setup → /setup → /old-install → Install. The preview of fixing /setup names what
    stays (/v0/setup, now a chain of 2) and that nothing new appears; after the fix the lint is
    still open, linted again, and says so. An edit that makes a new finding (a source that is a
    live page) marks it "new"; a delete keeps the lint open too. Slow: three fixes through
    their dialogs."""
    site = build_site(world)
    body = {"source": "/v0/setup", "destination": {"kind": "external", "url": f"{site.url}/setup"}}
    r = world.client("alice").post(f"/orgs/{world.org}/sites/{site.site}/redirects", json=body)
    assert r.status_code == 201, r.text
    async with sites_run(world, tmp_path) as (pilot, app, *_):
        editor = await open_editor(pilot)
        await pilot.press("right_square_bracket", "L")
        lint = await until_screen(pilot, LintScreen)
        highlight(lint, "chain", "/setup")
        await pilot.pause()
        preview = text_of(lint, "#lint-preview")
        assert "point /setup at User Guide › Install: fixes 1" in preview
        assert "then /v0/setup is a chain of 2" in preview and "creates no new finding" in preview
        await pilot.press("enter")
        form = await until_screen(pilot, FormScreen)
        assert form.values()["destination"] == "/install"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: app.screen is lint)  # still open
        await until(pilot, lambda: "After editing /setup" in text_of(lint, "#lint-result"))
        result = text_of(lint, "#lint-result")
        assert "1 fixed" in result and "none new" in result
        assert "/v0/setup is a chain of 2" in result and "chain of 3" in result
        assert ("chain", "/setup") not in [(f.kind, f.redirect.source) for f in lint.findings]
        # an edit of the user's own making: the new finding is named and marked
        highlight(lint, "gone", "/old-trouble")
        await pilot.pause()
        assert "you choose where it points" in text_of(lint, "#lint-preview")
        await pilot.press("enter")
        form = await until_screen(pilot, FormScreen)
        for name, value in (("source", "/configure"), ("destination", "/install")):
            form.query_one(f"#field-{name}", Input).value = value
        await pilot.pause()
        await pilot.press("ctrl+s")
        await until(pilot, lambda: "After editing /old-trouble" in text_of(lint, "#lint-result"))
        assert app.screen is lint
        assert "1 new (marked below)" in text_of(lint, "#lint-result")
        assert [(f.kind, f.redirect.source) for f in lint.last_diff.new] == [  # type: ignore[union-attr]
            ("shadowed", "/configure")
        ]
        listing = lint.query_one("#lint-list")
        marked = [
            str(listing.get_option_at_index(i).prompt)  # type: ignore[attr-defined]
            for i in range(len(lint.findings))
        ]
        assert [m for m in marked if "new since the fix" in m] == [
            m for m in marked if "/configure is a live page" in m
        ]
        # a delete: confirmed over the lint, which stays
        highlight(lint, "shadowed", "/install")
        await pilot.press("enter")
        await until_screen(pilot, ConfirmScreen)
        await pilot.press("enter")
        await until(pilot, lambda: "After deleting /install" in text_of(lint, "#lint-result"))
        assert app.screen is lint
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is editor)


# -- the kit's list keys in the dialogs -------------------------------------------------------
async def test_dialog_lists_move_with_the_kit_keys(world: World, tmp_path: Path) -> None:
    """``G``/``g`` in the lint list and the pick list (they knew only j/k). Slow: two dialogs."""
    build_site(world)
    async with sites_run(world, tmp_path) as (pilot, *_):
        await open_editor(pilot)
        await pilot.press("n")
        pick = await until_screen(pilot, PickScreen)
        options = pick.query_one("#pick-list")
        await pilot.press("G")
        assert options.highlighted == 1  # type: ignore[attr-defined]
        await pilot.press("g")
        assert options.highlighted == 0  # type: ignore[attr-defined]
        await pilot.press("escape")
        await pilot.press("right_square_bracket", "L")
        lint = await until_screen(pilot, LintScreen)
        listing = lint.query_one("#lint-list")
        await pilot.press("G")
        assert listing.highlighted == len(lint.findings) - 1  # type: ignore[attr-defined]
        await pilot.press("g")
        assert listing.highlighted == 0  # type: ignore[attr-defined]
