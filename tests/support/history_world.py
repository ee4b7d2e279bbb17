"""The History view's test workspace: a space with two merged change requests around a run of
direct edits (enough revisions to need scrolling), helpers to open the view in the app."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from gitbook_tui.server.content.space_revision import set_space_revision
from gitbook_tui.server.content.store import (
    create_revision,
    find_page,
    get_revision,
    shared_copy,
    store_markdown,
)
from gitbook_tui.tui.app import GitBookApp
from gitbook_tui.tui.browse.browser_screen import BrowserScreen
from gitbook_tui.tui.common.intents import ShowHistory
from gitbook_tui.tui.history.blame_screen import BlameScreen
from gitbook_tui.tui.history.history_screen import HistoryScreen
from support.review_world import HOSTILE, make_app, open_page
from support.waits import settle, until, until_screen
from support.worlds import World

EDITS = 40
"""Direct edits of Intro between the two merges."""

INTRO = "Partitions hold up to {n} GB each before they roll over.\n\nConsumers read the head.\n"


def _post(world: World, who: str, path: str, **body: Any) -> dict:
    r = world.client(who).post(path, json=body)
    assert r.status_code in (200, 201), r.text
    return r.json() if r.content else {}


def merge(world: World, space: dict, who: str, subject: str, changes: list[dict]) -> dict:
    world.clock.advance(timedelta(hours=1))
    base = f"/spaces/{space['id']}/change-requests"
    cr = _post(world, who, base, subject=subject)
    _post(world, who, f"{base}/{cr['id']}/content", changes=changes)
    _post(world, "alice", f"{base}/{cr['id']}/merge")
    return cr


def direct_edit(world: World, space_id: str, page_id: str, markdown: str) -> str:
    """A revision of the main content with ``page_id``'s text replaced (as an editor's
    direct edit is stored); its id."""
    world.clock.advance(timedelta(hours=1))
    with world.storage.transaction() as tx:
        space = tx.get("space", space_id)
        assert space is not None
        base = get_revision(tx, space["revision"])
        pages, files = shared_copy(base)
        found = find_page(pages, page_id)
        assert found is not None
        node = dict(found[0])
        node["document"] = store_markdown(tx, markdown)
        pages = _swap(pages, node)
        rev_id = world.storage.new_id()
        when = world.clock.now().isoformat().replace("+00:00", "Z")
        create_revision(
            tx,
            revision_id=rev_id,
            space_id=space_id,
            parents=[base["id"]],
            pages=pages,
            files=files,
            type="edits",
            created_at=when,
            created_by=world.users["eve"],
        )
        set_space_revision(tx, space, rev_id, when)
    return rev_id


def _swap(pages: list[dict], node: dict) -> list[dict]:
    out = []
    for page in pages:
        if page["id"] == node["id"]:
            out.append(node)
        else:
            out.append({**page, "pages": _swap(page.get("pages", []), node)})
    return out


@pytest.fixture
def story(world: World, make_space: Any) -> dict:
    """A space: "Seed" (alice) adds Intro and Setup; 40 direct edits of Intro; then a change
    request by eve with a hostile subject edits Setup. Ids of it all."""
    space = make_space("Guide")
    insert = [
        {"operation": "insert_page", "title": t, "document": {"markdown": m}}
        for t, m in (("Intro", INTRO.format(n=10)), ("Setup", "Install it.\n"))
    ]
    seed = merge(world, space, "alice", "Seed", insert)
    pages = {
        p["title"]: p["id"]
        for p in world.client().get(f"/spaces/{space['id']}/content/pages").json()["pages"]
    }
    for n in range(EDITS):
        direct_edit(world, space["id"], pages["Intro"], INTRO.format(n=11 + n))
    setup = [
        {
            "operation": "update_page",
            "page": pages["Setup"],
            "document": {"markdown": "Install it with brew.\n"},
        }
    ]
    hostile = merge(world, space, "eve", f"Setup {HOSTILE}", setup)
    return {"space": space["id"], "pages": pages, "seed": seed, "hostile": hostile}


async def open_history(
    app: GitBookApp, pilot: Any, space_id: str, page_id: str | None = None
) -> HistoryScreen:
    """The History view showing ``space_id``'s log (``page_id``'s), its first rows in."""
    await until(pilot, lambda: app.browser is not None and app.organization_id is not None)
    app.navigate(ShowHistory(space_id, page_id))
    screen = await until_screen(pilot, HistoryScreen)
    await until(
        pilot,
        lambda: screen.space_id == space_id and screen.page_id == page_id and screen.shown,
        timeout=20,
    )
    return screen


@asynccontextmanager
async def history_shown(
    world: World,
    tmp_path: Path,
    space_id: str,
    page_id: str | None = None,
    *,
    size: tuple[int, int] = (80, 24),
    walked: bool = False,
) -> AsyncIterator[tuple[GitBookApp, Any, HistoryScreen]]:
    """Run the app at ``size`` on the History view of ``space_id`` (``page_id``'s log) —
    with ``walked``, once its walk back through the revisions is done — settled; yield
    (app, pilot, the History screen)."""
    app = make_app(world, tmp_path)
    async with app.run_test(size=size) as pilot:
        yield app, pilot, await settled_history(app, pilot, space_id, page_id, walked=walked)


async def settled_history(
    app: GitBookApp, pilot: Any, space_id: str, page_id: str | None = None, *, walked: bool = False
) -> HistoryScreen:
    """:func:`open_history`, then — with ``walked`` — its walk back through the revisions
    done, and the screen settled."""
    screen = await open_history(app, pilot, space_id, page_id)
    if walked:
        await until(pilot, lambda: screen.walk is not None and screen.walk.done, timeout=20)
    await settle(pilot)
    return screen


async def until_blamed(pilot: Any) -> BlameScreen:
    """The blame screen a key opened, once its walk is done and its gutters drawn."""
    screen = await until_screen(pilot, BlameScreen, timeout=20)
    await until(pilot, lambda: screen.walk is not None and screen.walk.done, timeout=30)
    await settle(pilot)
    return screen


@asynccontextmanager
async def intro_read(
    world: World, tmp_path: Path, story: dict
) -> AsyncIterator[tuple[GitBookApp, Any, BrowserScreen]]:
    """Run the app at 120x40 with the story's Intro open in Browse and the page focused
    (where B and H act); yield (app, pilot, browser)."""
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await open_page(app, pilot, story["space"], story["pages"]["Intro"])
        browser.query_one("#page-viewer").focus()
        yield app, pilot, browser


@asynccontextmanager
async def page_blamed(
    world: World, tmp_path: Path, space_id: str, page_id: str
) -> AsyncIterator[tuple[GitBookApp, Any, BlameScreen]]:
    """Run the app at 80x24 on the log of page ``page_id`` and press b there; yield (app,
    pilot, the blame screen) once its walk is done."""
    async with history_shown(world, tmp_path, space_id, page_id) as (app, pilot, _):
        await pilot.press("b")
        yield app, pilot, await until_blamed(pilot)
