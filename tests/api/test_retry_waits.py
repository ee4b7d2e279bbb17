"""Retry waits are visible while they last (for a countdown) and end at once when cancelled."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from gitbook_tui.api import AsyncGitBook, RetryWait, response_meta
from gitbook_tui.cache import ResponseCache
from support.waits import run_ready, until

BASE = "http://gitbook.test/v1"
ORG = {"object": "organization", "id": "org1", "title": "Acme"}


def answers(*steps: tuple[int, dict[str, str]] | type[Exception]) -> Callable[..., Any]:
    """A MockTransport handler answering ``steps`` in turn (the last repeats); a step is
    (status, headers) or an httpx exception class. ``handler.requests`` counts requests."""
    sent: list[httpx.Request] = []

    def handle(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        step = steps[min(len(sent), len(steps)) - 1]
        if isinstance(step, type):
            raise step("simulated", request=request)  # type: ignore[call-arg]
        status, headers = step
        body = ORG if status == 200 else {"error": {"code": status, "message": "Nope"}}
        return httpx.Response(status, json=body, headers=headers)

    handle.requests = sent  # type: ignore[attr-defined]
    return handle


def make(handler: Callable[..., Any], sleep: Any = None) -> AsyncGitBook:
    return AsyncGitBook("tok", base_url=BASE, transport=httpx.MockTransport(handler), sleep=sleep)


async def test_a_rate_limited_read_shows_its_wait_while_it_lasts() -> None:
    seen: list[RetryWait | None] = []
    client: AsyncGitBook

    async def sleep(seconds: float) -> None:
        seen.append(client.retry_wait)

    client = make(answers((429, {"Retry-After": "23"}), (200, {})), sleep)
    async with client:
        assert client.retry_wait is None
        before = time.monotonic()
        await client.orgs.get("org1")
        after = time.monotonic()
        assert client.retry_wait is None and client.retry_waits == ()
    [wait] = seen
    assert wait is not None
    assert (wait.reason, wait.status, wait.method, wait.path) == (
        "rate-limited",
        429,
        "GET",
        "/orgs/org1",
    )
    assert wait.attempt == 1 and wait.seconds == 23.0
    assert before + 23 <= wait.retry_at <= after + 23
    assert wait.describe(now=wait.retry_at - 23) == "rate-limited, retrying in 23 s"
    assert wait.describe(now=wait.retry_at - 0.2) == "rate-limited, retrying in 1 s"
    assert wait.seconds_left(now=wait.retry_at + 5) == 0.0


async def test_listeners_hear_each_wait_start_and_end() -> None:
    heard: list[str | None] = []

    async def sleep(seconds: float) -> None:
        return None

    handler = answers((503, {"Retry-After": "4"}), httpx.ConnectError, (200, {}))
    client = make(handler, sleep)

    def broken(wait: RetryWait | None) -> None:
        raise RuntimeError("a status bar bug")

    async with client:
        stop = client.watch_retry_waits(lambda w: heard.append(w and w.reason))
        client.watch_retry_waits(broken)  # logged, never raised into the request
        await client.orgs.get("org1")
        stop()
        await client.orgs.get("org1")  # would wait again on a 503 ... but answers 200
    assert heard == ["server-error", None, "unreachable", None]
    assert len(handler.requests) == 4  # type: ignore[attr-defined]


async def test_the_wait_ending_last_is_the_status_of_concurrent_requests() -> None:
    gate = asyncio.Event()

    async def sleep(seconds: float) -> None:
        await gate.wait()

    def handler(request: httpx.Request) -> httpx.Response:
        if gate.is_set():
            return httpx.Response(200, json={**ORG, "id": request.url.path.rsplit("/")[-1]})
        after = "30" if request.url.path.endswith("slow") else "10"
        return httpx.Response(429, json={}, headers={"Retry-After": after})

    async with make(handler, sleep) as client:
        tasks = [asyncio.create_task(client.orgs.get(o)) for o in ("fast", "slow")]
        await until(None, lambda: len(client.retry_waits) == 2)
        current = client.retry_wait
        assert current is not None and current.path == "/orgs/slow"
        gate.set()
        results = await asyncio.gather(*tasks)
        assert [org.id for org in results] == ["fast", "slow"]
        assert client.retry_wait is None


async def test_cancelling_the_request_ends_its_wait_at_once() -> None:
    """Navigating away cancels the worker: the 60 s sleep stops now, nothing more is sent."""
    heard: list[RetryWait | None] = []
    handler = answers((429, {"Retry-After": "60"}))
    async with make(handler) as client:  # the real asyncio.sleep
        client.watch_retry_waits(heard.append)
        task = asyncio.create_task(client.orgs.get("org1"))
        await until(None, lambda: client.retry_wait is not None)
        started = time.monotonic()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(task, timeout=2.0)
        assert time.monotonic() - started < 10  # at once, not after the 60 s wait
        assert task.cancelled()
        assert client.retry_wait is None
        await run_ready()  # a retry left behind would send now
    assert len(handler.requests) == 1  # type: ignore[attr-defined]
    assert [w and w.reason for w in heard] == ["rate-limited", None]


async def test_closing_the_client_ends_the_waits_of_background_refreshes(tmp_path: Path) -> None:
    """A prefer-cache refresh that is rate-limited waits in the background; close() ends it."""
    cache = ResponseCache(tmp_path / "cache.sqlite")
    handler = answers((200, {"ETag": 'W/"1"'}), (429, {"Retry-After": "60"}))
    client = make(handler)
    client.cache = cache
    try:
        await client.orgs.get("org1")
        org = await client.orgs.get("org1", read="prefer-cache")
        meta = response_meta(org)
        assert meta is not None and meta.refresh is not None
        await until(None, lambda: client.retry_wait is not None)
        await client.close()
        refresh = meta.refresh
        await until(None, refresh.done)
        assert refresh.cancelled() and client.retry_wait is None
    finally:
        cache.close()
