"""WelcomeScreen: shown without a token; a token is checked, stored, and the app goes on;
ctrl+d asks ``run_app`` for the demo."""

from __future__ import annotations

import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from gitbook_tui.api import AsyncGitBook
from gitbook_tui.api.config import config_path, load_config
from gitbook_tui.tui.account.welcome_screen import WelcomeScreen
from gitbook_tui.tui.app import RESULT_DEMO, GitBookApp
from gitbook_tui.tui.browse.browser_screen import BrowserScreen
from gitbook_tui.tui.common.config import TuiConfig
from gitbook_tui.tui.common.state import StateStore, account_key
from support.waits import until, until_screen

BASE = "http://testserver/v1"


@pytest.fixture(autouse=True)
def _no_keyring(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tokens go to the (isolated) config file, never the real OS keyring."""
    monkeypatch.setattr("gitbook_tui.api.auth.keyring_usable", lambda: False)
    monkeypatch.setattr("gitbook_tui.api.config.keyring_token", lambda profile: None)


def tokenless_app(world: Any, tmp_path: Path) -> GitBookApp:
    transport = httpx.ASGITransport(app=world.app)
    client = AsyncGitBook(base_url=BASE, transport=transport, max_retries=0)
    assert not client.has_token
    return GitBookApp(
        client,
        config=TuiConfig(),
        state_store=StateStore(tmp_path / "state.json"),
        transport=transport,
    )


def status_text(app: GitBookApp) -> str:
    return str(app.screen.query_one("#welcome-error").render())


async def test_welcome_screen_without_token(world, tmp_path):
    app = tokenless_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await until_screen(pilot, WelcomeScreen)
        token_box = app.screen.query_one("#welcome-token")
        assert token_box.has_focus
        assert token_box.password
        assert app.screen.query_one("#welcome-url").value == BASE
        intro = str(app.screen.query_one("#welcome-intro").render())
        assert "API token" in intro
        # enter with nothing typed asks for a token
        await pilot.press("enter")
        assert "Paste a token first" in status_text(app)


async def test_rejected_token_stores_nothing(world, tmp_path):
    app = tokenless_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await until_screen(pilot, WelcomeScreen)
        await pilot.press(*"tok-nobody", "enter")
        await until(pilot, lambda: "rejected" in status_text(app))
        assert isinstance(app.screen, WelcomeScreen)
    assert not config_path().exists()


async def test_accepted_token_is_stored_and_opens_the_browser(world, tmp_path):
    app = tokenless_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await until_screen(pilot, WelcomeScreen)
        await pilot.press(*"tok-eve", "enter")
        browser = await until_screen(pilot, BrowserScreen)
        assert app.client.has_token
        await until(pilot, lambda: "Eve" in browser.status.text)
    stored = load_config()
    assert stored["profiles"]["default"] == {"api_url": BASE, "token": "tok-eve"}
    assert stat.S_IMODE(config_path().stat().st_mode) == 0o600


async def test_ctrl_d_asks_for_the_demo(world, tmp_path):
    app = tokenless_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await until_screen(pilot, WelcomeScreen)
        await pilot.press("ctrl+d")
        await until(pilot, lambda: not app.is_running)
    assert app.return_value == RESULT_DEMO


@dataclass
class CliRuns:
    """What ``cli.main`` started with the app and the demo server faked."""

    events: list[bool] = field(default_factory=list)
    """Each app's ``demo`` flag as it is made, and False for each demo server stopped."""
    clients: list[AsyncGitBook] = field(default_factory=list)
    ports: list[object] = field(default_factory=list)
    """The port each demo server start preferred."""


def fake_app_and_demo_server(
    monkeypatch: pytest.MonkeyPatch, *, token: str, first_run_asks_for_demo: bool
) -> CliRuns:
    """Stand fakes in for the app and the background demo server (whose owner token is
    ``token``); the first app's run asks for the demo when ``first_run_asks_for_demo``."""
    import gitbook_tui.server.background as runner
    import gitbook_tui.tui.app as app_module

    runs = CliRuns()

    class FakeApp:
        def __init__(
            self,
            client: AsyncGitBook,
            *,
            demo: bool,
            start: object,
            starting: object = None,
            starting_warm: bool = False,
            start_view: str | None = None,
            resume_collections: object = None,
        ) -> None:
            runs.events.append(demo)
            runs.clients.append(client)
            self.return_code = 0

        async def run_async(self) -> str | None:  # (run by run_keeping_drafts)
            return RESULT_DEMO if first_run_asks_for_demo and len(runs.clients) == 1 else None

    class Handle:
        url = BASE
        warm = False  # a fresh demo database: the app shows the progress screen

        def __init__(self) -> None:
            self.token = token

        def stop(self) -> None:
            runs.events.append(False)

        def poll(self) -> bool:
            return True

    def start(*args: object, **kwargs: object) -> Handle:
        runs.ports.append(kwargs.get("preferred_port"))
        return Handle()

    monkeypatch.setattr(app_module, "GitBookApp", FakeApp)
    monkeypatch.setattr(runner, "BackgroundStart", start)
    return runs


def test_run_app_restarts_on_the_demo(monkeypatch):
    """``run_app`` acts on the welcome screen's request: a second run with the demo."""
    import gitbook_tui.cli as cli

    runs = fake_app_and_demo_server(monkeypatch, token="tok-demo", first_run_asks_for_demo=True)
    assert cli.main([]) == 0
    assert runs.events == [False, True, False]  # tokenless run, demo run, demo server stopped


def test_demo_runs_share_one_account_with_a_cache(monkeypatch):
    """Every ``--demo`` run signs in as the demo admin with a response cache, so the next
    run starts warm (same URL when the preferred port is free, same token)."""
    import gitbook_tui.cli as cli

    runs = fake_app_and_demo_server(
        monkeypatch, token="random-owner-token", first_run_asks_for_demo=False
    )
    assert cli.main(["--demo"]) == 0
    assert cli.main(["--demo"]) == 0
    first, second = runs.clients
    assert runs.ports == [cli.DEMO_PORT, cli.DEMO_PORT]
    assert first.cache is not None and second.cache is not None
    assert account_key(first) == account_key(second)
    for client in runs.clients:
        assert client.cache is not None
        client.cache.close()
