"""The app run over a ``support.faults.FaultTransport`` until its browser shows: the start
the worker-error and screen-lifecycle tests share."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, NamedTuple

from gitbook_tui.tui.app import GitBookApp
from gitbook_tui.tui.browse.browser_screen import BrowserScreen
from support.faults import FaultTransport, make_app, start_browser
from support.notes import notes_of
from support.worlds import World


class BrowserRun(NamedTuple):
    """A running app on its browser, with the transport to break and heal and its notes."""

    app: GitBookApp
    pilot: Any
    browser: BrowserScreen
    transport: FaultTransport
    notes: list[str]


@asynccontextmanager
async def browsing(
    world: World,
    tmp_path: Path,
    transport: FaultTransport | None = None,
    **client_options: Any,
) -> AsyncIterator[BrowserRun]:
    """Run the app at 100x30 over ``transport`` (a fresh FaultTransport by default) with
    its notifications recorded, and yield once the browser's tree has the focus."""
    transport = transport if transport is not None else FaultTransport(world.app)
    app = make_app(transport, tmp_path, **client_options)
    notes = notes_of(app)
    async with app.run_test(size=(100, 30)) as pilot:
        browser = await start_browser(app, pilot)
        yield BrowserRun(app, pilot, browser, transport, notes)
