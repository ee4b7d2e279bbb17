"""Curated help per focused view (``?``), every binding on ``?`` again; the palette lists the
app's commands first, without Textual's duplicates; the chosen theme is kept."""

from __future__ import annotations

import test_workspace_tree
from test_workspace_tree import Transport, make_app, make_client, tree_of

from conftest import until
from gitbook_tui.tui.browse.browser_screen import BrowserScreen
from gitbook_tui.tui.common.help_screen import HelpScreen

workspace = test_workspace_tree.workspace  # the fixture


def help_text(app) -> str:
    return "\n".join(str(s.content) for s in app.screen.query(".help-group, .help-table"))


async def test_help_is_curated_for_the_focused_pane(world, workspace, tmp_path):
    app = make_app(make_client(Transport(world.app)), tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, BrowserScreen))
        tree_of(app).focus()
        await pilot.pause()
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
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
        assert "Screen — BrowserScreen" in help_text(app)
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, BrowserScreen))
