"""What the command palette lists, read from the server: the open space's pages, the organization's spaces."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterable
from dataclasses import dataclass, field

from ...api import AsyncGitBook
from ...models import Collection, RevisionPage, Space

__all__ = ["MAX_SPACES", "OrganizationSpaces", "organization_spaces", "space_pages"]

log = logging.getLogger("gitbook_tui.tui.commands")

MAX_SPACES = 2000
"""Spaces listed per palette opening (root and per collection)."""


async def _collect(items: AsyncIterable[object], limit: int = MAX_SPACES) -> list[object]:
    out: list[object] = []
    async for item in items:
        out.append(item)
        if len(out) >= limit:
            break
    return out


async def space_pages(client: AsyncGitBook, space_id: str) -> list[RevisionPage]:
    """The page tree of a space (the cached copy when there is one)."""
    tree = await client.content.pages(space_id, read="prefer-cache")
    return list(tree.pages)


@dataclass
class OrganizationSpaces:
    """The organization's spaces: those at its root, then each collection's."""

    root: list[Space] = field(default_factory=list)
    collections: dict[str, Collection] = field(default_factory=dict)
    in_collections: list[tuple[Collection, list[Space]]] = field(default_factory=list)


async def organization_spaces(client: AsyncGitBook, org_id: str) -> OrganizationSpaces:
    """Every space of ``org_id`` the caller sees, with the collections they sit in.

    A failing root listing gives what was read (nothing); a failing collection is left out.
    Both are logged: the palette still offers everything else.
    """
    found = OrganizationSpaces()
    try:
        found.root = [
            s for s in await _collect(client.spaces.list_in_org(org_id)) if isinstance(s, Space)
        ]
        collections = await _collect(client.collections.list(org_id))
    except Exception as exc:
        log.warning("spaces of %s for the command palette: %s", org_id, exc)
        collections = []
    found.collections = {c.id: c for c in collections if isinstance(c, Collection)}
    for collection in found.collections.values():
        try:
            spaces = await _collect(client.collections.spaces(collection.id))
        except Exception as exc:
            log.warning("spaces of collection %s: %s", collection.id, exc)
            continue
        found.in_collections.append((collection, [s for s in spaces if isinstance(s, Space)]))
    return found
