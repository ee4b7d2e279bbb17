"""The browser's small reads (:mod:`gitbook_tui.tui.browse.browse_reads`), with a client
alone — no screen, no Textual: the signed-in user's names (cached, then the server's), a
page found by its path, a space's own count of open threads."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from gitbook_tui.api import APIConnectionError, AsyncGitBook, GitBookError
from gitbook_tui.cache import ResponseCache
from gitbook_tui.tui.browse.browse_reads import (
    page_id_at_path,
    read_space,
    signed_in_names,
    space_comment_total,
)

BASE = "http://testserver/v1"


class Server(httpx.AsyncBaseTransport):
    """The in-process server; ``offline`` refuses every request, ``rename`` changes the
    signed-in user's display name in ``GET /user`` answers."""

    def __init__(self, app: Any) -> None:
        self.inner = httpx.ASGITransport(app=app)
        self.offline = False
        self.rename: str | None = None

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.offline:
            raise httpx.ConnectError("network is down", request=request)
        if self.rename is None or not request.url.path.endswith("/user"):
            return await self.inner.handle_async_request(request)
        # (the whole answer, not "not modified": the name the server has now differs)
        request.headers.pop("if-none-match", None)
        response = await self.inner.handle_async_request(request)
        body = json.loads(await response.aread())
        body["displayName"] = self.rename
        headers = {k: v for k, v in response.headers.items() if k.lower() != "etag"}
        headers.pop("content-length", None)
        return httpx.Response(response.status_code, json=body, headers=headers)


def client_for(transport: httpx.AsyncBaseTransport, cache: ResponseCache) -> AsyncGitBook:
    return AsyncGitBook("tok-alice", base_url=BASE, transport=transport, max_retries=0, cache=cache)


def space_with_page(world: Any) -> tuple[str, str, str]:
    """A new space of one merged page: (space id, page id, page path)."""
    a = world.client("alice")
    space = a.post(f"/orgs/{world.org}/spaces", json={"title": "Reads"}).json()
    cr = a.post(f"/spaces/{space['id']}/change-requests", json={"subject": "page"}).json()
    change = {
        "operation": "insert_page",
        "title": "Getting started",
        "document": {"markdown": "# Hi\n"},
    }
    root = f"/spaces/{space['id']}/change-requests/{cr['id']}"
    assert a.post(f"{root}/content", json={"changes": [change]}).status_code == 200
    assert a.post(f"{root}/merge").status_code == 200
    page = a.get(f"/spaces/{space['id']}/content/pages").json()["pages"][0]
    return space["id"], page["id"], page["path"]


async def names(client: AsyncGitBook) -> list[str]:
    return [name async for name in signed_in_names(client)]


async def test_signed_in_names_cached_first_then_the_servers(world: Any, tmp_path: Path) -> None:
    me = world.client("alice").get("/user").json()
    server = Server(world.app)
    cache = ResponseCache(tmp_path / "responses.sqlite")
    async with client_for(server, cache) as client:
        shown = me["displayName"] or me["email"] or me["id"]
        assert await names(client) == [shown]  # from the network: one name
        assert await names(client) == [shown]  # cached, and the server confirmed it

        server.rename = "Alice Renamed"
        assert await names(client) == [shown, "Alice Renamed"]  # cached, then the server's

        server.offline = True
        # the cached name, and a refresh that failed ends the names quietly
        assert await names(client) == ["Alice Renamed"]
    cache.close()


async def test_signed_in_names_raise_when_nothing_can_be_read(world: Any, tmp_path: Path) -> None:
    server = Server(world.app)
    server.offline = True
    cache = ResponseCache(tmp_path / "responses.sqlite")
    async with client_for(server, cache) as client:
        with pytest.raises(APIConnectionError):
            await names(client)
    cache.close()


async def test_page_by_path_space_and_its_count(world: Any, tmp_path: Path) -> None:
    space_id, page_id, path = space_with_page(world)
    cache = ResponseCache(tmp_path / "responses.sqlite")
    async with client_for(Server(world.app), cache) as client:
        assert await page_id_at_path(client, space_id, path) == page_id
        with pytest.raises(GitBookError):
            await page_id_at_path(client, space_id, "no/such/page")
        assert (await read_space(client, space_id)).id == space_id
        before = await space_comment_total(client, space_id)
        assert not before  # (no thread yet: 0, or not given)

        a = world.client("alice")
        body = {"body": {"markdown": "A question"}, "page": page_id}
        posted = a.post(f"/spaces/{space_id}/comments", json=body)
        assert posted.status_code in (200, 201), posted.text
        # (read from the network: the space was cached above)
        await client.spaces.get(space_id, read="network")
        assert await space_comment_total(client, space_id) == 1
    cache.close()
