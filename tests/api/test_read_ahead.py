"""Walking a whole list reads one page ahead: asked for early, never further, cancelled on stop."""

from __future__ import annotations

import asyncio
import json
import threading
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import BaseModel, field_validator

from gitbook_tui.api import AsyncGitBook, NotFoundError
from gitbook_tui.api.pagination import AsyncPager, peek_next_page
from gitbook_tui.cache import ResponseCache
from support.local_http import local_server
from support.waits import run_ready, until

BASE = "http://gitbook.test/v1"


def space(n: int) -> dict[str, Any]:
    return {"object": "space", "id": f"s{n}", "title": f"Space {n}"}


class Pages:
    """A list of ``count`` pages of two spaces; page ``n`` waits for ``gates[n]`` when set.
    Records the page token of each request, and which requests were cancelled."""

    def __init__(self, count: int = 3) -> None:
        self.count = count
        self.tokens: list[str | None] = []
        self.cancelled: list[str | None] = []
        self.gates: dict[int, asyncio.Event] = {}
        self.fail: set[int] = set()

    async def __call__(self, request: httpx.Request) -> httpx.Response:
        token = request.url.params.get("page")
        self.tokens.append(token)
        n = int(token[1:]) if token else 0
        try:
            if n in self.gates:
                await self.gates[n].wait()
        except asyncio.CancelledError:
            self.cancelled.append(token)
            raise
        if n in self.fail:
            return httpx.Response(404, json={"error": {"code": 404, "message": "gone"}})
        nxt = {"page": f"p{n + 1}"} if n + 1 < self.count else None
        return httpx.Response(200, json={"items": [space(2 * n), space(2 * n + 1)], "next": nxt})


def client(pages: Pages, **options: Any) -> AsyncGitBook:
    return AsyncGitBook("tok", base_url=BASE, transport=httpx.MockTransport(pages), **options)


async def test_every_item_in_order() -> None:
    pages = Pages(4)
    async with client(pages) as c:
        ids = [s.id async for s in c.spaces.list_in_org("org1", limit=2)]
    assert ids == [f"s{n}" for n in range(8)]
    assert pages.tokens == [None, "p1", "p2", "p3"]


async def test_the_next_page_is_asked_for_before_the_caller_wants_it_and_no_further() -> None:
    pages = Pages(4)
    async with client(pages) as c:
        walk = c.spaces.list_in_org("org1", limit=2).pages()
        first = await anext(walk)
        assert [s.id for s in first.items] == ["s0", "s1"]
        await until(None, lambda: len(pages.tokens) == 2)  # p1 is on its way already
        await run_ready()
        assert pages.tokens == [None, "p1"]  # but not p2: one page ahead at most
        second = await anext(walk)
        assert [s.id for s in second.items] == ["s2", "s3"]
        await walk.aclose()


async def test_stopping_early_cancels_the_page_read_ahead() -> None:
    pages = Pages(3)
    pages.gates[1] = asyncio.Event()  # p1 never answers
    async with client(pages) as c:
        async for s in c.spaces.list_in_org("org1", limit=2):
            if s.id == "s1":
                await until(None, lambda: len(pages.tokens) == 2)
                break
        await until(None, lambda: pages.cancelled == ["p1"])


async def test_an_error_on_a_later_page_reaches_the_caller_there() -> None:
    pages = Pages(3)
    pages.fail.add(1)
    seen: list[str] = []
    async with client(pages) as c:
        with pytest.raises(NotFoundError):
            async for s in c.spaces.list_in_org("org1", limit=2):
                seen.append(s.id)
    assert seen == ["s0", "s1"]


async def test_a_repeated_token_ends_the_walk() -> None:
    def loop(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"items": [space(0)], "next": {"page": "same"}})

    transport = httpx.MockTransport(loop)
    async with AsyncGitBook("tok", base_url=BASE, transport=transport) as c:
        ids = [s.id async for s in c.spaces.list_in_org("org1")]
    assert ids == ["s0", "s0"]  # the first page, then "same" once


async def test_capped_and_cached_walks_read_one_page_at_a_time() -> None:
    pages = Pages(4)
    async with client(pages) as c:
        walk = c.spaces.list_in_org("org1", limit=2, max_items=6).pages()
        await anext(walk)
        await run_ready()
        assert pages.tokens == [None]
        await walk.aclose()


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (b'{"items": [{"id": "a", "next": {"page": "no"}}], "next": {"page": "p2"}}', "p2"),
        (b'{"items": [], "next": null}', None),
        (b'{"items": []}', None),
        (b"<html>", None),
    ],
)
def test_peek_next_page(body: bytes, expected: str | None) -> None:
    assert peek_next_page(body) == expected


class _PagesHandler(BaseHTTPRequestHandler):
    """Two pages over real HTTP/1.1 keep-alive; records when the second page is asked for."""

    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        second = "page=p1" in self.path
        if second:
            self.server.second_asked.set()  # type: ignore[attr-defined]
        body = json.dumps(
            {"items": [{"id": "s1"}], "next": None}
            if second
            else {"items": [{"id": "s0"}], "next": {"page": "p1"}}
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


async def test_the_next_request_reaches_the_server_before_this_page_is_parsed() -> None:
    """Over a real connection: while the first page's items are being validated, the
    server has already been asked for the second (so it prepares it meanwhile)."""
    second_asked = threading.Event()
    asked_before_parse: list[bool] = []

    class Probe(BaseModel):
        id: str

        @field_validator("id")
        @classmethod
        def _record(cls, value: str) -> str:
            if value == "s0":  # blocks this loop: only a request already written arrives
                asked_before_parse.append(second_asked.wait(10))
            return value

    with local_server(_PagesHandler) as server:
        server.second_asked = second_asked  # type: ignore[attr-defined]
        base = f"http://127.0.0.1:{server.server_address[1]}/v1"
        async with AsyncGitBook("tok", base_url=base) as c:
            pager = AsyncPager(c.spaces._client, "/orgs/org1/spaces", Probe)
            ids = [item.id async for item in pager]
    assert ids == ["s0", "s1"]
    assert asked_before_parse == [True]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (b'{"items": [], "next": {"page": "tail"}}', "tail"),
        (b'{"items": [{"next": {"page": "item"}}]}', None),  # an item's, not the envelope's
        (b'{"next": {"page": "first"}, "items": [{"id": "a"}]}', "first"),
        (b'{"items": [{"next": {"page": "x"}}], "next": {"page": "p\\u0032"}}', "p2"),
    ],
)
def test_peek_next_page_reads_the_envelope_only(body: bytes, expected: str | None) -> None:
    assert peek_next_page(body) == expected


async def test_the_next_request_goes_out_before_this_page_is_written_to_the_cache(
    tmp_path: Path,
) -> None:
    pages = Pages(3)
    asked_when_stored: list[int] = []

    class Watched(ResponseCache):
        def put(self, *args: Any, **kwargs: Any) -> None:
            asked_when_stored.append(len(pages.tokens))
            super().put(*args, **kwargs)

    cache = Watched(tmp_path / "cache.sqlite")
    try:
        async with client(pages, cache=cache) as c:
            ids = [s.id async for s in c.spaces.list_in_org("org1", limit=2)]
    finally:
        cache.close()
    assert ids == [f"s{n}" for n in range(6)]
    assert asked_when_stored[0] == 2  # the first page stored once the second was asked for
