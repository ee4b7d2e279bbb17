"""The structure of a site as stored: kinds, the tree of section groups and sections, and
placing an item among its siblings.

Storage: ``site`` documents (scope: organization id); a site's sections, section groups,
site spaces and redirects are ``site-section`` / ``site-section-group`` / ``site-space`` /
``site-redirect`` documents scoped by the site id.

The tree: a section's ``sectionGroup`` (and a group's ``sectionGroup``, its parent) names
the group holding it, ``None`` at the site's root; groups nest one level deep, as the
official description says. Sections and groups of one parent are siblings ordered together
by their stored position; ``Structure.sections`` lists the sections depth-first (the
navigation's order), so "the first section" is the first one a visitor sees.

Defaults: exactly one section is the default (the site's ``defaultSiteSection`` when it
names one, else the first); in each section (and at the root) one site space is the default
(the section's or site's ``defaultSiteSpace`` when it names a member, else the first).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..core.errors import not_found
from ..core.storage import Tx

SITE = "site"
SECTION = "site-section"
GROUP = "site-section-group"
SITE_SPACE = "site-space"
REDIRECT = "site-redirect"

Node = tuple[str, dict[str, Any]]  # (SECTION or GROUP, the stored document)


@dataclass
class Structure:
    """A site's sections, section groups and site spaces (in order) with their defaults
    and URLs."""

    site: dict[str, Any]
    base: str
    sections: list[dict[str, Any]]
    site_spaces: list[dict[str, Any]]
    groups: list[dict[str, Any]] = field(default_factory=list)
    tree: dict[str | None, list[Node]] = field(default_factory=dict)
    _members: dict[str | None, list[dict[str, Any]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for ss in self.site_spaces:
            self._members.setdefault(ss.get("section"), []).append(ss)

    def members(self, section_id: str | None) -> list[dict[str, Any]]:
        return self._members.get(section_id, [])

    def section(self, section_id: str) -> dict[str, Any] | None:
        return next((s for s in self.sections if s["id"] == section_id), None)

    def group(self, group_id: str) -> dict[str, Any] | None:
        return next((g for g in self.groups if g["id"] == group_id), None)

    def children(self, parent: str | None) -> list[Node]:
        """Sections and groups directly under ``parent`` (``None``: the root), in order."""
        return self.tree.get(parent, [])

    def parent_of(self, doc: dict[str, Any]) -> str | None:
        parent = doc.get("sectionGroup")
        return parent if parent and self.group(parent) is not None else None

    def site_space(self, site_space_id: str) -> dict[str, Any] | None:
        return next((s for s in self.site_spaces if s["id"] == site_space_id), None)

    def default_section_id(self) -> str | None:
        ids = [s["id"] for s in self.sections]
        pointer = self.site.get("defaultSiteSection")
        if pointer in ids:
            return str(pointer)
        return ids[0] if ids else None

    def default_site_space_id(self, section_id: str | None) -> str | None:
        ids = [s["id"] for s in self.members(section_id)]
        if section_id is None:
            pointer = self.site.get("defaultSiteSpace")
        else:
            section = self.section(section_id)
            pointer = section.get("defaultSiteSpace") if section else None
        if pointer in ids:
            return str(pointer)
        return ids[0] if ids else None

    def ordered_site_spaces(self) -> list[dict[str, Any]]:
        """Root site spaces first, then each section's, in section order."""
        ordered = list(self.members(None))
        for section in self.sections:
            ordered += self.members(section["id"])
        return ordered

    def is_default(self, ss: dict[str, Any]) -> bool:
        return self.default_site_space_id(ss.get("section")) == ss["id"]

    def section_url(self, section: dict[str, Any]) -> str:
        if self.default_section_id() == section["id"]:
            return self.base
        return f"{self.base}/{section['path']}"

    def site_space_url(self, ss: dict[str, Any]) -> str:
        section = self.section(ss["section"]) if ss.get("section") else None
        root = self.section_url(section) if section else self.base
        return root if self.is_default(ss) else f"{root}/{ss['path']}"


def load_section(st: Structure, section_id: str) -> dict[str, Any]:
    """A section of the site (404 otherwise)."""
    section = st.section(section_id)
    if section is None:
        raise not_found("Site section", section_id)
    return section


def load_group(st: Structure, group_id: str) -> dict[str, Any]:
    """A section group of the site (404 otherwise)."""
    group = st.group(group_id)
    if group is None:
        raise not_found("Site section group", group_id)
    return group


def load_site_space(st: Structure, site_space_id: str) -> dict[str, Any]:
    """A site space of the site (404 otherwise)."""
    ss = st.site_space(site_space_id)
    if ss is None:
        raise not_found("Site space", site_space_id)
    return ss


def site_base_url(tx: Tx, site: dict[str, Any]) -> str:
    """Where the site is published: its proxy, else its custom hostname, else
    ``https://{org hostname}.gitbook.io/{basename}``."""
    if site.get("proxy"):
        return f"https://{site['proxy']}"
    if site.get("hostname"):
        return f"https://{site['hostname']}"
    org = tx.get("org", site["organization"]) or {}
    host = org.get("hostname") or site["organization"].lower()
    return f"https://{host}.gitbook.io/{site['basename']}"


def _tree(
    tx: Tx, sections: list[dict[str, Any]], groups: list[dict[str, Any]]
) -> dict[str | None, list[Node]]:
    group_ids = {g["id"] for g in groups}
    placed: list[tuple[float, int, Node]] = []
    for kind, docs in ((SECTION, sections), (GROUP, groups)):
        for index, doc in enumerate(docs):
            where = tx.position_of(kind, doc["id"])
            placed.append((where[1] if where else 0.0, index, (kind, doc)))
    tree: dict[str | None, list[Node]] = {}
    for _, _, (kind, doc) in sorted(placed, key=lambda p: (p[0], p[1], p[2][0])):
        parent = doc.get("sectionGroup")
        tree.setdefault(parent if parent in group_ids else None, []).append((kind, doc))
    return tree


def structure(tx: Tx, site: dict[str, Any]) -> Structure:
    groups_stored = tx.list(GROUP, site["id"])
    sections_stored = tx.list(SECTION, site["id"])
    tree = _tree(tx, sections_stored, groups_stored) if groups_stored else {}
    sections: list[dict[str, Any]] = []
    groups: list[dict[str, Any]] = []
    if not groups_stored:
        sections = sections_stored
        tree[None] = [(SECTION, s) for s in sections]
    else:

        def walk(parent: str | None) -> None:
            for kind, doc in tree.get(parent, []):
                if kind == SECTION:
                    sections.append(doc)
                else:
                    groups.append(doc)
                    walk(doc["id"])

        walk(None)
    return Structure(
        site=site,
        base=site_base_url(tx, site),
        sections=sections,
        site_spaces=tx.list(SITE_SPACE, site["id"]),
        groups=groups,
        tree=tree,
    )


def place(
    tx: Tx,
    st: Structure,
    node: Node,
    parent: str | None,
    *,
    before: str | None = None,
    after: str | None = None,
) -> None:
    """Put ``node`` under ``parent`` before or after one of its siblings (else at the end)
    and renumber the siblings: sections and groups of one parent share one order."""
    kind, doc = node
    siblings = [n for n in st.children(parent) if n[1]["id"] != doc["id"]]
    ids = [n[1]["id"] for n in siblings]
    if before is not None and before in ids:
        siblings.insert(ids.index(before), node)
    elif after is not None and after in ids:
        siblings.insert(ids.index(after) + 1, node)
    else:
        siblings.append(node)
    doc["sectionGroup"] = parent
    tx.put(kind, doc["id"], doc)
    for index, (sibling_kind, sibling) in enumerate(siblings):
        tx.set_position(sibling_kind, sibling["id"], pos=float(index + 1))
