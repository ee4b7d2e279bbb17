"""The published site as visitors get it: the site, its live structure and customizations."""

from __future__ import annotations

from typing import Any

from ..core.context import Ctx
from ..core.storage import Tx
from .structure import structure
from .views import site_json, site_space_json, structure_item_json

__all__ = ["default_customization", "published_site_json", "structure_json"]


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


def structure_json(tx: Tx, ctx: Ctx, site: dict[str, Any], *, live: bool = False) -> dict[str, Any]:
    """The site's structure (``getSiteStructure``): its sections and section groups as a
    tree, or its site spaces when it has no sections (``live``: drafts left out)."""
    st = structure(tx, site)
    if st.sections or st.groups:
        nodes = [n for n in st.children(None) if not (live and n[1].get("draft"))]
        return {
            "type": "sections",
            "structure": [structure_item_json(tx, ctx, st, n, live=live) for n in nodes],
        }
    spaces = [ss for ss in st.ordered_site_spaces() if not (live and ss.get("draft"))]
    return {"type": "siteSpaces", "structure": [site_space_json(tx, ctx, st, ss) for ss in spaces]}


def published_site_json(tx: Tx, ctx: Ctx, site: dict[str, Any]) -> dict[str, Any]:
    """What visitors of the published site get: the site, its live structure, settings."""
    st = structure(tx, site)
    live_spaces = [ss for ss in st.ordered_site_spaces() if not ss.get("draft")]
    tree = structure_json(tx, ctx, site, live=True)
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
