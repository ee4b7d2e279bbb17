"""Sites as the routes see them: loading with access rules, and JSON views of a site, its
sections, section groups and site spaces (the stored structure: :mod:`.structure`).

A site's ``adaptiveSchema`` (``{jsonSchema, updatedAt}``) and its ``shareKey`` (the secret
of share-link visibility) are kept on the site document itself.
"""

from __future__ import annotations

import secrets
from typing import Any

from ..core.context import Ctx
from ..core.errors import ApiError, forbidden, not_found
from ..core.permissions import at_least, org_role, require
from ..core.resources import load_org, space_json
from ..core.storage import Tx
from .structure import (
    GROUP,
    REDIRECT,
    SECTION,
    SITE,
    SITE_SPACE,
    Node,
    Structure,
    load_group,
    load_section,
    load_site_space,
    site_base_url,
    structure,
)

__all__ = [
    "GROUP",
    "REDIRECT",
    "SECTION",
    "SITE",
    "SITE_SPACE",
    "Structure",
    "group_json",
    "load_group",
    "load_section",
    "load_site",
    "load_site_as",
    "load_site_for_visitor",
    "load_site_space",
    "section_json",
    "site_api_url",
    "site_json",
    "site_space_json",
    "structure",
    "structure_item_json",
]


def site_api_url(ctx: Ctx, org_id: str, site_id: str) -> str:
    """The site's location in this API (sections, site spaces, ... live below it)."""
    return f"{ctx.api}/orgs/{org_id}/sites/{site_id}"


# -- loading and access -----------------------------------------------------------------


def load_site(
    tx: Tx, ctx: Ctx, org_id: str, site_id: str
) -> tuple[dict[str, Any], dict[str, Any], str]:
    """The organization, the site and the caller's organization role (404 for non-members)."""
    org = load_org(tx, ctx, org_id)
    site = tx.get(SITE, site_id)
    if site is None or site.get("organization") != org_id:
        raise not_found("Site", site_id)
    role = org_role(tx, org_id, ctx.user_id)
    assert role is not None  # load_org guarantees membership
    return org, site, role


def load_site_as(
    tx: Tx, ctx: Ctx, org_id: str, site_id: str, needed: str
) -> tuple[dict[str, Any], dict[str, Any], str]:
    org, site, role = load_site(tx, ctx, org_id, site_id)
    require(role, needed, "Site", site_id)
    return org, site, role


def load_site_for_visitor(
    tx: Tx,
    ctx: Ctx,
    org_id: str,
    site_id: str,
    share_key: str | None,
    *,
    need_published: bool = False,
) -> tuple[dict[str, Any], str | None]:
    """A site for reads that take a share key (sections, site spaces, published, redirect).

    Members of the organization read every site of it; a share key they send must still
    be the right one for a share-link site (403 otherwise). Anyone else reads only
    published sites that are ``public``/``unlisted``, or ``share-link`` with the right
    share key; everything else is a 404.
    """
    org = tx.get("org", org_id)
    site = tx.get(SITE, site_id)
    if org is None or site is None or site.get("organization") != org_id:
        raise not_found("Site", site_id)
    role = org_role(tx, org_id, ctx.user_id)
    visibility = site.get("visibility")
    key_ok = share_key is not None and secrets.compare_digest(
        share_key.encode(), str(site.get("shareKey", "")).encode()
    )
    if role is None:
        readable = site.get("published") and (
            visibility in ("public", "unlisted") or (visibility == "share-link" and key_ok)
        )
        if not readable:
            raise not_found("Site", site_id)
    elif visibility == "share-link" and share_key is not None and not key_ok:
        raise forbidden("shareKey: the share key does not match this share-link site.")
    if need_published and not site.get("published"):
        raise ApiError(404, f"Site '{site_id}' is not published; publish it first.")
    return site, role


# -- renderers --------------------------------------------------------------------------


def site_json(tx: Tx, ctx: Ctx, site: dict[str, Any]) -> dict[str, Any]:
    org_id = site["organization"]
    role = org_role(tx, org_id, ctx.user_id)
    published = bool(site.get("published"))
    urls = {
        "location": site_api_url(ctx, org_id, site["id"]),
        "app": f"{ctx.app}/o/{org_id}/sites/{site['id']}",
        "preview": f"{ctx.app}/o/{org_id}/sites/{site['id']}/preview",
    }
    if published:
        urls["published"] = site_base_url(tx, site)
    body: dict[str, Any] = {
        "object": "site",
        "id": site["id"],
        "type": site.get("type", "basic"),
        "appliedType": site.get("type", "basic"),
        "title": site["title"],
        "basename": site["basename"],
        "visibility": site.get("visibility", "public"),
        "defaultLevel": site.get("defaultLevel", "inherit"),
        "published": published,
        "siteSpaces": tx.count(SITE_SPACE, site["id"]),
        "createdAt": site["createdAt"],
        "adaptiveContent": {"enabled": bool(site.get("adaptiveContent", False))},
        "agentsContext": site.get("agentsContext", "included"),
        "features": [],
        "urls": urls,
        "permissions": {
            "view": role is not None,
            "access": role is not None,
            "edit": at_least(role, "edit"),
            "create": at_least(role, "create"),
            "admin": at_least(role, "admin"),
            "installIntegration": at_least(role, "admin"),
            "viewAdaptiveSchema": role is not None,
            "editAdaptiveSchema": at_least(role, "create"),
        },
    }
    if site.get("hostname"):
        body["hostname"] = site["hostname"]
    if site.get("proxy"):
        body["proxy"] = {
            "origin": site["proxy"],
            "target": f"https://proxy.gitbook.site/sites/{site['id']}",
        }
    return body


def _space_of(tx: Tx, ctx: Ctx, space_id: str) -> dict[str, Any]:
    space = tx.get("space", space_id)
    if space is None:  # purged after deletion: keep the link readable
        return {"object": "space", "id": space_id, "title": "", "urls": {}}
    return space_json(tx, ctx, space)


def site_space_json(tx: Tx, ctx: Ctx, st: Structure, ss: dict[str, Any]) -> dict[str, Any]:
    space = _space_of(tx, ctx, ss["space"])
    body: dict[str, Any] = {
        "object": "site-space",
        "id": ss["id"],
        "path": ss["path"],
        "space": space,
        "title": ss.get("title") or space.get("title") or "",
        "default": st.is_default(ss),
        "draft": bool(ss.get("draft", False)),
        "hidden": bool(ss.get("hidden", False)),
        "hasAdvancedCustomizationFeature": False,
        "urls": {},
    }
    if ss.get("section"):
        body["section"] = ss["section"]
    if ss.get("condition") is not None:
        body["condition"] = ss["condition"]
    if st.site.get("published"):
        body["urls"]["published"] = st.site_space_url(ss)
    return body


def section_json(tx: Tx, ctx: Ctx, st: Structure, section: dict[str, Any]) -> dict[str, Any]:
    body: dict[str, Any] = {
        "object": "site-section",
        "id": section["id"],
        "title": section["title"],
        "default": st.default_section_id() == section["id"],
        "draft": bool(section.get("draft", False)),
        "path": section["path"],
        "siteSpaces": [site_space_json(tx, ctx, st, ss) for ss in st.members(section["id"])],
        "urls": {},
    }
    for key in ("description", "condition", "icon"):
        if section.get(key) is not None:
            body[key] = section[key]
    if st.parent_of(section) is not None:
        body["sectionGroup"] = section["sectionGroup"]
    if st.site.get("published"):
        body["urls"]["published"] = st.section_url(section)
    return body


def group_json(
    tx: Tx, ctx: Ctx, st: Structure, group: dict[str, Any], *, live: bool = False
) -> dict[str, Any]:
    """A section group with its children (``live``: drafts left out, as visitors see it)."""
    children = [n for n in st.children(group["id"]) if not (live and n[1].get("draft"))]
    items = [structure_item_json(tx, ctx, st, n, live=live) for n in children]
    body: dict[str, Any] = {
        "object": "site-section-group",
        "id": group["id"],
        "title": group["title"],
        "draft": bool(group.get("draft", False)),
        "sections": [i for i in items if i["object"] == "site-section"],
        "children": items,
    }
    if st.parent_of(group) is not None:
        body["sectionGroup"] = group["sectionGroup"]
    if group.get("icon") is not None:
        body["icon"] = group["icon"]
    return body


def structure_item_json(
    tx: Tx, ctx: Ctx, st: Structure, node: Node, *, live: bool = False
) -> dict[str, Any]:
    """A section or a section group of the site's tree."""
    kind, doc = node
    if kind == GROUP:
        return group_json(tx, ctx, st, doc, live=live)
    body = section_json(tx, ctx, st, doc)
    if live:
        body["siteSpaces"] = [ss for ss in body["siteSpaces"] if not ss["draft"]]
    return body
