"""Search on the server without Textual: one space's results, an organization's grouped by space."""

from __future__ import annotations

import httpx

from gitbook_tui.api import AsyncGitBook
from gitbook_tui.tui.search.search_data import search_organization, search_space
from support.builders import space_with_pages
from support.worlds import World


async def test_space_and_organization_results(world: World) -> None:
    tidewater = space_with_pages(world, "Tidewater", [("Install", "# Install\n\nharbour pilots")])
    space_with_pages(world, "Other", [("Notes", "# Notes\n\nnothing here")])
    client = AsyncGitBook(
        "tok-alice", base_url="http://testserver/v1", transport=httpx.ASGITransport(app=world.app)
    )
    try:
        in_space = await search_space(client, tidewater, "harbour")
        in_org = await search_organization(client, world.org, "harbour")
    finally:
        await client.close()
    assert [(s, title, [p.title for p in pages]) for s, title, pages in in_space] == [
        (tidewater, None, ["Install"])
    ]
    assert [(s, title, [p.title for p in pages]) for s, title, pages in in_org] == [
        (tidewater, "Tidewater", ["Install"])
    ]
