"""The organizations read for the app's start, without Textual: from the cache only, or from the server."""

from __future__ import annotations

import httpx

from gitbook_tui.api import AsyncGitBook
from gitbook_tui.cache import ResponseCache
from gitbook_tui.tui.account.organizations import cached_organizations, organizations
from support.worlds import World


async def test_the_cache_knows_them_only_once_they_were_read(world: World, tmp_path) -> None:
    client = AsyncGitBook(
        "tok-alice",
        base_url="http://testserver/v1",
        transport=httpx.ASGITransport(app=world.app),
        cache=ResponseCache(tmp_path / "cache.sqlite"),
    )
    try:
        assert await cached_organizations(client) is None  # nothing cached: no request made
        read = await organizations(client)
        assert world.org in [o.id for o in read]
        cached = await cached_organizations(client)
    finally:
        await client.close()
    assert cached is not None and [o.id for o in cached] == [o.id for o in read]
