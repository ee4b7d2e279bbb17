"""Shared fixtures: an isolated local server in-process, users of every role with tokens."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from gitbook_tui.api import AsyncGitBook
from gitbook_tui.cache import ResponseCache
from gitbook_tui.server.app import create_app
from gitbook_tui.server.bootstrap import add_member, create_org, create_user
from gitbook_tui.server.core.clock import Clock
from gitbook_tui.server.core.context import issue_token
from gitbook_tui.server.core.storage import Storage

START = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)

# org role per test user; "otto" is not a member of the organization at all.
ROLES = {
    "alice": "admin",
    "carol": "create",
    "eve": "edit",
    "rita": "review",
    "cody": "comment",
    "rhea": "read",
    "otto": None,
}


@pytest.fixture(autouse=True)
def _isolated_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test reads or writes the real user's config or cache."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("GITBOOK_TOKEN", raising=False)
    monkeypatch.delenv("GITBOOK_API_URL", raising=False)
    # no key a test presses (ctrl+o, e) may start the developer's own editor
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.delenv("EDITOR", raising=False)


@pytest.fixture
def clock() -> Clock:
    return Clock(fixed=START)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "workspace.sqlite"


TESTS_DIR = Path(__file__).parent


def operator_allowances(request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, Any]:
    """``create_app`` options of a test marked ``local_fetches``: the operator lets API
    imports read the tests' folders (fixtures, tmp_path) and fetch from loopback peers."""
    if request.node.get_closest_marker("local_fetches") is None:
        return {}
    return {"allow_import_roots": [TESTS_DIR, tmp_path], "allow_fetch_hosts": ["127.0.0.1"]}


@pytest.fixture
def app(db_path: Path, clock: Clock, request: pytest.FixtureRequest, tmp_path: Path) -> FastAPI:
    return create_app(db_path, clock=clock, id_seed=7, **operator_allowances(request, tmp_path))


@dataclass
class World:
    """A fresh organization with one user per role; ``client(name)`` speaks as that user."""

    app: FastAPI
    storage: Storage
    clock: Clock
    org: str
    other_org: str
    users: dict[str, str] = field(default_factory=dict)
    _clients: dict[str, TestClient] = field(default_factory=dict)

    def client(self, name: str = "alice") -> TestClient:
        if name not in self._clients:
            c = TestClient(self.app, base_url="http://testserver/v1", raise_server_exceptions=False)
            c.headers["Authorization"] = f"Bearer tok-{name}"
            self._clients[name] = c
        return self._clients[name]

    def anonymous(self) -> TestClient:
        return TestClient(self.app, base_url="http://testserver/v1", raise_server_exceptions=False)

    def close(self) -> None:
        for c in self._clients.values():
            c.close()


@pytest.fixture
def world(app: FastAPI, clock: Clock) -> Iterator[World]:
    storage: Storage = app.state.server.storage
    with storage.transaction() as tx:
        org = create_org(
            tx, storage, clock, "Acme Docs", hostname="acme", emailDomains=["acme.test"]
        )
        other = create_org(tx, storage, clock, "Other Org", hostname="other")
        users = {}
        for name, role in ROLES.items():
            user = create_user(tx, storage, clock, name.capitalize(), f"{name}@acme.test")
            users[name] = user["id"]
            issue_token(tx, user["id"], f"tok-{name}")
            if role is not None:
                add_member(tx, clock, org["id"], user["id"], role)
        add_member(tx, clock, other["id"], users["alice"], "admin")
        add_member(tx, clock, other["id"], users["otto"], "admin")
    w = World(
        app=app, storage=storage, clock=clock, org=org["id"], other_org=other["id"], users=users
    )
    yield w
    w.close()


def assert_error(response: object, status: int, *fragments: str) -> dict:
    """The response is an API error with ``status`` whose message contains ``fragments``."""
    assert response.status_code == status, (response.status_code, response.text)  # type: ignore[attr-defined]
    body = response.json()  # type: ignore[attr-defined]
    assert set(body) == {"error"}, body
    assert body["error"]["code"] == status
    message = body["error"]["message"]
    for fragment in fragments:
        assert fragment.lower() in message.lower(), (fragment, message)
    return body


@pytest.fixture
def make_space(world: World) -> Callable[..., dict]:
    """Create a space through the API (as alice unless told) and return its JSON."""

    def _make(title: str = "Guide", *, as_user: str = "alice", **fields: object) -> dict:
        r = world.client(as_user).post(f"/orgs/{world.org}/spaces", json={"title": title, **fields})
        assert r.status_code in (200, 201), r.text
        return r.json()

    return _make


Clients = Callable[..., AsyncGitBook]


@pytest.fixture
async def connect(world: Any) -> AsyncIterator[Clients]:
    """``connect(name, **options)``: a client speaking to the in-process server as that user."""
    opened: list[AsyncGitBook] = []

    def _connect(name: str = "alice", **options: Any) -> AsyncGitBook:
        client = AsyncGitBook(
            f"tok-{name}",
            base_url="http://testserver/v1",
            transport=httpx.ASGITransport(app=world.app),
            **options,
        )
        opened.append(client)
        return client

    yield _connect
    for client in opened:
        await client.close()


@pytest.fixture
def gb(connect: Clients) -> AsyncGitBook:
    """A client speaking as alice (organization admin)."""
    return connect("alice")


async def until(pilot: Any, condition: Callable[[], Any], timeout: float = 10.0) -> None:
    """Let a Textual app run (``pilot``) until ``condition()`` holds, or fail after
    ``timeout`` seconds (generous: CI machines are loaded)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError("condition not reached in time")
        await pilot.pause(0.02)


def workers_done(app: Any, ignore: tuple[str, ...] = ()) -> bool:
    """No worker of ``app`` is left to run (one just started is PENDING: not done), apart
    from those in the ``ignore`` groups."""
    return all(w.is_finished or w.group in ignore for w in app.workers)


@pytest.fixture
def cache(tmp_path: Path) -> Iterator[ResponseCache]:
    """A response cache in a temporary directory (the client tests' cache; it replaces
    pytest's own ``cache`` fixture, which no test here uses)."""
    c = ResponseCache(tmp_path / "cache" / "responses.sqlite")
    yield c
    c.close()
