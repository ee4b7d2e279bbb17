"""The Permissions tab on the demo workspace: ``P`` from Browse, direct grants and everyone
with access with where it comes from, changing grants (confirmed, naming the effect), a
collection's inherited level, a page's access, and the tab read-only for a reader."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI

from gitbook_tui.tui.admin.permissions_tab import PermissionsTab
from gitbook_tui.tui.browse.page_viewer import PageViewer
from gitbook_tui.tui.common.confirm_screen import ConfirmScreen
from gitbook_tui.tui.common.form_screen import FormScreen
from gitbook_tui.tui.common.intents import ShowPermissions
from support.admin_world import (
    admin_app,
    admin_shown,
    demo_id,
    open_admin,
    rows_by_key,
)
from support.tree_world import move_to, visible_labels
from support.waits import until, until_screen

GUIDE = "Tidewater User Guide"


def user_id(demo: FastAPI, email: str) -> str:
    with demo.state.server.storage.read() as tx:
        row = tx.conn.execute(
            "SELECT id FROM docs WHERE kind='user' AND json_extract(data, '$.email')=?", (email,)
        ).fetchone()
    return str(row[0])


def context(tab: PermissionsTab) -> str:
    return str(tab.query_one("#permissions-context").content)


async def test_grants_and_everyone_with_where_access_comes_from(
    demo: FastAPI, tmp_path: Path
) -> None:
    """The guide's grants and everyone with access with their sources; enter tells one person's
    access; removing a grant names who keeps access through what. (The app over the demo:
    several round trips.)"""

    guide, ravi = demo_id(demo, "space", GUIDE), user_id(demo, "ravi@lanternfish.dev")
    tomasz = user_id(demo, "tomasz@lanternfish.dev")
    shown = admin_shown(demo, tmp_path, ShowPermissions(space_id=guide))
    async with shown as (_, pilot, _, tab, notes):
        assert isinstance(tab, PermissionsTab)
        rows = rows_by_key(tab)
        assert rows[f"g:user:{tomasz}"][1:3] == ["tomasz@lanternfish.dev", "edit"]
        teams = [r[0] for k, r in rows.items() if k.startswith("g:team:")]
        assert sorted(teams) == ["Customer support", "Docs guild", "Platform engineering"]
        via = rows[f"a:{ravi}"][3]
        assert "team Platform engineering (edit)" in via and "organization default (edit)" in via
        assert rows[f"a:{ravi}"][2] == "edit"
        maya = rows[f"a:{user_id(demo, 'maya@lanternfish.dev')}"]
        assert maya[2:] == ["admin", "organization admin"]
        assert "Product docs" in context(tab) and "organization role" in context(tab)
        # enter on a person: their access in full (the column cuts it at 80 columns)
        tab.table._set_cursor(tab.shown_keys.index(f"a:{ravi}"))
        await pilot.press("enter")
        await until(pilot, lambda: any("Ravi Chandrasekar: edit on space" in n for n in notes))
        # d on Tomasz's grant: the effect is named, he keeps access through the default
        tab.table._set_cursor(tab.shown_keys.index(f"g:user:{tomasz}"))
        await pilot.press("d")
        confirm = await until_screen(pilot, ConfirmScreen)
        effect = str(confirm._effect)
        assert "direct edit grant of Tomasz Wójcik" in effect
        assert "keeps access through team Customer support (comment)" in effect
        await pilot.press("enter")
        await until(pilot, lambda: f"g:user:{tomasz}" not in tab.shown_keys)
        await until(pilot, lambda: rows_by_key(tab).get(f"a:{tomasz}", [""] * 3)[2] == "comment")


async def test_raising_a_grant_confirms_and_a_new_grant_names_its_effect(
    demo: FastAPI, tmp_path: Path
) -> None:
    """Raising Aiko's grant asks first; a grant typed by email shows who it goes to, then asks
    naming the effect. (Two forms and confirmations over the demo.)"""

    guide, aiko = demo_id(demo, "space", GUIDE), user_id(demo, "aiko@lanternfish.dev")
    devon = user_id(demo, "devon@lanternfish.dev")
    shown = admin_shown(demo, tmp_path, ShowPermissions(space_id=guide))
    async with shown as (_, pilot, _, tab, _):
        tab.table._set_cursor(tab.shown_keys.index(f"a:{aiko}"))  # her own direct grant
        await pilot.press("e")
        form = await until_screen(pilot, FormScreen)
        form.query_one("#field-role").value = "edit"  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        confirm = await until_screen(pilot, ConfirmScreen)
        assert "raises Aiko Mori's grant" in str(confirm._effect) and "from comment to edit" in str(
            confirm._effect
        )
        await pilot.press("enter")
        await until(pilot, lambda: rows_by_key(tab).get(f"g:user:{aiko}", [""] * 3)[2] == "edit")
        await pilot.press("n")
        form = await until_screen(pilot, FormScreen)
        await pilot.press(*"devon@lanternfish")
        await until(pilot, lambda: "member Devon Price" in str(form.query_one("#hint-who").content))
        form.query_one("#field-role").value = "review"  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        confirm = await until_screen(pilot, ConfirmScreen)
        assert f"Devon Price gets review on space “{GUIDE}”" in str(confirm._effect)
        await pilot.press("enter")
        await until(pilot, lambda: f"g:user:{devon}" in tab.shown_keys)


async def test_a_collection_shows_its_inherited_level(demo: FastAPI, tmp_path: Path) -> None:
    """A collection with a default level: members inherit it, and each person's source says so."""

    internal = demo_id(demo, "collection", "Internal")
    shown = admin_shown(demo, tmp_path, ShowPermissions(collection_id=internal))
    async with shown as (_, _, _, tab, _):
        assert isinstance(tab, PermissionsTab)
        assert "members get read (set on this collection)" in context(tab)
        aiko = rows_by_key(tab)[f"a:{user_id(demo, 'aiko@lanternfish.dev')}"]
        assert aiko[2:] == ["read", "organization default (read)"]


async def test_p_on_the_open_page_answers_who_can_see_it(demo: FastAPI, tmp_path: Path) -> None:
    """P on the page open in Browse: its space's permissions, with the page named. (Browse
    first, then the Admin view.)"""

    app = admin_app(demo, tmp_path)
    guide = demo_id(demo, "space", GUIDE)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.browser is not None, timeout=30)
        first = await app.client.content.page_by_path(guide, "")
        app.open_page(guide, first.id)
        browser = app.browser
        assert browser is not None
        await until(pilot, lambda: browser.current_page == (guide, first.id), timeout=20)
        browser.query_one(PageViewer).focus()
        await pilot.press("P")
        shown = lambda: getattr(app.screen, "current", None)  # noqa: E731
        await until(pilot, lambda: isinstance(shown(), PermissionsTab), timeout=20)
        tab = shown()
        await until(pilot, lambda: tab.loaded, timeout=20)
        assert f"Who can see the page “{first.title}”" in context(tab)
        assert f"everyone with access to space “{GUIDE}”" in context(tab)


async def test_a_reader_sees_the_grants_read_only(demo: FastAPI, tmp_path: Path) -> None:
    """Aiko reads the grants; d says why it is not hers to do and opens nothing."""

    guide = demo_id(demo, "space", GUIDE)
    shown = admin_shown(demo, tmp_path, ShowPermissions(space_id=guide), user="aiko")
    async with shown as (app, pilot, _, tab, notes):
        assert any(k.startswith("g:team:") for k in tab.shown_keys)
        assert "read-only" in str(tab.query_one("#permissions-state").content)
        tab.table._set_cursor(
            tab.shown_keys.index(next(k for k in tab.shown_keys if k[:2] == "g:"))
        )
        await pilot.press("d")
        await until(pilot, lambda: any("Only admins of this space" in n for n in notes))
        assert not isinstance(app.screen, ConfirmScreen)


async def test_p_on_a_collection_in_the_tree(demo: FastAPI, tmp_path: Path) -> None:
    """P on a collection row of the tree opens that collection's permissions. (Browse first,
    then the Admin view.)"""

    app = admin_app(demo, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.browser is not None, timeout=30)
        browser = app.browser
        assert browser is not None
        tree = browser.workspace_tree
        await until(pilot, lambda: tree.has_focus and "Internal" in " ".join(visible_labels(tree)))
        await move_to(pilot, tree, "Internal")
        await pilot.press("P")
        await until(pilot, lambda: isinstance(getattr(app.screen, "current", None), PermissionsTab))
        tab = app.screen.current  # type: ignore[attr-defined]
        await until(pilot, lambda: tab.loaded, timeout=20)
        assert "Collection “Internal”" in context(tab)
        assert "members get read (set on this collection)" in context(tab)


async def test_a_space_shared_through_a_team_and_a_collection(
    demo: FastAPI, tmp_path: Path
) -> None:
    """The runbooks: Platform engineering has edit on the space and on its collection
    (Operations), and members inherit read from Internal above."""
    runbooks = demo_id(demo, "space", "Cloud Operations Runbooks")
    async with admin_shown(demo, tmp_path, ShowPermissions(space_id=runbooks)) as (_, _, _, tab, _):
        assert isinstance(tab, PermissionsTab)
        assert "Internal › Operations" in context(tab)
        assert "members get read (from collection “Internal”)" in context(tab)
        via = rows_by_key(tab)[f"a:{user_id(demo, 'ravi@lanternfish.dev')}"][3]
        assert "team Platform engineering (edit)" in via
        assert "collection “Operations”: team Platform engineering (edit)" in via
        assert "organization default (read)" in via


async def test_without_p_the_tab_follows_the_space_open_in_browse(
    demo: FastAPI, tmp_path: Path
) -> None:
    """Shown with ], the tab shows Browse's space, and another one when Browse moved; after
    P it keeps what P chose."""
    app = admin_app(demo, tmp_path)
    guide = demo_id(demo, "space", GUIDE)
    runbooks = demo_id(demo, "space", "Cloud Operations Runbooks")
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.browser is not None, timeout=30)
        app.space_id = guide  # (as a highlighted row of the tree sets it)
        screen = await open_admin(pilot, "permissions")
        tab = screen.current
        assert isinstance(tab, PermissionsTab)
        assert GUIDE in context(tab)
        app.space_id = runbooks
        await pilot.press("left_square_bracket", "right_square_bracket")
        await until(pilot, lambda: tab.loaded and "Runbooks" in context(tab))
        app.navigate(ShowPermissions(space_id=guide))
        await until(pilot, lambda: tab.loaded and GUIDE in context(tab))
        await pilot.press("left_square_bracket", "right_square_bracket")
        await pilot.pause()
        assert GUIDE in context(tab)
