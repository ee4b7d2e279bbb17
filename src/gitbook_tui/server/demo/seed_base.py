"""The demo seeder's plumbing: the replay clock, API clients per user, scheduled events, lookups."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

import httpx
from fastapi import FastAPI

from ..core.clock import Clock
from ..core.storage import Storage
from .identity import DEMO_DIR, demo_admin_token, demo_token  # noqa: F401  (re-exported)

DEMO_ID_SEED = 2026
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
        self._clients: dict[str, httpx.AsyncClient] = {}
        self._events: list[Event] = []
        self.cancelled: Callable[[], bool] | None = None  # asked before every API call

    def at(self, days_ago: float) -> None:
        self.clock.set(self.now - timedelta(days=float(days_ago)))

    def client(self, user_key: str) -> httpx.AsyncClient:
        if user_key not in self._clients:
            self._clients[user_key] = httpx.AsyncClient(
                transport=httpx.ASGITransport(app=self.app),
                base_url="http://demo.local/v1",
                headers={"Authorization": f"Bearer {demo_token(user_key)}"},
                timeout=120,
            )
        return self._clients[user_key]

    async def call(self, user: str, method: str, path: str, **kwargs: Any) -> Any:
        if self.cancelled is not None and self.cancelled():
            raise SeedCancelled("the demo seeding was stopped")
        response = await self.client(user).request(method, path, **kwargs)
        if response.status_code >= 400:
            raise SeedError(
                f"{method} {path} as {user}: {response.status_code} {response.text[:300]}"
            )
        return response.json() if response.content else None

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
