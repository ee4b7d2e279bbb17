"""Curated help per focused view (``?``), every binding on ``?`` again; the palette lists the
app's commands first, without Textual's duplicates; the chosen theme is kept."""

from __future__ import annotations

from gitbook_tui.tui.browse.browser_screen import BrowserScreen
from gitbook_tui.tui.common.help_screen import HelpScreen
from support.tree_world import Transport, app_on, browser_ready, make_client, tree_of
from support.waits import until, until_screen


def help_text(app) -> str:
    return "\n".join(str(s.content) for s in app.screen.query(".help-group, .help-table"))


async def test_help_is_curated_for_the_focused_pane(world, workspace, tmp_path):
    app = app_on(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: browser_ready(app))
        tree_of(app).focus()
        await pilot.pause()
        await pilot.press("question_mark")
        await until_screen(pilot, HelpScreen)
        await pilot.pause()
        text = help_text(app)
        groups = [str(s.content) for s in app.screen.query(".help-group")]
        assert groups[0] == "Tree" and groups[-1] == "Everywhere"
        assert "Browser" in groups
        for internal in ("Screen —", "super+c", "help_quit", "Focus Next", "overridden"):
            assert internal not in text, internal
        for binding_id in ("tree.filter", "browser.switch_focus", "app.view.browse", "app.quit"):
            assert binding_id in text, binding_id
        assert "j ↓" in text or "↓ j" in text  # one row per binding, its keys together
        await pilot.press("question_mark")  # ? again: all of them
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen) and app.screen.show_all
        assert "Screen — Browser" in help_text(app)
        await pilot.press("question_mark")
        await until(pilot, lambda: browser_ready(app))


async def _discovered(provider) -> list[str]:
    return [hit.text async for hit in provider.discover()]


async def test_palette_app_commands_once_each_views_and_no_textual_duplicates(
    world, workspace, tmp_path
):
    from gitbook_tui.tui.common.palette import AppCommands

    app = app_on(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: browser_ready(app))
        assert list(app.get_system_commands(app.screen)) == []  # no Keys/Quit/Theme twice
        titles = await _discovered(AppCommands(app.screen))
        assert titles[0] == "Go to Browse"
        assert len(titles) == len(set(titles))
        for title in ("Search", "Help: key bindings", "Theme", "Quit"):
            assert title in titles
        hits = [hit async for hit in AppCommands(app.screen).search("quit")]
        assert hits and all(hit.score > 1 for hit in hits)  # ranked before pages and spaces
        # the view switcher: the current view marked in the status bar
        views = browser_views_text(app)
        assert "1 Browse" in views
        await pilot.press("1")  # the view shown already: nothing changes
        assert isinstance(app.screen, BrowserScreen)


def browser_views_text(app) -> str:
    from textual.widgets import Static

    static = app.screen.query_one("#status-views", Static)
    content = static.content
    assert any("reverse" in str(span.style) for span in content.spans)
    return content.plain


async def test_theme_choice_is_kept_in_config_toml(world, workspace, tmp_path):
    from gitbook_tui.api.config import config_path
    from gitbook_tui.tui.common.config import load_tui_config

    app = app_on(world, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: browser_ready(app))
        assert not config_path().exists()  # nothing written at start
        app.theme = "textual-light"
        await until(pilot, lambda: config_path().exists())
    assert load_tui_config().theme == "textual-light"
    assert oct(config_path().stat().st_mode & 0o777) == "0o600"
    # the next start uses it
    from gitbook_tui.tui.app import GitBookApp
    from gitbook_tui.tui.common.state import StateStore

    again = GitBookApp(
        make_client(Transport(world.app)),
        config=load_tui_config(),
        state_store=StateStore(tmp_path / "state.json"),
    )
    async with again.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: browser_ready(again))
        assert again.theme == "textual-light"


def test_save_theme_leaves_an_unreadable_config_alone(tmp_path):
    from gitbook_tui.tui.common.config import save_theme

    path = tmp_path / "config.toml"
    path.write_text("this is [not toml", encoding="utf-8")
    assert not save_theme("nord", path)
    assert path.read_text(encoding="utf-8") == "this is [not toml"
    path.write_text('[profiles.work]\napi_url = "https://x/v1"\n', encoding="utf-8")
    assert save_theme("nord", path)
    from gitbook_tui.tui.common.config import load_tui_config

    assert load_tui_config(path).theme == "nord"
    assert "profiles" in path.read_text(encoding="utf-8")
