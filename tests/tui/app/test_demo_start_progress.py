"""A starting server (the demo seeding its workspace) shows a progress screen at once,
then the app goes on as usual; a server that cannot start says why."""

from __future__ import annotations

from gitbook_tui.tui.account.starting_screen import StartingScreen
from gitbook_tui.tui.app import GitBookApp
from gitbook_tui.tui.browse.browser_screen import BrowserScreen
from gitbook_tui.tui.common.config import TuiConfig
from gitbook_tui.tui.common.state import StateStore
from support.notes import notes_of
from support.tree_world import Transport, make_client
from support.waits import until, until_screen, until_sync


def demo_app(world, tmp_path, starting, *, warm: bool = False) -> GitBookApp:
    """The demo app over ``world`` whose server is starting: ``starting`` says if it serves
    yet (or raises why it cannot start); ``warm``, the server already holds its data."""
    return GitBookApp(
        make_client(Transport(world.app)),
        demo=True,
        config=TuiConfig(),
        state_store=StateStore(tmp_path / "state.json"),
        starting=starting,
        starting_warm=warm,
    )


def failing() -> bool:
    raise RuntimeError("the local server did not start: disk full")


async def test_progress_screen_until_the_server_serves(world, tmp_path):
    ready = {"now": False}
    asked: list[bool] = []
    app = demo_app(world, tmp_path, lambda: asked.append(ready["now"]) or ready["now"])
    async with app.run_test(size=(80, 24)) as pilot:
        await until_screen(pilot, StartingScreen)
        text = str(app.screen.query_one("#starting-text").render())
        assert "Preparing the demo workspace" in text
        seen = len(asked)
        await until(pilot, lambda: len(asked) >= seen + 2, "the app to ask twice more")
        assert isinstance(app.screen, StartingScreen)  # still not ready: still the progress
        ready["now"] = True
        browser = await until_screen(pilot, BrowserScreen)
        await until(pilot, lambda: bool(browser.workspace_tree.root.children))  # (mounted)


async def test_a_server_that_cannot_start_says_why(world, tmp_path):
    app = demo_app(world, tmp_path, failing)
    async with app.run_test(size=(80, 24)) as pilot:
        await until_screen(pilot, StartingScreen)
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


async def test_a_warm_server_opens_the_browser_at_once(world, tmp_path):
    """A server with its data already (a seeded demo) queues requests on its socket until it
    serves: the app opens the browser at once instead of the progress screen."""
    app = demo_app(world, tmp_path, lambda: False, warm=True)  # still importing: not serving
    async with app.run_test(size=(80, 24)) as pilot:
        # (the server never says it serves here: a progress screen would stay up for good)
        browser = await until_screen(pilot, BrowserScreen)
        await until(pilot, lambda: bool(browser.workspace_tree.root.children))
        assert not any(isinstance(screen, StartingScreen) for screen in app.screen_stack)


async def test_a_warm_server_that_cannot_start_says_why(world, tmp_path):
    app = demo_app(world, tmp_path, failing, warm=True)
    notes = notes_of(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: any("disk full" in note for note in notes))
        assert isinstance(app.screen, BrowserScreen)  # the app goes on (from its cache)


def test_a_seeded_demo_database_is_warm(tmp_path):
    from gitbook_tui.server.background import holds_demo
    from gitbook_tui.server.core.storage import Storage
    from gitbook_tui.server.demo.seed import SEED_PHASE

    db = tmp_path / "demo.sqlite"
    assert not holds_demo(db)  # no file
    db.write_bytes(b"not a database")
    assert not holds_demo(db)
    db.unlink()
    storage = Storage(db)
    assert not holds_demo(db)  # a database, nothing seeded
    with storage.transaction() as tx:
        tx.set_meta(SEED_PHASE, "structure")
    storage.close()
    assert holds_demo(db)
