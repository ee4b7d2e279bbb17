"""WorkspaceTree: lazy loading over the in-process server, keys, hidden pages, filter, retry."""

from __future__ import annotations

import pytest

from gitbook_tui.tui.app import GitBookApp
from gitbook_tui.tui.browse.browser_screen import BrowserScreen
from gitbook_tui.tui.browse.tree.workspace_tree import WorkspaceTree
from gitbook_tui.tui.common.status_bar import StatusBar
from support.notes import notes_of
from support.tree_world import (
    app_and_transport,
    app_on,
    cursor_label,
    expand,
    find_node,
    move_to,
    record_web_browser,
    reveal_space,
    tree_showing,
    until_browser,
    visible_labels,
)
from support.waits import until, until_screen


async def test_navigation_org_collection_space_page(world, workspace, tmp_path):
    app, transport = app_and_transport(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        tree = (await until_browser(pilot, app)).workspace_tree
        # the only organization opens expanded: top collections and root spaces
        await until(pilot, lambda: "▤ Product" in visible_labels(tree))
        labels = visible_labels(tree)
        assert labels[0] == "Acme Docs"
        assert labels.index("▤ Product") < labels.index("📝 Notes")
        assert "▤ Guides" not in labels  # nested under Product, not loaded yet
        await expand(pilot, tree, "Product")
        await until(pilot, lambda: "▤ Guides" in visible_labels(tree))
        await move_to(pilot, tree, "Guides")
        await pilot.press("right")
        await until(pilot, lambda: "□ Handbook" in visible_labels(tree))
        await expand(pilot, tree, "Handbook")
        await until(pilot, lambda: "Intro" in visible_labels(tree))
        assert "Secret" not in visible_labels(tree)  # hidden pages are hidden
        await expand(pilot, tree, "Intro")  # l on a page with sub-pages expands and opens it
        await until(pilot, lambda: "Install" in visible_labels(tree))
        browser = app.screen
        assert isinstance(browser, BrowserScreen)
        await until(pilot, lambda: browser.header.title_text == "Intro")
        await pilot.press("j")
        assert cursor_label(tree) == "Install"
        await pilot.press("l")  # l on a leaf page opens it, and the page takes the focus
        await until(pilot, lambda: browser.header.title_text == "Install")
        assert browser.viewer.has_focus
        await pilot.press("h")  # h at the page's left edge: back to the tree
        assert tree.has_focus
        assert (
            browser.header.breadcrumb.text
            == "Acme Docs / Product / Guides / Handbook / Intro / Install"  # ends with the title
        )
        # k / h: up to Intro, collapse it, h again goes to the parent space
        await pilot.press("k")
        assert cursor_label(tree) == "Intro"
        await pilot.press("h")
        assert "Install" not in visible_labels(tree)
        await pilot.press("h")
        assert cursor_label(tree) == "□ Handbook"
        await pilot.press("enter")  # enter on a space toggles it
        assert "Intro" not in visible_labels(tree)
        # the space page loads were one request per node, none repeated for collapsing
        assert transport.requests.count(f"/v1/spaces/{workspace['handbook']}/content/pages") == 1


async def test_hidden_pages_toggle_with_dot(world, workspace, tmp_path):
    app = app_on(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        tree = (await until_browser(pilot, app)).workspace_tree
        assert await tree.reveal(await app.client.spaces.get(workspace["handbook"]))
        await pilot.pause()
        assert "Intro" in visible_labels(tree)
        assert "Secret" not in visible_labels(tree)
        await pilot.press("full_stop")
        assert "Secret" in visible_labels(tree)
        node = find_node(tree, "Secret")
        assert "dim" in str(node.label.spans[0].style)
        await pilot.press("full_stop")
        assert "Secret" not in visible_labels(tree)


async def test_slash_filter_shows_matches_with_ancestors(world, workspace, tmp_path):
    app = app_on(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        tree = (await reveal_space(pilot, app, workspace["handbook"])).workspace_tree
        box = app.screen.query_one("#tree-filter")
        await pilot.press("i")  # a letter alone never starts a filter
        assert not box.display and tree.filter_text == ""
        await pilot.press("slash", "i", "n", "S", "t")
        assert box.display and box.has_focus
        assert box.value == "inSt"
        await until(pilot, lambda: tree.filter_text == "inSt")
        # matches case-insensitively, with their ancestors; nothing else
        assert visible_labels(tree) == [
            "Acme Docs",
            "▤ Product",
            "▤ Guides",
            "□ Handbook",
            "Intro",
            "Install",
        ]
        assert cursor_label(tree) == "Install"  # the cursor is on the first match
        await pilot.press("escape")
        assert tree.filter_text == ""
        assert not box.display
        assert tree.has_focus
        assert "📝 Notes" in visible_labels(tree)
        # "/" opens an empty filter; enter on a space reveals it in the whole tree
        await pilot.press("slash")
        assert box.display and box.has_focus and box.value == ""
        await pilot.press("n", "o", "t", "e", "s", "enter")
        assert tree.has_focus and not box.display
        assert "▤ Product" in visible_labels(tree)
        assert cursor_label(tree) == "📝 Notes"


@pytest.mark.parametrize("failure", [500, "connect"])
async def test_lazy_load_failure_shows_on_node_and_r_retries(world, workspace, tmp_path, failure):
    app, transport = app_and_transport(world, tmp_path)
    transport.fail[f"/collections/{workspace['product']}/spaces"] = failure
    async with app.run_test(size=(120, 40)) as pilot:
        tree = await tree_showing(pilot, app, "▤ Product")
        notes = notes_of(app)
        await expand(pilot, tree, "Product")
        await until(pilot, lambda: "⚠ could not load — r to retry" in visible_labels(tree))
        assert app.is_running
        assert any("Could not load Product" in str(n) for n in notes)
        if failure == 500:
            # the server's message is shown literally (inert), not run as markup
            assert any("[@click=app.quit]boom" in str(n) for n in notes)
        await pilot.press("j")  # onto the error line
        await pilot.press("r")
        await until(pilot, lambda: "▤ Guides" in visible_labels(tree))
        assert "⚠ could not load — r to retry" not in visible_labels(tree)


async def test_expanding_two_nodes_loads_both(world, workspace, tmp_path):
    """Loads are exclusive per node: expanding a second node does not cancel the first."""
    app = app_on(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        tree = await tree_showing(pilot, app, "📝 Notes")
        await expand(pilot, tree, "Product")
        await expand(pilot, tree, "Notes")
        await until(pilot, lambda: "▤ Guides" in visible_labels(tree))
        await until(pilot, lambda: "(empty)" in visible_labels(tree))


@pytest.mark.local_fetches  # the import reads a tmp_path folder
async def test_group_and_link_pages(world, tmp_path, monkeypatch):
    folder = tmp_path / "sync"
    folder.mkdir()
    (folder / "README.md").write_text("# Home\n")
    (folder / "a.md").write_text("# A\n")
    (folder / "SUMMARY.md").write_text(
        "# Summary\n\n* [Home](README.md)\n\n## Group One\n\n"
        "* [A](a.md)\n* [Example site](https://example.com/docs)\n"
    )
    a = world.client("alice")
    space = a.post(f"/orgs/{world.org}/spaces", json={"title": "Synced"}).json()
    r = a.post(
        f"/spaces/{space['id']}/content/import",
        json={"url": folder.as_uri(), "source": "git-sync"},
    )
    assert r.status_code == 201, r.text
    opened = record_web_browser(monkeypatch)
    app = app_on(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        tree = await tree_showing(pilot, app, "□ Synced")
        await expand(pilot, tree, "Synced")
        await until(pilot, lambda: "Group One" in visible_labels(tree))
        labels = visible_labels(tree)
        assert labels[labels.index("Group One") + 1 :][:2] == ["A", "↗ Example site"]
        await move_to(pilot, tree, "Group One")
        assert "bold" in str(find_node(tree, "Group One").label.spans[0].style)
        await pilot.press("enter")  # a group is not openable: enter collapses it
        assert "A" not in visible_labels(tree)
        await pilot.press("enter")
        await move_to(pilot, tree, "Example site")
        await pilot.press("enter")  # a link page is only offered...
        await pilot.pause()
        browser = app.screen
        assert isinstance(browser, BrowserScreen)
        assert browser.pending_url == "https://example.com/docs"
        assert opened == []
        await pilot.press("o")  # ...and opened on the explicit key
        assert opened == ["https://example.com/docs"]


async def test_status_bar_shows_user_org_and_freshness(world, workspace, tmp_path):
    app = app_on(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await until_browser(pilot, app)
        status = app.screen.query_one(StatusBar)
        await until(pilot, lambda: "Eve" in status.text and "Acme Docs" in status.text)
        await until(pilot, lambda: status.connection_text == "online")
        assert status.age_text.startswith("updated ") and status.age_text.endswith(" ago")


async def test_pagination_is_followed_to_the_end(world, tmp_path, monkeypatch):
    from gitbook_tui.tui.browse.tree import loading as tree_loading

    monkeypatch.setattr(tree_loading, "PAGE_SIZE", 100)  # the tree asks for pages of 100
    a = world.client("alice")
    for i in range(105):
        r = a.post(f"/orgs/{world.org}/spaces", json={"title": f"Space {i:03d}"})
        assert r.status_code == 201
    app, transport = app_and_transport(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        tree = await tree_showing(pilot, app, "□ Space 104")
        assert len([label for label in visible_labels(tree) if "Space " in label]) == 105
        assert transport.requests.count(f"/v1/orgs/{world.org}/spaces") == 2


async def test_bindings_all_have_ids():
    for cls in (WorkspaceTree, BrowserScreen, GitBookApp):
        for binding in cls.BINDINGS:
            assert getattr(binding, "id", None), (cls.__name__, binding)


async def test_offline_without_cache_shows_error_and_recovers(world, workspace, tmp_path):
    app, transport = app_and_transport(world, tmp_path)
    transport.offline = True
    async with app.run_test(size=(120, 40)) as pilot:
        tree = (await until_browser(pilot, app)).workspace_tree
        status = app.screen.query_one(StatusBar)
        await until(pilot, lambda: visible_labels(tree) == ["⚠ could not load — r to retry"])
        await until(pilot, lambda: status.connection_text == "offline")
        assert status.age_text == ""  # no data shown, so no age
        transport.offline = False
        tree.focus()
        tree.cursor_line = 0
        await pilot.press("r")
        await until(pilot, lambda: "▤ Product" in visible_labels(tree))
        await until(pilot, lambda: status.connection_text == "online")


async def test_first_keys_go_to_the_tree_not_the_hidden_filter(world, workspace, tmp_path):
    from gitbook_tui.tui.search.search_screen import SearchScreen

    app = app_on(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await until_browser(pilot, app)
        await pilot.press("s")
        await until_screen(pilot, SearchScreen)
        assert app.browser is not None and app.browser.workspace_tree.filter_text == ""
