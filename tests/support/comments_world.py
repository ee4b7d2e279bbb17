"""Shared set-up of the Comments view tests: a space with pages and threads, the app."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any, NamedTuple

import httpx
from textual.pilot import Pilot

from gitbook_tui.api import AsyncGitBook
from gitbook_tui.tui.app import GitBookApp
from gitbook_tui.tui.browse.browser_screen import BrowserScreen
from gitbook_tui.tui.comments.comments_screen import CommentsScreen
from gitbook_tui.tui.common.config import TuiConfig
from gitbook_tui.tui.common.state import StartTarget, StateStore
from support.notes import notes_of
from support.waits import until, until_screen
from support.worlds import World

BASE = "http://testserver/v1"
RATE_LIMIT = {"x-ratelimit-limit": "5000", "x-ratelimit-remaining": "4990"}
HOSTILE = "[b]bold[/b] [@click=app.quit]x[/] \x1b]8;;http://evil\x07link\x1b]8;;\x07 \u202eevil"


class Transport(httpx.AsyncBaseTransport):
    """The in-process server; ``offline`` refuses every request (server unreachable)."""

    def __init__(self, app: Any) -> None:
        self.inner = httpx.ASGITransport(app=app)
        self.offline = False
        self.rate_limited = False
        self.requests: list[str] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.offline:
            raise httpx.ConnectError("network is down", request=request)
        self.requests.append(f"{request.method} {request.url.path}")
        if self.rate_limited and request.url.path.endswith("/comments"):
            error = {"error": {"code": 429, "message": "Too many requests"}}
            return httpx.Response(429, json=error, headers={"retry-after": "1"})
        response = await self.inner.handle_async_request(request)
        if "x-ratelimit-remaining" in response.headers:
            response.headers.update(RATE_LIMIT)
        return response


def merge_pages(world: World, space_id: str, titles: list[str]) -> dict[str, str]:
    c = world.client("alice")
    cr = c.post(f"/spaces/{space_id}/change-requests", json={"subject": "pages"}).json()
    changes = [
        {"operation": "insert_page", "title": t, "document": {"markdown": f"About {t}.\n"}}
        for t in titles
    ]
    r = c.post(f"/spaces/{space_id}/change-requests/{cr['id']}/content", json={"changes": changes})
    assert r.status_code == 200, r.text
    assert c.post(f"/spaces/{space_id}/change-requests/{cr['id']}/merge").status_code == 200
    pages = c.get(f"/spaces/{space_id}/content/pages").json()["pages"]
    return {p["title"]: p["id"] for p in pages}


def build_space(world: World) -> dict[str, str]:
    """Space "Guide" with pages Welcome and Install; threads by alice and cody."""
    a = world.client("alice")
    r = a.post(f"/orgs/{world.org}/spaces", json={"title": "Guide"})
    assert r.status_code in (200, 201), r.text
    space = r.json()["id"]
    pages = merge_pages(world, space, ["Welcome", "Install"])

    def post(user: str, page: str, text: str) -> str:
        r = world.client(user).post(
            f"/spaces/{space}/comments", json={"body": {"markdown": text}, "page": pages[page]}
        )
        assert r.status_code in (200, 201), r.text
        return str(r.json()["id"])

    first = post("alice", "Welcome", "Should the **retention** answer mention compaction?")
    world.clock.advance(timedelta(hours=3))
    second = post("cody", "Install", "The brew tap moved.")
    r = world.client("cody").post(
        f"/spaces/{space}/comments/{first}/replies", json={"body": {"markdown": "Good catch."}}
    )
    assert r.status_code in (200, 201), r.text
    r = world.client("eve").put(
        f"/spaces/{space}/comments/{first}", json={"addedReactions": ["👍", "🔥"]}
    )
    assert r.status_code == 200, r.text
    return {"space": space, "first": first, "second": second, **pages}


def thread_on_new_page(world: World, ids: dict[str, str], title: str, text: str) -> tuple[str, str]:
    """A page ``title`` merged into ``ids``' space and alice's thread ``text`` on it: their ids."""
    page = merge_pages(world, ids["space"], [title])[title]
    r = world.client("alice").post(
        f"/spaces/{ids['space']}/comments", json={"body": {"markdown": text}, "page": page}
    )
    assert r.status_code in (200, 201), r.text
    return page, str(r.json()["id"])


def newest_thread(world: World, ids: dict[str, str]) -> dict[str, Any]:
    """The newest thread of ``ids``' space as the server holds it."""
    r = world.client("alice").get(f"/spaces/{ids['space']}/comments")
    return dict(r.json()["items"][0])


def at_welcome(ids: dict[str, str]) -> StartTarget:
    """Where most comment tests start: the Welcome page of :func:`build_space`'s space."""
    return StartTarget(ids["space"], ids["Welcome"])


def make_app(
    world: World, tmp_path: Path, *, token: str = "tok-eve", start: StartTarget | None = None
) -> tuple[GitBookApp, Transport]:
    transport = Transport(world.app)

    async def no_sleep(_: float) -> None:
        await asyncio.sleep(0)

    client = AsyncGitBook(token, base_url=BASE, transport=transport, max_retries=0, sleep=no_sleep)
    app = GitBookApp(
        client,
        config=TuiConfig(),
        state_store=StateStore(tmp_path / "state.json"),
        start=start,
        transport=transport,
    )
    return app, transport


class CommentsRun(NamedTuple):
    """An app run with the Comments view open: what a test drives and looks at."""

    pilot: Pilot[Any]
    screen: CommentsScreen
    app: GitBookApp
    notes: list[str]  # every notification since the app started
    transport: Transport


@asynccontextmanager
async def comments_run(
    world: World,
    tmp_path: Path,
    ids: dict[str, str],
    thread: str | None = None,
    *,
    token: str = "tok-eve",
    size: tuple[int, int] = (120, 40),
    page: str | None = None,
    key: str = "3",
    outbox_probe_seconds: tuple[float, float] | None = None,
) -> AsyncIterator[CommentsRun]:
    """The app started at ``page`` of ``ids``' space (default its Welcome page), run at
    ``size``, the Comments view opened with ``key`` and, when given, ``thread`` selected."""
    start = StartTarget(ids["space"], page or ids["Welcome"])
    app, transport = make_app(world, tmp_path, token=token, start=start)
    if outbox_probe_seconds is not None:
        app.OUTBOX_PROBE_SECONDS = outbox_probe_seconds
    async with app.run_test(size=size) as pilot:
        notes = notes_of(app)
        screen = await open_comments(pilot, key)
        if thread is not None:
            await select_thread(pilot, screen, thread)
        yield CommentsRun(pilot, screen, app, notes, transport)


async def open_comments(pilot: Pilot[Any], key: str = "3") -> CommentsScreen:
    """From the browser (a page open), show the Comments view and wait for its threads."""
    app = pilot.app
    await until_screen(pilot, BrowserScreen)
    browser = app.screen
    await until(pilot, lambda: browser.current_page is not None)  # type: ignore[attr-defined]
    await pilot.press(key)
    screen = await until_screen(pilot, CommentsScreen)
    await until(pilot, lambda: screen.loaded and not screen.busy)
    return screen


async def comments_at(pilot: Pilot[Any], thread_id: str) -> CommentsScreen:
    """From the browser, the Comments view with thread ``thread_id`` selected and shown."""
    screen = await open_comments(pilot)
    await select_thread(pilot, screen, thread_id)
    return screen


async def select_thread(pilot: Pilot[Any], screen: CommentsScreen, thread_id: str) -> None:
    """Move the list cursor to ``thread_id`` with j/k (focus on the list) and wait for it."""
    if not screen.thread_list.has_focus:
        await pilot.press("escape")
    await until(pilot, lambda: thread_id in screen.thread_list.ids)
    target = screen.thread_list.ids.index(thread_id)
    while screen.thread_list.highlighted != target:
        await pilot.press("j" if (screen.thread_list.highlighted or 0) < target else "k")
    await until(
        pilot, lambda: screen.state.selected_id == thread_id and screen.pane.thread is not None
    )
    await until(pilot, lambda: screen.pane.thread.id == thread_id and not screen.busy)


async def reply_offline(
    pilot: Pilot[Any], screen: CommentsScreen, transport: Any, text: str
) -> None:
    """With the server unreachable, reply ``text`` to the shown thread (enter, c, ctrl+s) and
    wait for it in the outbox: one more queued, the composer closed."""
    transport.offline = True
    queued = screen.queued
    await pilot.press("enter", "c")
    await until(pilot, lambda: screen.composer.is_open)
    await pilot.press(*text, "ctrl+s")
    # (the focus leaves the closed composer a message later: a key before would be typed there)
    await until(
        pilot,
        lambda: (
            screen.queued == queued + 1
            and not screen.composer.is_open
            and not screen.composer.area.has_focus
        ),
        "the reply queued and the composer closed",
    )
