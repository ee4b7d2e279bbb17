"""Rules of a site's structure: paths and slugs, default pointers, sections, linking spaces.

- A site's site spaces live either at its root (no sections) or in sections. Adding the
  first section to a site whose site spaces are at the root first gathers those into a
  section of their own (the first, so the default one), then adds the new section.
- Exactly one section is the default: the first created, or the one set through the
  site's ``defaultSiteSection``; deleting it promotes the next one.
- In each section (and at the root) one site space is the default: the first added, or
  the one set through ``defaultSiteSpace``; deleting it promotes the next one.
- ``path`` values (and the site ``basename``) are URL path segments; new ones are slugs of
  a title made unique among their siblings.
"""

from __future__ import annotations

import re
from typing import Any

from ..core.context import Ctx
from ..core.errors import bad_request
from ..core.permissions import space_role
from ..core.slugs import slugify, unique_slug
from ..core.storage import Tx
from .views import SECTION, SITE, SITE_SPACE, Structure

# Pattern of the contract (section 4.8). The custom ``hostname`` of section 2.9 is not
# settable through this API (the openapi's site update has no such field): it is shown
# when present and otherwise managed outside these routes.
PROXY_RE = re.compile(r"^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$", re.ASCII)
# Paths of sections and site spaces and the site basename: URL path segments made of
# unreserved characters (the openapi only bounds their length: 1-100).
PATH_RE = re.compile(r"^[A-Za-z0-9._~-]+(?:/[A-Za-z0-9._~-]+)*$")
PATH_RULE = (
    "must be 1-100 URL-safe characters (letters, digits, '-', '_', '.', '~'; '/' between segments)"
)


def check_path(value: str | None) -> str | None:
    """Validator of ``path``/``basename`` values."""
    if value is not None and not PATH_RE.match(value):
        raise ValueError(PATH_RULE)
    return value


def successor(items: list[dict[str, Any]], item_id: str) -> str | None:
    """The item that takes over when ``item_id`` goes away: the next one, else the first."""
    ids = [i["id"] for i in items]
    if item_id not in ids:
        return ids[0] if ids else None
    index = ids.index(item_id)
    rest = ids[:index] + ids[index + 1 :]
    if not rest:
        return None
    return rest[index] if index < len(rest) else rest[0]


def readable_space(tx: Tx, ctx: Ctx, org_id: str, space_id: str, field_name: str) -> dict[str, Any]:
    """A live space of the organization that the caller can read (400 naming the field)."""
    space = tx.get("space", space_id)
    if (
        space is None
        or space.get("organization") != org_id
        or space.get("deletedAt")
        or space_role(tx, space, ctx.user_id) is None
    ):
        raise bad_request(f"{field_name}: no space '{space_id}' in this organization")
    return space


def add_site_space(
    tx: Tx,
    ctx: Ctx,
    site: dict[str, Any],
    space: dict[str, Any],
    section_id: str | None,
    *,
    title: str | None = None,
    draft: bool = False,
) -> dict[str, Any]:
    """Link ``space`` into the site (in ``section_id`` or at the root), at the end."""
    siblings = [s for s in tx.list(SITE_SPACE, site["id"]) if s.get("section") == section_id]
    now = ctx.now()
    ss = {
        "id": ctx.new_id(),
        "site": site["id"],
        "section": section_id,
        "space": space["id"],
        "path": unique_slug(
            slugify(space.get("title") or "", "space"), {s["path"] for s in siblings}
        ),
        "title": title,
        "condition": None,
        "draft": draft,
        "hidden": False,
        "createdAt": now,
        "updatedAt": now,
    }
    tx.put(SITE_SPACE, ss["id"], ss, scope=site["id"])
    if not siblings:  # the first of its section is its default
        if section_id is None:
            point_default_site_space(tx, site, None, ss["id"])
        else:
            section = tx.get(SECTION, section_id)
            if section is not None:
                point_default_site_space(tx, site, section, ss["id"])
    return ss


def touch(tx: Tx, ctx: Ctx, site: dict[str, Any]) -> None:
    site["updatedAt"] = ctx.now()
    tx.put(SITE, site["id"], site)


def point_default_site_space(
    tx: Tx, site: dict[str, Any], section: dict[str, Any] | None, site_space_id: str | None
) -> None:
    """Make ``site_space_id`` the default of ``section``, or of the site's root when ``None``."""
    if section is None:
        site["defaultSiteSpace"] = site_space_id
        tx.put(SITE, site["id"], site)
    else:
        section["defaultSiteSpace"] = site_space_id
        tx.put(SECTION, section["id"], section)


def set_default_site_space(tx: Tx, st: Structure, site_space_id: str | None) -> None:
    """The site's default site space: at the root, or in the site's default section."""
    ss = st.site_space(site_space_id) if site_space_id else None
    if ss is None:
        raise bad_request(f"defaultSiteSpace: no site space '{site_space_id}' in this site")
    if st.sections:
        default_section = st.default_section_id()
        if ss.get("section") != default_section:
            raise bad_request(
                f"defaultSiteSpace: site space '{site_space_id}' is not in the site's default "
                f"section '{default_section}' (set a section's default with PATCH on the section)"
            )
        section = st.section(str(default_section))
        assert section is not None
        point_default_site_space(tx, st.site, section, ss["id"])
    else:
        point_default_site_space(tx, st.site, None, ss["id"])


def new_section(
    tx: Tx,
    ctx: Ctx,
    st: Structure,
    *,
    title: str,
    icon: str | None = None,
    description: str | None = None,
    draft: bool = False,
) -> dict[str, Any]:
    now = ctx.now()
    section = {
        "id": ctx.new_id(),
        "site": st.site["id"],
        "title": title,
        "path": unique_slug(slugify(title, "section"), {s["path"] for s in st.sections}),
        "icon": icon,
        "description": description,
        "condition": None,
        "draft": draft,
        "defaultSiteSpace": None,
        "createdAt": now,
        "updatedAt": now,
    }
    tx.put(SECTION, section["id"], section, scope=st.site["id"])
    st.sections.append(section)
    if len(st.sections) == 1:
        st.site["defaultSiteSection"] = section["id"]
        tx.put(SITE, st.site["id"], st.site)
    return section


def gather_root_site_spaces(tx: Tx, ctx: Ctx, st: Structure) -> None:
    """Before a site's first section: its root site spaces become a section of their own."""
    roots = st.members(None)
    if st.sections or not roots:
        return
    default_id = st.default_site_space_id(None)
    default = next(ss for ss in roots if ss["id"] == default_id)
    space = tx.get("space", default["space"]) or {}
    title = default.get("title") or space.get("title") or st.site["title"]
    section = new_section(tx, ctx, st, title=title if len(title) >= 2 else st.site["title"])
    section["defaultSiteSpace"] = default_id
    tx.put(SECTION, section["id"], section)
    for ss in roots:
        ss["section"] = section["id"]
        tx.put(SITE_SPACE, ss["id"], ss)
    st.site.pop("defaultSiteSpace", None)
    tx.put(SITE, st.site["id"], st.site)
