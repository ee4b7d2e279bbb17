"""Per-request context of the local server: storage, clock, caller and URL bases."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Depends, Request

from .clock import Clock, iso
from .errors import unauthorized
from .storage import Storage, Tx
from .url_guard import FetchPolicy


@dataclass
class ServerState:
    """What every request shares: the database, the clock and outbound-fetch limits."""

    storage: Storage
    clock: Clock
    fetch_timeout: float = 10.0
    fetch_max_bytes: int = 5 * 1024 * 1024
    extra: dict[str, Any] = field(default_factory=dict)
    # What the operator lets outbound fetches reach (file:// roots, hosts exempt from the
    # private-address check): nothing by default.
    fetch_policy: FetchPolicy = field(default_factory=FetchPolicy)
    # The key of signed download links (``/files/…?expires=…&signature=…``), kept in the db.
    file_secret: bytes = b""


def token_key(token: str) -> str:
    """Tokens are stored only as a one-way digest."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def issue_token(tx: Tx, user_id: str, token: str) -> None:
    tx.put("token", token_key(token), {"user": user_id}, scope=user_id)


@dataclass
class Ctx:
    state: ServerState
    caller: dict[str, Any]
    origin: str

    @property
    def storage(self) -> Storage:
        return self.state.storage

    @property
    def user_id(self) -> str:
        return str(self.caller["id"])

    @property
    def api(self) -> str:
        return f"{self.origin}/v1"

    @property
    def app(self) -> str:
        return f"{self.origin}/app"

    def now(self) -> str:
        return iso(self.state.clock.now())

    def new_id(self) -> str:
        return self.state.storage.new_id()

    @contextmanager
    def write(self) -> Iterator[Tx]:
        with self.state.storage.transaction() as tx:
            yield tx

    @contextmanager
    def read(self) -> Iterator[Tx]:
        with self.state.storage.read() as tx:
            yield tx


def server_state(request: Request) -> ServerState:
    return request.app.state.server  # type: ignore[no-any-return]


def bearer_token(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()


def _context(request: Request) -> Ctx:
    state = server_state(request)
    token = bearer_token(request)
    if token is None:
        raise unauthorized()
    with state.storage.read() as tx:
        record = tx.get("token", token_key(token))
        user = tx.get("user", record["user"]) if record else None
    if user is None:
        raise unauthorized("The access token is not valid.")
    origin = str(request.base_url).rstrip("/")
    return Ctx(state=state, caller=user, origin=origin)


CtxDep = Annotated[Ctx, Depends(_context)]
