"""Seeded servers for tests: an organization with a user per role (``World``), built once per
session as a template and copied per test, and the seeded demo workspace the same way."""

from __future__ import annotations

import random
import shutil
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from gitbook_tui.api import AsyncGitBook
from gitbook_tui.server.app import create_app
from gitbook_tui.server.bootstrap import add_member, create_org, create_user
from gitbook_tui.server.core.clock import Clock
from gitbook_tui.server.core.context import issue_token
from gitbook_tui.server.core.storage import Storage
from gitbook_tui.server.demo.seed import seed_demo_if_empty

START = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)
"""The fixed server clock every world starts at."""

ID_SEED = 7
"""Ids are deterministic in every world (snapshots show some)."""

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


Clients = Callable[..., AsyncGitBook]
"""``connect(name, **options)``: a client speaking to the in-process server as that user."""


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
            # entered once: its event loop thread then serves every request of the test
            # (unentered, each request starts and stops a thread and a loop of its own)
            c.__enter__()
            c.headers["Authorization"] = f"Bearer tok-{name}"
            self._clients[name] = c
        return self._clients[name]

    def anonymous(self) -> TestClient:
        return TestClient(self.app, base_url="http://testserver/v1", raise_server_exceptions=False)

    def close(self) -> None:
        for c in self._clients.values():
            c.__exit__(None, None, None)
        self._clients.clear()


def populate_world(storage: Storage, clock: Clock) -> dict[str, Any]:
    """Write the organizations, users and tokens of a world; return its ids."""
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
    return {"org": org["id"], "other_org": other["id"], "users": users}


@dataclass(frozen=True)
class Template:
    """A seeded database file and what a copy needs to go on exactly as the original would:
    the id generator's state and the clock's time, plus whatever ids the seeding returned."""

    path: Path
    rng_state: Any
    now: datetime
    ids: dict[str, Any]


def make_template(
    folder: Path,
    seed: Callable[[Storage, Clock], dict[str, Any]],
    *,
    id_seed: int | None = ID_SEED,
    clock: Clock | None = None,
) -> Template:
    """Seed a database once (``seed(storage, clock)`` returns the ids tests need)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "template.sqlite"
    storage = Storage(path, id_seed=id_seed)
    clock = clock or Clock(fixed=START)
    ids = seed(storage, clock)
    rng = storage._rng
    # a system-random generator (ids not seeded) has no state to carry over
    state = None if isinstance(rng, random.SystemRandom) else rng.getstate()
    with storage.transaction():  # fold the write-ahead log into the file before copying
        pass
    storage._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    storage.close()
    return Template(path=path, rng_state=state, now=clock.now(), ids=ids)


def copy_template(template: Template, path: Path) -> Storage:
    """A private copy of ``template`` at ``path``, its ids going on from the template's."""
    path.parent.mkdir(parents=True, exist_ok=True)
    source = sqlite3.connect(f"file:{template.path}?mode=ro", uri=True)
    target = sqlite3.connect(path)
    try:
        source.backup(target)
    finally:
        source.close()
        target.close()
    storage = Storage(path)
    if template.rng_state is not None:
        rng = random.Random()
        rng.setstate(template.rng_state)
        storage._rng = rng
    return storage


def seed_demo(storage: Storage, clock: Clock) -> dict[str, Any]:
    """The demo workspace, seeded as ``gitbook-tui --demo`` seeds it."""
    seed_demo_if_empty(create_app(storage, clock=clock))
    return {}


def make_demo_template(folder: Path) -> Template:
    """The seeded demo workspace (seconds of work: once per test process)."""
    return make_template(folder, seed_demo, id_seed=None, clock=Clock())


def demo_app(template: Template, path: Path, **options: Any) -> FastAPI:
    """A server app over a private copy of the demo workspace."""
    return create_app(copy_template(template, path), **options)


def copy_file(template: Template, path: Path) -> None:
    """The template's file copied as is (for a server started in another process)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(template.path, path)
