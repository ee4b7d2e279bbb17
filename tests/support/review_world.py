"""The review desk's test workspace (a space, an open CR, a conflicting CR) and helpers to
open the inbox and a review in the app, shared by the flow and snapshot tests."""

from __future__ import annotations

import stat
from datetime import timedelta
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest

from gitbook_tui.api import AsyncGitBook
from gitbook_tui.tui.app import GitBookApp
from gitbook_tui.tui.browse.browser_screen import BrowserScreen
from gitbook_tui.tui.common.config import TuiConfig
from gitbook_tui.tui.common.confirm_screen import ConfirmScreen
from gitbook_tui.tui.common.state import AccountState, StateStore, account_key
from gitbook_tui.tui.review.change_request_review_screen import ChangeRequestReviewScreen
from gitbook_tui.tui.review.review_inbox_screen import ReviewInboxScreen
from support.waits import until, until_screen
from support.worlds import World

BASE = "http://testserver/v1"
HOSTILE = "[bold red]pwn[/] [@click=app.quit]x[/] \x1b]8;;http://evil\x07"

PAGE = """# Streams

Partitions hold up to 10 GB each before they roll over.

Consumers read from the head of a partition.

## Sizing

Use one partition per 5 MB/s of peak traffic.
"""

SIZING = """# Sizing

Plan for 10 GB per partition.
"""

EDITED = """# Streams

Partitions hold up to 50 GB each before they roll over.

Consumers read from the head of a partition.

A brand new paragraph about compaction.

## Sizing

Use one partition per 5 MB/s of peak traffic.
"""


def _post(world: World, who: str, path: str, **body: Any) -> dict:
    r = world.client(who).post(path, json=body)
    assert r.status_code in (200, 201), r.text
    return r.json() if r.content else {}


def _cr(world: World, space: dict, subject: str, who: str = "eve") -> tuple[dict, str]:
    world.clock.advance(timedelta(minutes=1))
    cr = _post(world, who, f"/spaces/{space['id']}/change-requests", subject=subject)
    return cr, f"/spaces/{space['id']}/change-requests/{cr['id']}"


def edited_cr(world: World, desk: dict, subject: str, markdown: str) -> dict:
    """Open a CR by eve named `subject` that sets the desk page's markdown; return the CR."""
    cr, path = _cr(world, desk["space"], subject)
    edit = {"operation": "update_page", "page": desk["page"], "document": {"markdown": markdown}}
    _post(world, "eve", f"{path}/content", changes=[edit])
    return cr


@pytest.fixture
def desk(world: World, make_space) -> dict:
    """A space with one page on main, an open CR editing it (#2, by eve, rita and carol
    asked to review) and a CR conflicting with main (#3)."""
    space = make_space("Guide")
    _, path = _cr(world, space, "Seed", who="alice")
    made = _post(
        world,
        "alice",
        f"{path}/content?compat=false",
        changes=[
            {"operation": "insert_page", "title": "Streams", "document": {"markdown": PAGE}},
            {"operation": "insert_page", "title": "Sizing", "document": {"markdown": SIZING}},
        ],
    )
    page_id = made["changes"][0]["page"]["id"]
    sizing_id = made["changes"][1]["page"]["id"]
    _post(world, "alice", f"{path}/merge")
    cr, path = _cr(world, space, "Update partition sizing")
    edit = {"operation": "update_page", "page": page_id, "document": {"markdown": EDITED}}
    _post(world, "eve", f"{path}/content", changes=[edit])
    _post(world, "eve", f"{path}/requested-reviewers", users=[world.users["rita"]])
    conflicted, cpath = _cr(world, space, "Conflicting edit")
    sizing = {"operation": "update_page", "page": sizing_id}
    other = SIZING.replace("10 GB", "20 GB")
    _post(world, "eve", f"{cpath}/content", changes=[{**sizing, "document": {"markdown": other}}])
    _post(world, "eve", f"{cpath}/requested-reviewers", users=[world.users["alice"]])
    # main moves on: the same sentence changes there too
    _, mpath = _cr(world, space, "Main edit", who="alice")
    main = SIZING.replace("10 GB", "30 GB")
    _post(world, "alice", f"{mpath}/content", changes=[{**sizing, "document": {"markdown": main}}])
    _post(world, "alice", f"{mpath}/merge")
    return {"space": space, "page": page_id, "cr": cr, "conflicted": conflicted}


class PinnedRateTransport(httpx.AsyncBaseTransport):
    """The in-process server with its rate-limit headers pinned (the browser's status bar
    shows them: snapshots must not depend on how many requests were made)."""

    def __init__(self, app: Any) -> None:
        self.inner = httpx.ASGITransport(app=app)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        if "x-ratelimit-remaining" in response.headers:
            response.headers.update({"x-ratelimit-limit": "5000", "x-ratelimit-remaining": "4990"})
        return response


def make_app(
    world: World, tmp_path: Path, who: str = "alice", *, pin_rate: bool = False
) -> GitBookApp:
    transport: httpx.AsyncBaseTransport = (
        PinnedRateTransport(world.app) if pin_rate else httpx.ASGITransport(app=world.app)
    )
    client = AsyncGitBook(f"tok-{who}", base_url=BASE, transport=transport, max_retries=0)
    store = StateStore(tmp_path / f"state-{who}.json")
    store.save(account_key(client), AccountState(org_id=world.org))
    return GitBookApp(client, config=TuiConfig(), state_store=store)


async def open_inbox(app: GitBookApp, pilot: Any) -> ReviewInboxScreen:
    await until_screen(pilot, BrowserScreen)
    await until(pilot, lambda: app.organization_id is not None)
    await pilot.press("2")
    inbox = await until_screen(pilot, ReviewInboxScreen)
    try:
        await until(pilot, lambda: inbox.loaded, timeout=20)
    except AssertionError:
        raise AssertionError(str(inbox.query_one("#inbox-state").render())) from None
    return inbox


async def open_review(app: GitBookApp, pilot: Any, subject: str) -> ChangeRequestReviewScreen:
    inbox = await open_inbox(app, pilot)
    while not any(r.cr.subject == subject for r in inbox.shown):
        await pilot.press("l")
    index = next(i for i, r in enumerate(inbox.shown) if r.cr.subject == subject)
    inbox.query_one("DataTable").move_cursor(row=index)
    await pilot.press("enter")
    review = await until_screen(pilot, ChangeRequestReviewScreen)
    try:
        await until(
            pilot, lambda: review.state is not None and review.diff_ready.is_set(), timeout=20
        )
    except AssertionError:
        status = str(review.query_one("#cr-error").render())
        raise AssertionError(f"{status} | {review.diff.all_text()[:3]}") from None
    return review


D = TypeVar("D")


async def review_dialog(pilot: Any, subject: str, key: str, kind: type[D]) -> D:
    """Open the review of the change request ``subject``, press ``key``, wait for its dialog."""
    await open_review(pilot.app, pilot, subject)
    await pilot.press(key)
    return await until_screen(pilot, kind)


async def merge_confirmed(pilot: Any, typed: str) -> None:
    """In an open review: ``m``, accept the checklist, type ``typed`` (the change request's
    number) in the confirmation and press enter."""
    await pilot.press("m")
    await until(pilot, lambda: type(pilot.app.screen).__name__ == "MergeChecklistScreen")
    await pilot.press("enter")
    await until_screen(pilot, ConfirmScreen)
    await pilot.press(*typed, "enter")


LONG = (
    "The first paragraph is right, but `recompact --remote` doesn't exist yet — it's on "
    "the 3.6 list, so please drop it from this page until then."
)


SECOND = "Also: the sizing table needs a row for 100 GB partitions."


def review(world: World, desk: dict, who: str, status: str, message: str | None) -> None:
    """``who`` reviews the open change request (#2) with ``message``."""
    world.clock.advance(timedelta(minutes=5))
    path = f"/spaces/{desk['space']['id']}/change-requests/{desk['cr']['id']}/reviews"
    body: dict = {"status": status}
    if message is not None:
        body["comment"] = {"markdown": message}
    r = world.client(who).post(path, json=body)
    assert r.status_code in (200, 201), r.text


def editor(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str) -> Path:
    """A fake ``$VISUAL``: copies the file it is given to ``seen.md``, then runs ``command``
    on it (``$1``). Returns ``seen.md`` (absent: the editor never ran)."""
    seen = tmp_path / "seen.md"
    script = tmp_path / "fake-editor"
    script.write_text(f'#!/bin/sh\ncp "$1" "{seen}"\n{command}\n')
    script.chmod(stat.S_IRWXU)
    monkeypatch.setenv("VISUAL", str(script))
    return seen


async def open_page(app: GitBookApp, pilot: Any, space_id: str, page_id: str) -> BrowserScreen:
    await until_screen(pilot, BrowserScreen)
    await until(pilot, lambda: app.organization_id is not None)
    browser = app.screen
    assert isinstance(browser, BrowserScreen)
    app.open_page(space_id, page_id)
    await until(pilot, lambda: browser.current_page == (space_id, page_id), timeout=20)
    return browser


async def press_edit(pilot: Any) -> None:
    """``e`` in the browser, with the page open."""
    assert isinstance(pilot.app.screen, BrowserScreen)
    await pilot.press("e")


def crs(world: World, space_id: str) -> list[dict]:
    r = world.client().get(
        f"/spaces/{space_id}/change-requests", params={"status": ["open", "draft", "archived"]}
    )
    return r.json()["items"]


def page_in(world: World, space_id: str, cr_id: str, page_id: str) -> str:
    r = world.client().get(
        f"/spaces/{space_id}/change-requests/{cr_id}/content/page/{page_id}",
        params={"format": "markdown"},
    )
    assert r.status_code == 200, r.text
    return r.json()["markdown"]


async def review_shown(app: GitBookApp, pilot: Any) -> ChangeRequestReviewScreen:
    review = await until_screen(pilot, ChangeRequestReviewScreen, timeout=20)
    await until(pilot, lambda: review.state is not None and review.diff_ready.is_set(), timeout=20)
    return review


async def open_from_notice(app: GitBookApp, pilot: Any) -> None:
    """An edit posted into an existing change request is named in a notice: ``enter`` opens it."""
    await until_screen(pilot, ConfirmScreen, timeout=20)
    await pilot.press("enter")
