"""SiteData: one site's structure, redirects and page URLs (and the organization's sites and
spaces), loaded through the client.

No Textual here: the editor's panes run :func:`load_site_data` in a worker and render the
result. Published URLs are computed from the paths the way the server builds them (the
default section and default site spaces sit at their parent's URL), so an unpublished
site can be linted too.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass, field

from ...api import AsyncGitBook
from ...api.errors import APIStatusError, NotFoundError, PermissionDeniedError
from ...models import (
    RevisionPage,
    Site,
    SiteRedirect,
    SiteSection,
    SiteSectionGroup,
    SiteSpace,
    SiteStructure,
    Space,
)
from .redirect_rules import Destination, RedirectEntry, SiteMap

__all__ = [
    "Layout",
    "SiteData",
    "entry_of",
    "layout_of",
    "load_redirects",
    "load_site_data",
    "load_sites",
    "org_spaces",
    "space_id_of",
]

Layout = dict[str, list[tuple[str, str]]]
"""Parent ("" for the site's root, else a group id) → its ``("section"|"group", id)``
children in order."""

UNPUBLISHED_BASE = "https://unpublished.invalid"


def space_id_of(site_space: SiteSpace) -> str | None:
    space = site_space.space
    if isinstance(space, Space):
        return space.id
    return space


def entry_of(redirect: SiteRedirect) -> RedirectEntry:
    dest = redirect.destination
    return RedirectEntry(
        id=redirect.id,
        source=redirect.source or "",
        destination=Destination(
            kind=str(dest.kind) if dest and dest.kind else "external",
            url=dest.url if dest else None,
            site_section=dest.siteSectionId if dest else None,
            site_space=dest.siteSpaceId if dest else None,
            page=dest.pageId if dest else None,
        ),
        permanent=bool(redirect.permanent),
        draft=bool(redirect.draft),
        wildcard=bool(redirect.captureWildcard),
    )


@dataclass
class SiteData:
    """What the site editor shows of one site."""

    site: Site
    sections: list[SiteSection] = field(default_factory=list)
    root_spaces: list[SiteSpace] = field(default_factory=list)  # a site without sections
    groups: list[SiteSectionGroup] = field(default_factory=list)  # navigation order
    layout: Layout = field(default_factory=dict)
    redirects: list[RedirectEntry] = field(default_factory=list)
    site_map: SiteMap = field(default_factory=SiteMap)

    @property
    def base_url(self) -> str:
        urls = self.site.urls
        published = urls.published if urls is not None else None
        return (published or f"{UNPUBLISHED_BASE}/{self.site.basename or ''}").rstrip("/")

    def site_spaces(self) -> Iterable[SiteSpace]:
        for section in self.sections:
            yield from section.siteSpaces
        yield from self.root_spaces


def _section_url(base: str, section: SiteSection) -> str:
    return base if section.default else f"{base}/{section.path}"


def _space_url(root: str, site_space: SiteSpace) -> str:
    return root if site_space.default else f"{root}/{site_space.path}"


def _walk(pages: list[RevisionPage], prefix: str, into: dict[str, tuple[str, str]]) -> None:
    for page in pages:
        kind = str(page.type or "document")
        if kind in ("document", "computed") and page.path:
            into[page.id] = (page.path, page.title or page.path)
        _walk(page.pages, prefix, into)


def build_site_map(data: SiteData, pages: dict[str, dict[str, tuple[str, str]] | None]) -> SiteMap:
    """The URLs of ``data``'s sections, site spaces and (from ``pages``, per space id)
    pages."""
    base = data.base_url
    site_map = SiteMap(base_url=base)
    for section in data.sections:
        root = _section_url(base, section)
        site_map.sections[section.id] = root
        site_map.titles[section.id] = section.title or section.path or section.id
        for ss in section.siteSpaces:
            _add_space(site_map, ss, root, pages)
    for ss in data.root_spaces:
        _add_space(site_map, ss, base, pages)
    return site_map


def _add_space(
    site_map: SiteMap,
    ss: SiteSpace,
    root: str,
    pages: dict[str, dict[str, tuple[str, str]] | None],
) -> None:
    url = _space_url(root, ss)
    site_map.site_spaces[ss.id] = url
    site_map.titles[ss.id] = ss.title or ss.path or ss.id
    known = pages.get(space_id_of(ss) or "", {})
    if known is None:
        site_map.opaque.add(ss.id)
        return
    for page_id, (path, title) in known.items():
        site_map.pages[(ss.id, page_id)] = f"{url}/{path}"
        site_map.titles[page_id] = title


async def load_redirects(client: AsyncGitBook, org_id: str, site_id: str) -> list[RedirectEntry]:
    """Live and draft redirects of the site, sorted by source."""
    live, drafts = await asyncio.gather(
        client.sites.list_redirects(org_id, site_id, order_by="source", limit=1000).to_list(),
        client.sites.list_redirects(
            org_id, site_id, draft=True, order_by="source", limit=1000
        ).to_list(),
    )
    entries = [entry_of(r) for r in (*live, *drafts)]
    entries.sort(key=lambda e: (e.source.lower(), e.draft))
    return entries


async def _space_pages(client: AsyncGitBook, space_id: str) -> dict[str, tuple[str, str]] | None:
    """Page id → (path, title) of the space (``None``: the caller may not read it)."""
    found: dict[str, tuple[str, str]] = {}
    try:
        tree = await client.content.pages(space_id)
    except (PermissionDeniedError, NotFoundError):
        return None
    _walk(tree.pages, "", found)
    return found


def layout_of(
    tree: SiteStructure | None, sections: list[SiteSection]
) -> tuple[list[SiteSectionGroup], Layout]:
    """The groups and the layout of a site's structure tree (``None``: a server without
    the structure operation, so no groups); sections it does not place go to the root."""
    groups: list[SiteSectionGroup] = []
    layout: Layout = {"": []}
    placed: set[str] = set()

    def walk(items: list[object], parent: str) -> None:
        for item in items:
            if isinstance(item, SiteSectionGroup):
                groups.append(item)
                layout[parent].append(("group", item.id))
                layout.setdefault(item.id, [])
                walk(list(item.children), item.id)
            elif isinstance(item, SiteSection) and item.id not in placed:
                placed.add(item.id)
                layout[parent].append(("section", item.id))

    if tree is not None and str(tree.type or "") == "sections":
        walk(list(tree.structure), "")
    layout[""] += [("section", s.id) for s in sections if s.id not in placed]
    known = {s.id for s in sections}
    for children in layout.values():  # sections gone since the tree was read
        children[:] = [c for c in children if c[0] == "group" or c[1] in known]
    return groups, layout


async def _structure(client: AsyncGitBook, org_id: str, site_id: str) -> SiteStructure | None:
    try:
        return await client.sites.get_structure(org_id, site_id)
    except APIStatusError as error:
        if error.status in (404, 405):
            return None
        raise


async def load_site_data(client: AsyncGitBook, org_id: str, site_id: str) -> SiteData:
    """The site, its structure, its redirects and the URL of every live page."""
    site, sections, site_spaces, tree, redirects = await asyncio.gather(
        client.sites.get(org_id, site_id),
        client.sites.list_sections(org_id, site_id, limit=1000).to_list(),
        client.sites.list_site_spaces(org_id, site_id, limit=1000).to_list(),
        _structure(client, org_id, site_id),
        load_redirects(client, org_id, site_id),
    )
    data = SiteData(site=site, sections=sections, redirects=redirects)
    data.groups, data.layout = layout_of(tree, sections)
    if not sections:
        data.root_spaces = site_spaces
    space_ids = sorted({sid for ss in data.site_spaces() if (sid := space_id_of(ss))})
    trees = await asyncio.gather(*(_space_pages(client, sid) for sid in space_ids))
    data.site_map = build_site_map(data, dict(zip(space_ids, trees, strict=True)))
    return data


async def org_spaces(client: AsyncGitBook, org_id: str) -> list[Space]:
    """Every live space of the organization (at its root and in collections), by title."""
    root, collections = await asyncio.gather(
        client.spaces.list_in_org(org_id, limit=1000).to_list(),
        client.collections.list(org_id, limit=1000).to_list(),
    )
    inner = await asyncio.gather(
        *(client.collections.spaces(c.id, limit=1000).to_list() for c in collections)
    )
    found = {s.id: s for s in root}
    for spaces in inner:
        found.update({s.id: s for s in spaces})
    return sorted(found.values(), key=lambda s: (s.title or "").lower())


async def load_sites(client: AsyncGitBook, org_id: str) -> list[Site]:
    """The organization's sites, by title."""
    sites = await client.sites.list(org_id, limit=100).to_list()
    return sorted(sites, key=lambda s: (s.title or "").lower())
