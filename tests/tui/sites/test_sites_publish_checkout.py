"""Publishing answered by a checkout: the editor says a plan upgrade is needed, nothing changes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from gitbook_tui.api import AsyncGitBook
from gitbook_tui.tui.app import GitBookApp
from gitbook_tui.tui.common.config import TuiConfig
from gitbook_tui.tui.common.confirm_screen import ConfirmScreen
from gitbook_tui.tui.common.state import AccountState, StateStore, account_key
from gitbook_tui.tui.sites.settings_pane import CHECKOUT_NEEDED
from support.sites_world import BASE, Transport, build_site, open_editor
from support.waits import until, until_screen
from support.worlds import World

CHECKOUT = {"type": "checkout", "sessionId": "cs_test_a1"}


class CheckoutTransport(Transport):
    """The in-process server, except that publishing answers a checkout (as GitBook does
    when the plan must be upgraded first)."""

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.method == "POST" and request.url.path.endswith("/publish"):
            self.requests.append((request.method, request.url.path))
            return httpx.Response(200, json=CHECKOUT, request=request)
        return await super().handle_async_request(request)


def checkout_app(world: World, tmp_path: Path) -> GitBookApp:
    transport = CheckoutTransport(world.app)
    client = AsyncGitBook("tok-alice", base_url=BASE, transport=transport, max_retries=0)
    store = StateStore(tmp_path / "state.json")
    store.save(account_key(client), AccountState(org_id=world.org))
    return GitBookApp(client, config=TuiConfig(), state_store=store, transport=transport)


async def test_a_checkout_answer_says_publishing_needs_a_plan_upgrade(
    world: World, tmp_path: Path
) -> None:
    """A checkout answer to publish says a plan upgrade is needed. Slow: the editor and publish
    dialog built."""
    site = build_site(world)
    base = f"/orgs/{world.org}/sites/{site.site}"
    assert world.client("alice").post(f"{base}/unpublish").status_code == 200
    app = checkout_app(world, tmp_path)
    transport = app.transport
    assert isinstance(transport, CheckoutTransport)
    notes: list[tuple[str, str, Any]] = []
    original = app.notify

    def notify(message: Any, **kwargs: Any) -> None:
        notes.append((str(message), str(kwargs.get("title", "")), kwargs.get("severity")))
        original(message, **kwargs)

    app.notify = notify  # type: ignore[method-assign]
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await open_editor(pilot)
        await pilot.press("left_square_bracket")
        assert editor.tab == "settings" and editor.site.published is False
        await pilot.press("P")
        await until_screen(pilot, ConfirmScreen)
        await pilot.press("enter")
        await until(pilot, lambda: any(n[0] == CHECKOUT_NEEDED for n in notes))
        assert ("POST", f"/v1{base}/publish") in transport.requests
        assert (CHECKOUT_NEEDED, "Not published", "warning") in notes
        assert "plan upgrade" in CHECKOUT_NEEDED and "web app" in CHECKOUT_NEEDED
        assert editor.site.published is False  # the answer is no site: nothing changed
        assert not any(n[2] == "error" for n in notes)
