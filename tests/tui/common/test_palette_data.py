"""The palette's server reads without Textual: the open space's pages, the organization's spaces by collection."""

from __future__ import annotations

import httpx

from gitbook_tui.api import AsyncGitBook
from gitbook_tui.tui.common.palette_data import organization_spaces, space_pages
from support.builders import space_with_pages
from support.worlds import World


def _client(world: World, transport: httpx.AsyncBaseTransport | None = None) -> AsyncGitBook:
    return AsyncGitBook(
        "tok-alice",
        base_url="http://testserver/v1",
        transport=transport or httpx.ASGITransport(app=world.app),
        max_retries=0,
    )


class FailingCollections(httpx.AsyncBaseTransport):
    """The server, except that listing a collection's spaces is refused."""

    def __init__(self, world: World) -> None:
        self._server = httpx.ASGITransport(app=world.app)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.startswith("/v1/collections/") and request.url.path.endswith("/spaces"):
            return httpx.Response(500, json={"error": {"code": 500, "message": "down"}})
        return await self._server.handle_async_request(request)


async def test_pages_and_spaces_of_the_organization(world: World) -> None:
    tidewater = space_with_pages(world, "Tidewater", [("Install", "# Install\n\nText.")])
    coll = world.client("alice").post(f"/orgs/{world.org}/collections", json={"title": "Ops"})
    runbooks = space_with_pages(world, "Runbooks", [], parent=coll.json()["id"])
    client = _client(world)
    try:
        assert [p.title for p in await space_pages(client, tidewater)] == ["Install"]
        found = await organization_spaces(client, world.org)
    finally:
        await client.close()
    assert tidewater in [s.id for s in found.root]
    assert [(c.title, [s.id for s in spaces]) for c, spaces in found.in_collections] == [
        ("Ops", [runbooks])
    ]
    assert list(found.collections) == [coll.json()["id"]]


async def test_a_collection_that_cannot_be_read_is_left_out(world: World) -> None:
    tidewater = space_with_pages(world, "Tidewater", [])
    world.client("alice").post(f"/orgs/{world.org}/collections", json={"title": "Ops"})
    client = _client(world, FailingCollections(world))
    try:
        found = await organization_spaces(client, world.org)
    finally:
        await client.close()
    assert tidewater in [s.id for s in found.root]
    assert found.in_collections == [] and len(found.collections) == 1
