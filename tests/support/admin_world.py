"""Shared pieces of the Admin view tests: the seeded demo server (module-wide), the app
signed in as a demo user, and waits for the Admin screen's tabs."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, NamedTuple

import httpx
from fastapi import FastAPI
from textual.pilot import Pilot

from gitbook_tui.api import AsyncGitBook
from gitbook_tui.server.demo.seed import demo_token
from gitbook_tui.tui.admin.admin_screen import AdminScreen
from gitbook_tui.tui.admin.admin_tab import AdminTab
from gitbook_tui.tui.app import GitBookApp
from gitbook_tui.tui.common.config import TuiConfig
from gitbook_tui.tui.common.intents import ShowPermissions
from gitbook_tui.tui.common.state import AccountState, StateStore, account_key
from support.notes import notes_of
from support.waits import until


def demo_org(demo: FastAPI) -> str:
    with demo.state.server.storage.read() as tx:
        return str(tx.meta("demo_org"))


def admin_app(demo: FastAPI, tmp_path: Path, user: str = "maya") -> GitBookApp:
    """The app signed in as demo user ``user`` (maya and jonas are admins; ravi edits,
    aiko reads)."""
    transport = httpx.ASGITransport(app=demo)
    client = AsyncGitBook(
        demo_token(user), base_url="http://testserver/v1", transport=transport, max_retries=0
    )
    store = StateStore(tmp_path / "state.json")
    store.save(account_key(client), AccountState(org_id=demo_org(demo)))
    return GitBookApp(client, config=TuiConfig(), state_store=store, transport=transport)


async def open_admin(pilot: Pilot[Any], tab: str = "members") -> AdminScreen:
    """Press 5 and walk the tabs to ``tab``; wait until its items are listed."""
    app = pilot.app
    await until(pilot, lambda: app.browser is not None, timeout=30)
    await pilot.press("5")
    await until(pilot, lambda: isinstance(app.screen, AdminScreen) and app.screen.org is not None)
    screen = app.screen
    assert isinstance(screen, AdminScreen)
    while screen.tab != tab:
        await pilot.press("right_square_bracket")
    await until(pilot, lambda: screen.current.loaded, timeout=20)
    return screen


def listed(tab: AdminTab) -> list[str]:
    """The first cell of every listed row."""
    return [cells[0][0] for cells in tab.table.rows]


def demo_id(demo: FastAPI, kind: str, title: str) -> str:
    """The id of the demo's space or collection titled ``title``."""
    with demo.state.server.storage.read() as tx:
        rows = tx.conn.execute(
            "SELECT id FROM docs WHERE kind=? AND json_extract(data, '$.title')=?", (kind, title)
        ).fetchall()
    assert len(rows) == 1, (kind, title, rows)
    return str(rows[0][0])


async def open_permissions(pilot: Pilot[Any], intent: ShowPermissions) -> AdminScreen:
    """Send ``intent`` (as Browse's ``P`` does) and wait for the Permissions tab's rows."""
    app = pilot.app
    await until(pilot, lambda: app.browser is not None, timeout=30)
    app.navigate(intent)
    await until(pilot, lambda: isinstance(app.screen, AdminScreen) and app.screen.org is not None)
    screen = app.screen
    assert isinstance(screen, AdminScreen)
    await until(pilot, lambda: screen.tab == "permissions" and screen.current.loaded, timeout=20)
    return screen


def rows_by_key(tab: AdminTab) -> dict[str, list[str]]:
    """Each listed row's cell texts by its key (``g:user:<id>``, ``a:<id>``…)."""
    return {
        k: [c[0] for c in cells] for k, cells in zip(tab.shown_keys, tab.table.rows, strict=True)
    }


class AdminRun(NamedTuple):
    """The app running on the Admin view: the screen, its shown tab, the notes so far."""

    app: GitBookApp
    pilot: Pilot[Any]
    screen: AdminScreen
    tab: AdminTab
    notes: list[str]


@asynccontextmanager
async def admin_shown(
    demo: FastAPI,
    tmp_path: Path,
    where: str | ShowPermissions = "members",
    *,
    user: str = "maya",
    size: tuple[int, int] = (120, 40),
) -> AsyncIterator[AdminRun]:
    """Run the app as demo user ``user`` at ``size`` on the Admin view — the tab named
    ``where``, or the Permissions tab a ``ShowPermissions`` asks for — once its rows are
    listed, its notifications recorded from the start."""
    app = admin_app(demo, tmp_path, user)
    notes = notes_of(app)
    async with app.run_test(size=size) as pilot:
        if isinstance(where, ShowPermissions):
            screen = await open_permissions(pilot, where)
        else:
            screen = await open_admin(pilot, where)
        yield AdminRun(app, pilot, screen, screen.current, notes)
