"""Per-request context of the local server: storage, clock, caller and URL bases."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Request
from starlette.concurrency import run_in_threadpool

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
    callers: CallerCache = field(default_factory=lambda: CallerCache())


class CallerCache:
    """Who each token is, as last read, labelled with the storage's change stamp taken
    before reading it (:meth:`Storage.change_stamp`): an answer is used only while nothing
    was written since, by this server or any other connection to the database, so a
    revoked token, a deleted user or a changed record are seen by the next request. Keys
    are token digests."""

    LIMIT = 256

    def __init__(self) -> None:
        self._known: dict[str, tuple[tuple[int, int], dict[str, Any]]] = {}

    def get(self, key: str, stamp: tuple[int, int]) -> dict[str, Any] | None:
        found = self._known.get(key)
        if found is None or found[0] != stamp:
            return None
        return dict(found[1])  # a handler may change its caller; the kept one stays as read

    def put(self, key: str, stamp: tuple[int, int], user: dict[str, Any]) -> None:
        if len(self._known) >= self.LIMIT:
            self._known.clear()
        self._known[key] = (stamp, dict(user))


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


def _caller(storage: Storage, key: str) -> dict[str, Any] | None:
    with storage.read() as tx:
        record = tx.get("token", key)
        return tx.get("user", record["user"]) if record else None


# async, with the callers kept in memory: a plain ``def`` dependency costs every request a
# worker-thread hop; the database is read (in a worker thread) only when something was
# written since the caller was last read
async def caller_context(request: Request) -> Ctx:
    """The request's context: who sent it (401 without a valid token)."""
    state = server_state(request)
    token = bearer_token(request)
    if token is None:
        raise unauthorized()
    key = token_key(token)
    stamp = state.storage.change_stamp()
    user = state.callers.get(key, stamp)
    if user is None:
        user = await run_in_threadpool(_caller, state.storage, key)
        if user is None:
            raise unauthorized("The access token is not valid.")
        state.callers.put(key, stamp, user)
    origin = str(request.base_url).rstrip("/")
    return Ctx(state=state, caller=user, origin=origin)


CtxDep = Annotated[Ctx, Depends(caller_context)]

R = TypeVar("R")


async def quick_read(ctx: Ctx, read: Callable[[], R]) -> R:
    """``read()`` (a few indexed reads, no writes) on the event loop when the storage is
    free: a plain ``def`` handler costs every request a worker-thread hop (~1 ms of CPU),
    more than such a read. While another thread holds the storage (a write), it runs in a
    worker thread as a ``def`` handler would, so the loop never waits on a write."""
    done, value = ctx.storage.run_if_free(read)
    if done:
        return value  # type: ignore[return-value]  # read() returned it
    return await run_in_threadpool(read)
