"""The app signed in to a demo server of the test (in-process), as a demo user."""

from __future__ import annotations

from pathlib import Path

import httpx
from fastapi import FastAPI

from gitbook_tui.api import AsyncGitBook
from gitbook_tui.server.demo.seed import demo_token
from gitbook_tui.tui.app import GitBookApp
from gitbook_tui.tui.common.config import TuiConfig
from gitbook_tui.tui.common.state import AccountState, StateStore, account_key


def demo_gitbook_app(demo: FastAPI, tmp_path: Path, who: str = "maya") -> GitBookApp:
    """A :class:`GitBookApp` speaking to ``demo`` as ``who``, starting in the demo org."""
    transport = httpx.ASGITransport(app=demo)
    client = AsyncGitBook(
        demo_token(who), base_url="http://testserver/v1", transport=transport, max_retries=0
    )
    org = demo.state.server.storage
    with org.read() as tx:
        org_id = tx.meta("demo_org")
    store = StateStore(tmp_path / "state.json")
    store.save(account_key(client), AccountState(org_id=org_id))
    return GitBookApp(client, config=TuiConfig(), state_store=store, transport=transport)
