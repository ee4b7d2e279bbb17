"""A starting server (the demo seeding its workspace) shows a progress screen at once,
then the app goes on as usual; a server that cannot start says why."""

from __future__ import annotations

from gitbook_tui.tui.account.starting_screen import StartingScreen
from gitbook_tui.tui.app import GitBookApp
from gitbook_tui.tui.browse.browser_screen import BrowserScreen
from gitbook_tui.tui.common.config import TuiConfig
from gitbook_tui.tui.common.state import StateStore
from support.tree_world import Transport, make_client
from support.waits import until, until_sync


async def test_progress_screen_until_the_server_serves(world, tmp_path):
    ready = {"now": False}
    asked: list[bool] = []
    app = GitBookApp(
        make_client(Transport(world.app)),
        demo=True,
        config=TuiConfig(),
        state_store=StateStore(tmp_path / "state.json"),
        starting=lambda: asked.append(ready["now"]) or ready["now"],
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, StartingScreen))
        text = str(app.screen.query_one("#starting-text").render())
        assert "Preparing the demo workspace" in text
        seen = len(asked)
        await until(pilot, lambda: len(asked) >= seen + 2, "the app to ask twice more")
        assert isinstance(app.screen, StartingScreen)  # still not ready: still the progress
        ready["now"] = True
        await until(pilot, lambda: isinstance(app.screen, BrowserScreen) and app.screen.is_mounted)
        browser = app.screen
        await until(pilot, lambda: bool(browser.workspace_tree.root.children))  # (mounted)


async def test_a_server_that_cannot_start_says_why(world, tmp_path):
    def failing() -> bool:
        raise RuntimeError("the local server did not start: disk full")

    app = GitBookApp(
        make_client(Transport(world.app)),
        demo=True,
        config=TuiConfig(),
        state_store=StateStore(tmp_path / "state.json"),
        starting=failing,
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, StartingScreen))
        await until(
            pilot, lambda: "disk full" in str(app.screen.query_one("#starting-text").render())
        )
        await pilot.press("q")
    assert app.return_code == 0


def test_background_start_serves_and_stops(tmp_path):

    import httpx

    from gitbook_tui.server.background import BackgroundStart

    start = BackgroundStart(tmp_path / "bg.sqlite")
    assert start.url.startswith("http://127.0.0.1:")
    until_sync(start.poll, "the background server to answer", timeout=30)
    assert httpx.get(start.url + "/user").status_code == 401  # it answers
    start.stop()
