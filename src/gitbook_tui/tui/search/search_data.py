"""Full-text search on the server: one space, or every space of an organization, grouped by space."""

from __future__ import annotations

from ...api import AsyncGitBook
from ...models import SpaceSearchItem

__all__ = ["PAGE_LIMIT", "SearchGroup", "search_organization", "search_space"]

PAGE_LIMIT = 50
"""Pages asked for per search (the first page of results)."""

SearchGroup = tuple[str, str | None, list[SpaceSearchItem]]
"""A space's results: its id, its title (``None`` when the search was of that space only)
and the pages that matched."""


async def search_space(client: AsyncGitBook, space_id: str, query: str) -> list[SearchGroup]:
    """The first page of results of ``query`` in one space."""
    found = await client.content.search(space_id, query).page(limit=PAGE_LIMIT)
    return [(space_id, None, list(found.items))]


async def search_organization(client: AsyncGitBook, org_id: str, query: str) -> list[SearchGroup]:
    """The first page of results of ``query`` in every space of an organization, by space."""
    found = await client.orgs.search(org_id, query).page(limit=PAGE_LIMIT)
    return [(item.id, item.title or "", list(item.pages)) for item in found.items]
