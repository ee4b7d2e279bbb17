"""Integrations on one space or site: the organization's spaces and sites, which of them an
installation may be added to or removed from, what that does in words, and doing it (no
Textual here)."""

from __future__ import annotations

import asyncio

from ...api import AsyncGitBook
from ...markdown.sanitize import clean_text
from .integrations_data import IntegrationRow, Place

__all__ = [
    "add_effect",
    "add_to_place",
    "addable",
    "load_places",
    "removable",
    "remove_effect",
    "remove_from_place",
]

KINDS = ("space", "site")


async def load_places(client: AsyncGitBook, org_id: str) -> list[Place]:
    """Every live space of the organization (at its root and in collections), then its
    sites, each by title."""
    root, collections, sites = await asyncio.gather(
        client.spaces.list_in_org(org_id, limit=1000).to_list(),
        client.collections.list(org_id, limit=1000).to_list(),
        client.sites.list(org_id, limit=1000).to_list(),
    )
    inner = await asyncio.gather(
        *(client.collections.spaces(c.id, limit=1000).to_list() for c in collections)
    )
    spaces = {s.id: s for s in root}
    for found in inner:
        spaces.update({s.id: s for s in found})
    places = [Place("space", s.id, clean_text(s.title or s.id)) for s in spaces.values()]
    places.sort(key=lambda p: p.title.lower())
    named = [Place("site", s.id, clean_text(s.title or s.id)) for s in sites]
    return places + sorted(named, key=lambda p: p.title.lower())


def addable(row: IntegrationRow, places: list[Place]) -> list[Place]:
    """The places ``row`` may be added to: of a kind its target allows, not reached yet
    (an installation on every space reaches them all already)."""
    found = []
    for place in places:
        if not row.reaches(place.kind):
            continue
        if row.installed and row.selection(place.kind) == "all":
            continue
        if place.id not in {p.id for p in row.reached(place.kind)}:
            found.append(place)
    return found


def removable(row: IntegrationRow) -> list[Place]:
    """The places ``row``'s installation reaches (what ``x`` may take it off)."""
    if not row.installed:
        return []
    return [p for kind in KINDS if row.reaches(kind) for p in row.reached(kind)]


def _ability(row: IntegrationRow, kind: str) -> str:
    """``read``, ``read and change`` …: what its scopes let it do to a place of ``kind``."""
    mine = [s for s in row.scopes if s.startswith(f"{kind}:")]
    if any(s.endswith(":write") for s in mine):
        return "read and change"
    if mine:
        return "read"
    return "reach"


def add_effect(row: IntegrationRow, place: Place, org: str) -> str:
    """What adding ``row`` to ``place`` lets it do (and installs, if it is not yet)."""
    sentence = f"{row.title} will be able to {_ability(row, place.kind)} {place}."
    if not row.installed:
        sentence += (
            f" It is installed in {org} for the spaces and sites you add it to only "
            "(none other yet)."
        )
    scopes = ", ".join(s for s in row.scopes if s.startswith(f"{place.kind}:"))
    return sentence + (f" It asks for: {scopes}." if scopes else "")


def _count(n: int, kind: str) -> str:
    return f"{n} other {kind}{'' if n == 1 else 's'}"


def remove_effect(row: IntegrationRow, place: Place) -> str:
    """What removing ``row`` from ``place`` stops (and what it keeps)."""
    others = [p.title for p in row.reached(place.kind) if p.id != place.id]
    sentence = (
        f"{row.title} stops reaching {place}: it can no longer {_ability(row, place.kind)} it."
    )
    if row.selection(place.kind) == "all":
        sentence += (
            f" It was on every {place.kind}; it stays on the {_count(len(others), place.kind)} "
            f"only, not on {place.kind}s made later."
        )
    elif others:
        shown = ", ".join(others[:3]) + (", …" if len(others) > 3 else "")
        sentence += f" It keeps {_count(len(others), place.kind)} ({shown})."
    else:
        sentence += f" It is left on no {place.kind}."
    return sentence


async def add_to_place(
    client: AsyncGitBook, row: IntegrationRow, place: Place, org_id: str
) -> None:
    """Put ``row`` on ``place``; not installed yet, it is installed first on chosen spaces
    and sites only (so it reaches ``place`` and nothing else)."""
    installation = row.installation
    if not installation:
        made = await client.integrations.install(
            row.name, org_id, space_selection="selected", site_selection="selected"
        )
        installation = made.id
    if place.kind == "space":
        await client.installations.install_on_space(row.name, installation, place.id)
    else:
        await client.installations.install_on_site(row.name, installation, place.id)


async def remove_from_place(client: AsyncGitBook, row: IntegrationRow, place: Place) -> None:
    """Take ``row``'s installation off ``place``."""
    if place.kind == "space":
        await client.installations.uninstall_from_space(row.name, row.installation, place.id)
    else:
        await client.installations.uninstall_from_site(row.name, row.installation, place.id)
