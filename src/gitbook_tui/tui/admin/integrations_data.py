"""Integrations data: the integrations installed in an organization (and those it may
install), each installation's status and what it may reach (spaces, sites), and the
wording of installing and uninstalling (no Textual here)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass

from ...api import AsyncGitBook
from ...api.errors import NotFoundError, PermissionDeniedError
from ...markdown.sanitize import clean_text
from ...models import Integration, IntegrationSiteItem, IntegrationSpaceItem, OrgInstallation

__all__ = [
    "IntegrationRow",
    "Place",
    "install",
    "install_effect",
    "load_integrations",
    "uninstall",
    "uninstall_effect",
]


@dataclass(frozen=True)
class Place:
    """A space or a site an integration may be installed on."""

    kind: str
    """``space`` or ``site``."""
    id: str
    title: str

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.id}"

    def __str__(self) -> str:
        return f"{self.kind} {self.title}"


Reach = tuple[tuple[Place, ...] | None, tuple[Place, ...] | None]
"""The spaces and the sites an installation reaches (``None``: not listed for you)."""


@dataclass(frozen=True)
class IntegrationRow:
    """An integration with its installation in the organization (``installation`` empty:
    not installed, but installable here)."""

    name: str
    title: str
    description: str
    target: str
    visibility: str
    scopes: tuple[str, ...]
    installation: str
    status: str
    space_selection: str
    site_selection: str
    space_places: tuple[Place, ...] | None
    """The spaces it reaches (``None``: not listed for you)."""
    site_places: tuple[Place, ...] | None

    @property
    def spaces(self) -> tuple[str, ...] | None:
        """The titles of the spaces it reaches."""
        return _titles(self.space_places)

    @property
    def sites(self) -> tuple[str, ...] | None:
        return _titles(self.site_places)

    def reached(self, kind: str) -> tuple[Place, ...]:
        """The spaces (``kind`` ``space``) or sites it reaches (none when not listed)."""
        return (self.space_places if kind == "space" else self.site_places) or ()

    def reaches(self, kind: str) -> bool:
        """Whether it may be installed on places of ``kind`` at all (its target)."""
        return self.reaches_spaces() if kind == "space" else self.reaches_sites()

    def selection(self, kind: str) -> str:
        return self.space_selection if kind == "space" else self.site_selection

    @property
    def key(self) -> str:
        return f"{self.name}:{self.installation}"

    @property
    def installed(self) -> bool:
        return bool(self.installation)

    def reaches_spaces(self) -> bool:
        return self.target in ("all", "space", "organization")

    def reaches_sites(self) -> bool:
        return self.target in ("all", "site", "organization")

    def reach(self) -> str:
        """``2 spaces · all sites`` (what the installation may reach)."""
        if not self.installed:
            return "not installed"
        parts = []
        if self.reaches_spaces():
            parts.append(_reach(self.spaces, self.space_selection, "space"))
        if self.reaches_sites():
            parts.append(_reach(self.sites, self.site_selection, "site"))
        return " · ".join(parts) or "the organization"


def _titles(places: tuple[Place, ...] | None) -> tuple[str, ...] | None:
    return None if places is None else tuple(p.title for p in places)


def _reach(titles: tuple[str, ...] | None, selection: str, noun: str) -> str:
    if titles is None:
        return f"{noun}s not listed for you"
    count = f"{len(titles)} {noun if len(titles) == 1 else noun + 's'}"
    return f"all {noun}s ({count})" if selection == "all" else count


def _place(item: IntegrationSpaceItem | IntegrationSiteItem) -> Place:
    kind = "space" if isinstance(item, IntegrationSpaceItem) else "site"
    target = item.space if isinstance(item, IntegrationSpaceItem) else item.site
    if target is None:
        return Place(kind, "", "?")
    if isinstance(target, str):
        return Place(kind, target, clean_text(target))
    return Place(kind, target.id, clean_text(target.title or target.id))


def _by_title(places: Iterable[Place]) -> tuple[Place, ...]:
    return tuple(sorted(places, key=lambda p: (p.title.lower(), p.id)))


async def _reached(client: AsyncGitBook, pair: OrgInstallation) -> Reach:
    """The spaces and the sites the installation reaches."""
    name, inst = pair.integration.name, pair.installation.id
    try:
        spaces, sites = await asyncio.gather(
            client.installations.spaces(name, inst, extended=True, limit=1000).to_list(),
            client.installations.sites(name, inst, extended=True, limit=1000).to_list(),
        )
    except (PermissionDeniedError, NotFoundError):
        return None, None
    return _by_title(_place(s) for s in spaces), _by_title(_place(s) for s in sites)


def _row(integration: Integration, pair: OrgInstallation | None, reach: Reach) -> IntegrationRow:
    inst = pair.installation if pair is not None else None
    return IntegrationRow(
        name=integration.name,
        title=clean_text(integration.title or integration.name),
        description=clean_text(integration.description or ""),
        target=str(integration.target or "all"),
        visibility=str(integration.visibility or ""),
        scopes=tuple(clean_text(s) for s in integration.scopes),
        installation=inst.id if inst is not None else "",
        status=str(inst.status or "active") if inst is not None else "",
        space_selection=str(inst.space_selection or "all") if inst is not None else "",
        site_selection=str(inst.site_selection or "all") if inst is not None else "",
        space_places=reach[0],
        site_places=reach[1],
    )


async def load_integrations(client: AsyncGitBook, org_id: str) -> list[IntegrationRow]:
    """The organization's installations (with what each reaches), then the integrations it
    could install (public ones and its own), by title."""
    pairs, available = await asyncio.gather(
        client.installations.in_org(org_id, limit=1000).to_list(),
        client.integrations.list(limit=1000).to_list(),
    )
    reaches = await asyncio.gather(*(_reached(client, p) for p in pairs))
    rows = [_row(p.integration, p, r) for p, r in zip(pairs, reaches, strict=True)]
    installed = {p.integration.name for p in pairs}
    for integration in available:
        private = str(integration.visibility) == "private"
        owner = integration.owner.id if integration.owner is not None else None
        if integration.name in installed or (private and owner != org_id):
            continue
        rows.append(_row(integration, None, (None, None)))
    rows.sort(key=lambda r: (not r.installed, r.title.lower(), r.installation))
    return rows


def _listing(titles: tuple[str, ...] | None) -> str:
    if not titles:
        return ""
    return " (" + ", ".join(titles[:3]) + (", …" if len(titles) > 3 else "") + ")"


def install_effect(row: IntegrationRow, org: str) -> str:
    """What installing ``row`` lets it do, in a sentence or two."""
    where = []
    if row.reaches_spaces():
        where.append("every space")
    if row.reaches_sites():
        where.append("every site")
    scopes = ", ".join(row.scopes) or "no scopes"
    reach = " and ".join(where) or "the organization"
    return (
        f"{row.title} is installed in {org} and may reach {reach} (narrow it in the web app); "
        f"it asks for: {scopes}."
    )


def uninstall_effect(row: IntegrationRow, org: str) -> str:
    """What uninstalling ``row`` takes away."""
    parts = []
    if row.reaches_spaces() and row.spaces:
        count = f"{len(row.spaces)} space{'s' if len(row.spaces) != 1 else ''}"
        parts.append(count + _listing(row.spaces))
    if row.reaches_sites() and row.sites:
        count = f"{len(row.sites)} site{'s' if len(row.sites) != 1 else ''}"
        parts.append(count + _listing(row.sites))
    what = " and ".join(parts) or "nothing it was installed on"
    return (
        f"{row.title} is uninstalled from {org}: it stops reaching {what}; its configuration "
        "goes. It can be installed again."
    )


async def install(client: AsyncGitBook, row: IntegrationRow, org_id: str) -> None:
    """Install ``row``'s integration in the organization (every space and site)."""
    await client.integrations.install(row.name, org_id)


async def uninstall(client: AsyncGitBook, row: IntegrationRow) -> None:
    """Uninstall ``row``'s installation from its organization."""
    await client.installations.uninstall(row.name, row.installation)
