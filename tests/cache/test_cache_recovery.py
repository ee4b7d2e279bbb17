"""An unreadable cached answer is dropped and read again in full, in every read mode."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from gitbook_tui.api import (
    APIConnectionError,
    AsyncGitBook,
    CacheMissError,
    ResponseValidationError,
    response_meta,
)
from gitbook_tui.cache import ResponseCache, account_fingerprint, entry_key

BASE = "http://testserver/v1"
GARBAGE = b"<html><body>502 Bad Gateway</body></html>"


async def _no_sleep(seconds: float) -> None:
    return None


class CorruptOnce(httpx.AsyncBaseTransport):
    """The in-process server, except that the first 200 answer to each path in ``paths``
    comes back as an HTML page (keeping the server's ETag, as a broken proxy would).
    Records (path, status, If-None-Match) of every request."""

    def __init__(self, app: Any, paths: set[str]) -> None:
        self.inner = httpx.ASGITransport(app=app)
        self.pending = set(paths)
        self.log: list[tuple[str, int, str | None]] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        path = request.url.path
        self.log.append((path, response.status_code, request.headers.get("if-none-match")))
        if path in self.pending and response.status_code == 200:
            self.pending.discard(path)
            await response.aread()
            headers = [(k, v) for k, v in response.headers.items() if k != "content-length"]
            return httpx.Response(200, headers=headers, content=GARBAGE)
        return response


@pytest.fixture
def cache(tmp_path: Path) -> ResponseCache:
    c = ResponseCache(tmp_path / "cache" / "responses.sqlite")
    yield c  # type: ignore[misc]
    c.close()


@pytest.fixture
def space(make_space: Any) -> str:
    return str(make_space("Recovery")["id"])


def _client(world: Any, cache: ResponseCache, transport: httpx.AsyncBaseTransport) -> AsyncGitBook:
    return AsyncGitBook(
        "tok-alice", base_url=BASE, transport=transport, cache=cache, sleep=_no_sleep
    )


def _spoil(cache: ResponseCache, path: str, query: str = "") -> None:
    """Replace the cached body of ``path`` with garbage, keeping its (valid) ETag."""
    key = entry_key(account_fingerprint(BASE, "tok-alice"), "GET", path, query)
    entry = cache.get(key)
    assert entry is not None and entry.etag, "the answer was cached with an ETag"
    cache.put(key, account_fingerprint(BASE, "tok-alice"), path, GARBAGE, entry.etag)


async def test_a_corrupted_answer_is_not_revalidated_but_read_again(
    world: Any, cache: ResponseCache, space: str
) -> None:
    """The tree and search break once (a garbled answer); the next network reads recover
    with full answers instead of 304s confirming the garbage."""
    tree, search = f"/v1/spaces/{space}/content/pages", f"/v1/spaces/{space}/search"
    transport = CorruptOnce(world.app, {tree, search})
    async with _client(world, cache, transport) as client:
        with pytest.raises(ResponseValidationError):
            await client.content.pages(space)
        with pytest.raises(ResponseValidationError):
            await client.content.search(space, "orbit")
        pages = await client.content.pages(space)
        found = await client.content.search(space, "orbit")
        assert pages.pages == [] and found.items == []
        await client.content.pages(space)  # now a readable answer is cached: 304 is fine
    assert [(p, s, etag is not None) for p, s, etag in transport.log] == [
        (tree, 200, False),
        (search, 200, False),
        (tree, 200, False),
        (search, 200, False),
        (tree, 304, True),
    ]


async def test_a_spoiled_cache_entry_confirmed_by_304_is_read_again(
    world: Any, cache: ResponseCache
) -> None:
    """The reported case: the cached body is bad, the server answers 304 to its ETag."""
    path = f"/orgs/{world.org}"
    transport = CorruptOnce(world.app, set())
    async with _client(world, cache, transport) as client:
        await client.orgs.get(world.org)
        _spoil(cache, path)
        org = await client.orgs.get(world.org)
        again = await client.orgs.get(world.org)
    assert org.id == world.org and again.id == world.org
    meta = response_meta(org)
    assert meta is not None and meta.source == "network"
    assert [(s, etag is not None) for _, s, etag in transport.log] == [
        (200, False),  # first read
        (304, True),  # confirms the spoiled body ...
        (200, False),  # ... which is dropped and read in full
        (304, True),  # the good body is cached again
    ]


async def test_prefer_cache_skips_a_spoiled_entry(world: Any, cache: ResponseCache) -> None:
    transport = CorruptOnce(world.app, set())
    async with _client(world, cache, transport) as client:
        await client.orgs.get(world.org)
        _spoil(cache, f"/orgs/{world.org}")
        org = await client.orgs.get(world.org, read="prefer-cache")
        cached = await client.orgs.get(world.org, read="cache-only")
    assert org.id == cached.id == world.org
    assert [(s, etag is not None) for _, s, etag in transport.log] == [(200, False), (200, False)]


async def test_cache_only_treats_a_spoiled_entry_as_missing(
    world: Any, cache: ResponseCache
) -> None:
    transport = CorruptOnce(world.app, set())
    async with _client(world, cache, transport) as client:
        await client.orgs.get(world.org)
        _spoil(cache, f"/orgs/{world.org}")
        with pytest.raises(CacheMissError):
            await client.orgs.get(world.org, read="cache-only")
        with pytest.raises(CacheMissError):  # and it is gone, not read again
            await client.orgs.get(world.org, read="cache-only")
        assert (await client.orgs.get(world.org)).id == world.org
    assert [(s, etag is not None) for _, s, etag in transport.log] == [(200, False), (200, False)]


async def test_offline_with_a_spoiled_entry_reports_the_connection_error(
    world: Any, cache: ResponseCache
) -> None:
    async with _client(world, cache, CorruptOnce(world.app, set())) as client:
        await client.orgs.get(world.org)
    _spoil(cache, f"/orgs/{world.org}")

    def offline(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    async with _client(world, cache, httpx.MockTransport(offline)) as client:
        with pytest.raises(APIConnectionError):
            await client.orgs.get(world.org)
        with pytest.raises(CacheMissError):
            await client.orgs.get(world.org, read="cache-only")


async def test_a_garbled_background_refresh_is_not_kept(world: Any, cache: ResponseCache) -> None:
    """prefer-cache's refresh gets a garbled 200: it fails, and the next read is a full one."""
    path = f"/v1/orgs/{world.org}"
    transport = CorruptOnce(world.app, set())
    async with _client(world, cache, transport) as client:
        await client.orgs.get(world.org)
        world.client("alice").patch(f"/orgs/{world.org}", json={"title": "Renamed"})
        transport.pending.add(path)
        org = await client.orgs.get(world.org, read="prefer-cache")
        meta = response_meta(org)
        assert meta is not None and meta.refresh is not None
        with pytest.raises(ResponseValidationError):
            await meta.refresh
        fresh = await client.orgs.get(world.org)
    assert fresh.title == "Renamed"
    assert [(s, etag is not None) for _, s, etag in transport.log] == [
        (200, False),
        (200, True),  # the refresh: changed, but garbled on the way
        (200, False),
    ]
