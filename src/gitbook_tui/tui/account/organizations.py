"""The organizations the token belongs to, read from the server or only from the response cache."""

from __future__ import annotations

from ...api import AsyncGitBook
from ...models import Organization

__all__ = ["cached_organizations", "organizations"]


async def cached_organizations(client: AsyncGitBook) -> list[Organization] | None:
    """The organizations as last seen (cache only: no request); ``None`` when not known."""
    try:
        return [o async for o in client.orgs.list(read="cache-only")]
    except Exception:  # not cached, unreadable or a bug: the caller loads them later
        return None


async def organizations(client: AsyncGitBook) -> list[Organization]:
    """Every organization (the cached answer when fresh); the client's errors propagate."""
    return [o async for o in client.orgs.list(read="prefer-cache")]
