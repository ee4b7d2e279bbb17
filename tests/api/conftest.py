"""Fixtures of the client tests: clients speaking to the in-process local server."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest

from gitbook_tui.api import AsyncGitBook

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
