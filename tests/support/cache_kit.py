"""Helpers of the response-cache tests: a recording transport and a cached client of the test world."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx

from gitbook_tui.api import (
    AsyncGitBook,
    ResponseMeta,
    response_meta,
)
from gitbook_tui.cache import (
    ResponseCache,
)

BASE = "http://testserver/v1"


class Recording(httpx.AsyncBaseTransport):
    """Wraps a transport and records (method, path, status, If-None-Match) per request."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.log: list[tuple[str, str, int, str | None]] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        entry = (request.method, request.url.path, response.status_code)
        self.log.append((*entry, request.headers.get("if-none-match")))
        return response

    def statuses(self) -> list[int]:
        return [status for _, _, status, _ in self.log]


async def no_sleep(seconds: float) -> None:
    return None


def refuse_connection(request: httpx.Request) -> httpx.Response:
    raise httpx.ConnectError("connection refused", request=request)


def client_for(
    world: Any,
    cache: ResponseCache | None,
    name: str = "alice",
    transport: httpx.AsyncBaseTransport | None = None,
) -> tuple[AsyncGitBook, Recording]:
    recording = Recording(transport or httpx.ASGITransport(app=world.app))
    client = AsyncGitBook(
        f"tok-{name}", base_url=BASE, transport=recording, cache=cache, sleep=no_sleep
    )
    return client, recording


@asynccontextmanager
async def warm_client(
    world: Any, cache: ResponseCache
) -> AsyncIterator[tuple[AsyncGitBook, Recording]]:
    """:func:`client_for` alice, the organization read once already (now in ``cache``)."""
    client, recording = client_for(world, cache)
    async with client:
        await client.orgs.get(world.org)
        yield client, recording


def meta_of(value: object) -> ResponseMeta:
    """What the client said of where ``value`` came from (asserting it said something)."""
    meta = response_meta(value)
    assert meta is not None
    return meta


def raw_files(path: Path) -> bytes:
    return b"".join(
        Path(f"{path}{s}").read_bytes()
        for s in ("", "-wal", "-shm", "-journal")
        if Path(f"{path}{s}").exists()
    )
