"""The demo seeder's plumbing: the replay clock, API clients per user, scheduled events, lookups."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, MutableMapping
from datetime import timedelta
from typing import Any

import httpx
from fastapi import FastAPI

from ..core.clock import Clock
from ..core.storage import Storage
from .identity import DEMO_DIR, demo_admin_token, demo_token  # noqa: F401  (re-exported)

_json = json  # (``call`` has a parameter named json, as an HTTP client's)
DEMO_ID_SEED = 2026
_BASE = "http://demo.local/v1"
Event = tuple[float, int, Callable[[], Awaitable[None]]]


class SeedError(RuntimeError):
    """A demo step the server refused (a bug in the demo data or the server)."""


class SeedCancelled(RuntimeError):
    """The seeding was stopped (the app quit): the phase is rolled back."""


class SeederBase:
    """State and plumbing of a demo replay; the steps live in the subclasses."""

    def __init__(self, app: FastAPI, workspace: dict[str, Any] | None = None) -> None:
        self.app = app
        self.storage: Storage = app.state.server.storage
        self.clock: Clock = app.state.server.clock
        self.data = workspace or json.loads((DEMO_DIR / "workspace.json").read_text("utf-8"))
        self.now = self.clock.now()
        self.org = ""
        self.users: dict[str, str] = {}
        self.teams: dict[str, str] = {}
        self.collections: dict[str, str] = {}
        self.spaces: dict[str, str] = {}
        self.pages: dict[str, dict[str, str]] = {}
        self.crs: dict[str, str] = {}
        self.comments: dict[str, str] = {}
        self._events: list[Event] = []
        self.cancelled: Callable[[], bool] | None = None  # asked before every API call

    def at(self, days_ago: float) -> None:
        self.clock.set(self.now - timedelta(days=float(days_ago)))

    async def call(
        self,
        user: str,
        method: str,
        path: str,
        *,
        json: Any = None,
        params: dict[str, Any] | None = None,
    ) -> Any:
        """``method /v1{path}`` as ``user`` through the app (the whole app: middleware,
        routing, validation), its JSON answer; :class:`SeedError` when refused."""
        if self.cancelled is not None and self.cancelled():
            raise SeedCancelled("the demo seeding was stopped")
        status, body = await asgi_request(
            self.app, method, path, token=demo_token(user), json_body=json, params=params
        )
        if status >= 400:
            text = body.decode("utf-8", errors="replace")
            raise SeedError(f"{method} {path} as {user}: {status} {text[:300]}")
        return _json.loads(body) if body else None

    def schedule(self, days_ago: float, action: Callable[[], Awaitable[None]]) -> None:
        self._events.append((-float(days_ago), len(self._events), action))

    @property
    def admin(self) -> str:
        return next(u["key"] for u in self.data["users"] if u.get("orgRole") == "admin")

    def page_id(self, space_key: str, path: str) -> str:
        try:
            return self.pages[space_key][path]
        except KeyError:
            raise SeedError(f"demo page '{path}' not found in space '{space_key}'") from None


async def asgi_request(
    app: FastAPI,
    method: str,
    path: str,
    *,
    token: str,
    json_body: Any = None,
    params: dict[str, Any] | None = None,
) -> tuple[int, bytes]:
    """One request to ``app`` in process, as an ``httpx.ASGITransport`` client at
    ``http://demo.local/v1`` would send it, without a client's per-request work (the
    seeding sends thousands): ``(status, body)``."""
    url = httpx.URL(_BASE + path, params=params)
    body = b"" if json_body is None else _json.dumps(json_body).encode("utf-8")
    headers = [
        (b"host", b"demo.local"),
        (b"accept", b"*/*"),
        (b"authorization", f"Bearer {token}".encode("ascii")),
    ]
    if json_body is not None:
        headers += [
            (b"content-length", str(len(body)).encode()),
            (b"content-type", b"application/json"),
        ]
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "headers": headers,
        "scheme": "http",
        "path": url.path,
        "raw_path": url.raw_path.split(b"?")[0],
        "query_string": url.query,
        "server": ("demo.local", None),
        "client": ("127.0.0.1", 123),
        "root_path": "",
    }
    sent = False
    done = asyncio.Event()
    status = 500
    parts: list[bytes] = []

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if sent:
            await done.wait()
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: MutableMapping[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            if message.get("body"):
                parts.append(message["body"])
            if not message.get("more_body", False):
                done.set()

    await app(scope, receive, send)
    return status, b"".join(parts)
