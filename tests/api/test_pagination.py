"""``AsyncPager``: one page by ``await``, every item by ``async for``, limits and caps."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from gitbook_tui.api import AsyncGitBook, AsyncPager
from gitbook_tui.models import Member, Page

BASE = "http://testserver/v1"


class Counting(httpx.AsyncBaseTransport):
    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.requests: list[httpx.Request] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return await self.inner.handle_async_request(request)


def local_client(world: Any) -> tuple[AsyncGitBook, Counting]:
    transport = Counting(httpx.ASGITransport(app=world.app))
    return AsyncGitBook("tok-alice", base_url=BASE, transport=transport), transport


def members_in_org(world: Any) -> set[str]:
    return {uid for name, uid in world.users.items() if name != "otto"}


# -- against the local server ---------------------------------------------------------------
async def test_await_gives_one_page(world: Any) -> None:
    client, transport = local_client(world)
    async with client:
        page = await client.orgs.members(world.org, limit=2)
    assert isinstance(page, Page)
    assert len(page.items) == 2
    assert all(isinstance(m, Member) for m in page.items)
    assert page.next is not None and page.next.page
    assert len(transport.requests) == 1
    assert transport.requests[0].url.params["limit"] == "2"


async def test_async_for_follows_next_page(world: Any) -> None:
    client, transport = local_client(world)
    async with client:
        ids = [m.id async for m in client.orgs.members(world.org, limit=2)]
    assert len(ids) == len(set(ids)) == 6
    assert set(ids) == members_in_org(world)
    assert len(transport.requests) == 3
    assert [r.url.params.get("limit") for r in transport.requests] == ["2", "2", "2"]
    assert "page" not in transport.requests[0].url.params
    assert all(r.url.params.get("page") for r in transport.requests[1:])


async def test_page_token_fetches_the_next_page(world: Any) -> None:
    client, _ = local_client(world)
    async with client:
        pager = client.orgs.members(world.org, limit=4)
        first = await pager
        assert first.next is not None
        second = await pager.page(first.next.page)
    assert len(first.items) == 4 and len(second.items) == 2
    assert second.next is None
    assert {m.id for m in first.items + second.items} == members_in_org(world)


async def test_max_items_against_the_local_server(world: Any) -> None:
    client, transport = local_client(world)
    async with client:
        members = await client.orgs.members(world.org, limit=2, max_items=3).to_list()
    assert len(members) == 3
    assert len(transport.requests) == 2
    assert transport.requests[1].url.params["limit"] == "1"  # only what is still needed


async def test_pages_yields_page_objects(world: Any) -> None:
    client, _ = local_client(world)
    async with client:
        sizes = [len(p.items) async for p in client.orgs.members(world.org, limit=4).pages()]
    assert sizes == [4, 2]


@pytest.mark.parametrize("limit", [0, -1, 1001, 5000])
async def test_limit_out_of_range_is_a_value_error(world: Any, limit: int) -> None:
    client, transport = local_client(world)
    async with client:
        with pytest.raises(ValueError, match="limit"):
            client.orgs.members(world.org, limit=limit)
    assert transport.requests == []


async def test_limit_1000_is_allowed(world: Any) -> None:
    client, transport = local_client(world)
    async with client:
        members = await client.orgs.members(world.org, limit=1000).to_list()
    assert len(members) == 6
    assert transport.requests[0].url.params["limit"] == "1000"


async def test_negative_max_items_is_a_value_error(world: Any) -> None:
    client, _ = local_client(world)
    async with client:
        with pytest.raises(ValueError, match="max_items"):
            client.orgs.members(world.org, max_items=-1)


# -- stop conditions (mock server) ----------------------------------------------------------
class Pages:
    """A mock list of ``total`` numbered items, ``size`` per page (or the request's limit)."""

    def __init__(self, total: int, size: int = 10, *, stuck: bool = False) -> None:
        self.total = total
        self.size = size
        self.stuck = stuck
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        start = int(request.url.params.get("page", "0"))
        size = int(request.url.params.get("limit", self.size))
        items = [{"id": str(i)} for i in range(start, min(start + size, self.total))]
        body: dict[str, Any] = {"items": items}
        if self.stuck:
            body["next"] = {"page": "5"}
        elif start + size < self.total:
            body["next"] = {"page": str(start + size)}
        return httpx.Response(200, json=body)


def mock_pager(server: Pages, **options: Any) -> tuple[AsyncGitBook, AsyncPager[dict[str, Any]]]:
    client = AsyncGitBook("tok-x", base_url=BASE, transport=httpx.MockTransport(server))
    return client, AsyncPager(client, "/things", dict, **options)


async def test_stops_when_there_is_no_next_page() -> None:
    server = Pages(25)
    client, pager = mock_pager(server, limit=10)
    async with client:
        items = await pager.to_list()
    assert [i["id"] for i in items] == [str(i) for i in range(25)]
    assert len(server.requests) == 3


async def test_max_items_caps_items_and_requests() -> None:
    server = Pages(1000)
    client, pager = mock_pager(server, limit=10, max_items=15)
    async with client:
        items = [item async for item in pager]
    assert len(items) == 15
    assert len(server.requests) == 2
    assert [r.url.params["limit"] for r in server.requests] == ["10", "5"]


async def test_max_items_on_a_page_boundary_makes_no_extra_request() -> None:
    server = Pages(1000)
    client, pager = mock_pager(server, limit=10, max_items=20)
    async with client:
        items = await pager.to_list()
    assert len(items) == 20
    assert len(server.requests) == 2


async def test_max_items_even_when_the_server_sends_more() -> None:
    def oversized(request: httpx.Request) -> httpx.Response:
        items = [{"id": str(i)} for i in range(50)]  # ignores the limit
        return httpx.Response(200, json={"items": items, "next": {"page": "x"}})

    client = AsyncGitBook("tok-x", base_url=BASE, transport=httpx.MockTransport(oversized))
    async with client:
        items = await AsyncPager(client, "/things", dict, max_items=7).to_list()
    assert len(items) == 7


async def test_max_items_without_limit_asks_for_what_is_needed() -> None:
    server = Pages(100)
    client, pager = mock_pager(server, max_items=3)
    async with client:
        items = await pager.to_list()
    assert len(items) == 3
    assert [r.url.params["limit"] for r in server.requests] == ["3"]


async def test_max_items_zero_makes_no_request() -> None:
    server = Pages(10)
    client, pager = mock_pager(server, max_items=0)
    async with client:
        assert await pager.to_list() == []
    assert server.requests == []


async def test_empty_list() -> None:
    server = Pages(0)
    client, pager = mock_pager(server)
    async with client:
        assert await pager.to_list() == []
        page = await pager
    assert page.items == [] and page.next is None
    assert len(server.requests) == 2


async def test_a_repeating_next_token_does_not_loop_forever() -> None:
    server = Pages(100, stuck=True)
    client, pager = mock_pager(server, limit=10)
    async with client:
        items = await pager.to_list()
    assert len(server.requests) == 2
    assert len(items) == 20


async def test_extra_params_are_sent_and_none_dropped() -> None:
    server = Pages(3)
    client = AsyncGitBook("tok-x", base_url=BASE, transport=httpx.MockTransport(server))
    async with client:
        pager = AsyncPager(client, "/things", dict, params={"role": "admin", "q": None})
        await pager.to_list()
    params = server.requests[0].url.params
    assert params["role"] == "admin"
    assert "q" not in params and "limit" not in params
