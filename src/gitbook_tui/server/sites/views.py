"""Sites as the routes see them: loading with access rules, their structure, and JSON views.

Storage: ``site`` documents (scope: organization id); a site's sections, site spaces and
redirects are ``site-section`` / ``site-space`` / ``site-redirect`` documents scoped by the
site id. A site's ``adaptiveSchema`` (``{jsonSchema, updatedAt}``) and its ``shareKey`` (the
secret of share-link visibility) are kept on the site document itself.

Defaults: exactly one section is the default (the site's ``defaultSiteSection`` when it
names one, else the first); in each section (and at the root) one site space is the default
(the section's or site's ``defaultSiteSpace`` when it names a member, else the first).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from ..core.context import Ctx
from ..core.errors import ApiError, forbidden, not_found
from ..core.permissions import at_least, org_role, require
from ..core.resources import load_org, space_json
from ..core.storage import Tx

SITE = "site"
SECTION = "site-section"
SITE_SPACE = "site-space"
REDIRECT = "site-redirect"


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


# -- structure of a site ----------------------------------------------------------------


@dataclass
class Structure:
    """A site's sections and site spaces (in order) with their defaults and URLs."""

    site: dict[str, Any]
    base: str
    sections: list[dict[str, Any]]
    site_spaces: list[dict[str, Any]]
    _members: dict[str | None, list[dict[str, Any]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for ss in self.site_spaces:
            self._members.setdefault(ss.get("section"), []).append(ss)

    def members(self, section_id: str | None) -> list[dict[str, Any]]:
        return self._members.get(section_id, [])

    def section(self, section_id: str) -> dict[str, Any] | None:
        return next((s for s in self.sections if s["id"] == section_id), None)

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


def structure(tx: Tx, site: dict[str, Any]) -> Structure:
    return Structure(
        site=site,
        base=site_base_url(tx, site),
        sections=tx.list(SECTION, site["id"]),
        site_spaces=tx.list(SITE_SPACE, site["id"]),
    )


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
    if st.site.get("published"):
        body["urls"]["published"] = st.section_url(section)
    return body


# -- the published site --------------------------------------------------------------


def default_customization(site: dict[str, Any]) -> dict[str, Any]:
    """The customization settings of a site that was never customized (no announcement:
    an announcement needs a message of two characters or more)."""
    themed = {"light": "#346DDB", "dark": "#346DDB"}
    return {
        "title": site["title"],
        "styling": {
            "theme": "clean",
            "primaryColor": themed,
            "infoColor": {"light": "#787878", "dark": "#787878"},
            "successColor": {"light": "#00C742", "dark": "#00C742"},
            "warningColor": {"light": "#FE9A00", "dark": "#FE9A00"},
            "dangerColor": {"light": "#FB2C36", "dark": "#FB2C36"},
            "tint": {"color": themed},
            "corners": "rounded",
            "depth": "subtle",
            "links": "default",
            "font": "Inter",
            "monospaceFont": "IBMPlexMono",
            "background": "plain",
            "codeTheme": {
                "default": {"light": "default-light", "dark": "default-dark"},
                "openapi": {"light": "default-light", "dark": "default-dark"},
            },
            "icons": "regular",
            "sidebar": {"background": "default", "list": "default"},
            "search": "subtle",
        },
        "internationalization": {"locale": "en"},
        "favicon": {},
        "header": {"preset": "default", "links": []},
        "footer": {"groups": []},
        "themes": {"default": "light", "toggeable": True},
        "pdf": {"enabled": True},
        "feedback": {"enabled": False},
        "aiSearch": {"enabled": True},
        "advancedCustomization": {"enabled": True},
        "pagination": {"enabled": True},
        "trademark": {"enabled": True},
        "ai": {"mode": "search", "pageLinkSummaries": {"enabled": False}},
        "git": {"showEditLink": False},
        "privacyPolicy": {},
        "socialPreview": {},
        "insights": {"trackingCookie": True},
        "externalLinks": {"target": "self"},
        "pageActions": {"items": ["markdown", "pdf"]},
        "socialAccounts": [],
    }


def _customization(site: dict[str, Any], overrides: dict[str, Any] | None) -> dict[str, Any]:
    settings = default_customization(site)
    settings.update(site.get("customization") or {})
    settings.update(overrides or {})
    return settings


def _live_section_json(tx: Tx, ctx: Ctx, st: Structure, section: dict[str, Any]) -> dict[str, Any]:
    body = section_json(tx, ctx, st, section)
    body["siteSpaces"] = [ss for ss in body["siteSpaces"] if not ss["draft"]]
    return body


def published_site_json(tx: Tx, ctx: Ctx, site: dict[str, Any]) -> dict[str, Any]:
    """What visitors of the published site get: the site, its live structure, settings."""
    st = structure(tx, site)
    live_spaces = [ss for ss in st.ordered_site_spaces() if not ss.get("draft")]
    if st.sections:
        tree: dict[str, Any] = {
            "type": "sections",
            "structure": [
                _live_section_json(tx, ctx, st, s) for s in st.sections if not s.get("draft")
            ],
        }
    else:
        tree = {
            "type": "siteSpaces",
            "structure": [site_space_json(tx, ctx, st, ss) for ss in live_spaces],
        }
    return {
        "object": "published-content-site",
        "site": site_json(tx, ctx, site),
        "structure": tree,
        "customizations": {
            "site": _customization(site, None),
            "siteSpaces": {
                ss["id"]: _customization(site, ss.get("customization")) for ss in live_spaces
            },
        },
        "scripts": [],
    }
