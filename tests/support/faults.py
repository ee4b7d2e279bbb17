"""FaultTransport: the in-process server behind switchable faults, for the TUI's robustness tests.

Every fault is a plain attribute a test flips while the app runs: ``latency`` (seconds
before each answer), ``error_rate`` (a seeded share of answers replaced by 503),
``rate_limited`` (answers 429 with ``Retry-After``), ``down`` (every request fails to
connect), ``body`` (a function replacing the body of matching JSON answers: malformed,
truncated, HTML, changed JSON), ``raise_on`` (a path fragment whose requests raise an
unexpected exception inside the client: not an ``httpx`` error).
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from typing import Any

import httpx

from gitbook_tui.api import AsyncGitBook
from gitbook_tui.tui.app import GitBookApp
from gitbook_tui.tui.browse.browser_screen import BrowserScreen
from gitbook_tui.tui.common.config import TuiConfig
from gitbook_tui.tui.common.state import StateStore
from support.notes import notes_of
from support.tree_world import visible_labels
from support.waits import until, until_screen
from support.worlds import World

__all__ = [
    "FaultTransport",
    "InjectedBug",
    "make_app",
    "notes_of",
    "patch_json",
    "seed_space",
    "start_browser",
    "visible_labels",
]


class InjectedBug(RuntimeError):
    """The unexpected exception a test injects (what a bug anywhere below a worker raises)."""


BodyFault = Callable[[httpx.Request, bytes], bytes | None]
"""``(request, body) -> new body`` (None: this answer is left alone)."""


def patch_json(fragment: str, change: Callable[[Any], Any]) -> BodyFault:
    """A body fault: JSON answers to paths containing ``fragment`` go through ``change``."""

    def fault(request: httpx.Request, body: bytes) -> bytes | None:
        if fragment not in request.url.path:
            return None
        try:
            data = json.loads(body)
        except ValueError:
            return None
        return json.dumps(change(data)).encode()

    return fault


class FaultTransport(httpx.AsyncBaseTransport):
    """The in-process server (``app``) with the faults described in the module docstring."""

    def __init__(self, app: Any, *, seed: int = 0) -> None:
        self.inner = httpx.ASGITransport(app=app)
        self.random = random.Random(seed)
        self.latency = 0.0
        self.error_rate = 0.0
        self.rate_limited = False
        self.retry_after = 30
        self.down = False
        self.body: BodyFault | None = None
        self.raise_on: str | None = None
        self.requests: list[str] = []

    def heal(self) -> None:
        """Every fault off."""
        self.latency = 0.0
        self.error_rate = 0.0
        self.rate_limited = False
        self.down = False
        self.body = None
        self.raise_on = None

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path
        self.requests.append(path)
        if self.raise_on is not None and self.raise_on in path:
            raise InjectedBug(f"injected failure reading {path}")
        if self.latency:
            await asyncio.sleep(self.latency)
        if self.down:
            raise httpx.ConnectError("server gone", request=request)
        if self.rate_limited:
            return httpx.Response(
                429,
                headers={
                    "retry-after": str(self.retry_after),
                    "x-ratelimit-limit": "100",
                    "x-ratelimit-remaining": "0",
                },
                json={"error": {"code": 429, "message": "Too many requests"}},
                request=request,
            )
        if self.error_rate and self.random.random() < self.error_rate:
            return httpx.Response(
                503,
                json={"error": {"code": 503, "message": "injected failure"}},
                request=request,
            )
        response = await self.inner.handle_async_request(request)
        if self.body is None or response.status_code >= 300:
            return response
        body = await response.aread()
        changed = self.body(request, body)
        if changed is None:
            return httpx.Response(
                response.status_code, headers=response.headers, content=body, request=request
            )
        headers = {
            k: v
            for k, v in response.headers.items()
            if k.lower() not in ("content-length", "etag", "content-encoding")
        }
        return httpx.Response(
            response.status_code, headers=headers, content=changed, request=request
        )


# -- the app over a FaultTransport --------------------------------------------------------------
async def _no_sleep(_: float) -> None:
    await asyncio.sleep(0)


def make_app(
    transport: httpx.AsyncBaseTransport, tmp_path: Any, token: str = "tok-eve", **options: Any
) -> GitBookApp:
    """The app over ``transport`` (no retries and no retry sleeps unless ``options`` say)."""
    options.setdefault("max_retries", 0)
    options.setdefault("sleep", _no_sleep)
    client = AsyncGitBook(token, base_url="http://testserver/v1", transport=transport, **options)
    return GitBookApp(client, config=TuiConfig(), state_store=StateStore(tmp_path / "state.json"))


async def start_browser(app: GitBookApp, pilot: Any) -> BrowserScreen:
    """The browser, once its tree has the focus."""
    browser = await until_screen(pilot, BrowserScreen)
    await until(pilot, lambda: browser.workspace_tree.has_focus)
    return browser


def seed_space(world: World, title: str = "Manual") -> dict[str, str]:
    """A space of the world's organization with pages Home and Guide (› Setup); its id
    and the page ids by title."""
    c = world.client("alice")
    space = c.post(f"/orgs/{world.org}/spaces", json={"title": title}).json()
    cr = c.post(f"/spaces/{space['id']}/change-requests", json={"subject": "pages"}).json()
    base = f"/spaces/{space['id']}/change-requests/{cr['id']}"
    changes = [
        {"operation": "insert_page", "title": "Home", "document": {"markdown": "# Home\n\nhi"}},
        {
            "operation": "insert_page",
            "title": "Guide",
            "ref": "guide",
            "document": {"markdown": "# Guide\n\nHow to."},
        },
        {
            "operation": "insert_page",
            "title": "Setup",
            "into": "guide",
            "document": {"markdown": "# Setup\n\nSteps."},
        },
    ]
    r = c.post(f"{base}/content", json={"changes": changes})
    assert r.status_code == 200, r.text
    assert c.post(f"{base}/merge").status_code == 200
    ids = {"space": space["id"]}
    stack = list(c.get(f"/spaces/{space['id']}/content/pages").json()["pages"])
    while stack:
        page = stack.pop()
        ids[page["title"]] = page["id"]
        stack.extend(page.get("pages", []))
    return ids
