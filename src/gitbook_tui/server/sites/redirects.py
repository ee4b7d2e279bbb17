"""Site redirects: their JSON view, resolving destinations, and the URLs they lead to.

Destinations are checked against the site when stored (400 naming the field); a ``path``
destination is stored as the site space or page it names. Deleting a section or a site
space also deletes the redirects that pointed to it.
"""

from __future__ import annotations

import re
from typing import Any

from ..content.store import find_page, get_revision, iter_pages
from ..core.context import Ctx
from ..core.errors import bad_request, conflict, not_found
from ..core.storage import Tx
from .structure_schemas import Destination, RedirectCreate
from .views import REDIRECT, Structure

URL_RE = re.compile(r"^https?://[^\s/$.?#][^\s]*$", re.IGNORECASE)


def drop_redirects(tx: Tx, site_id: str, *, sections: set[str], site_spaces: set[str]) -> None:
    for redirect in tx.list(REDIRECT, site_id):
        dest = redirect["destination"]
        if dest.get("siteSectionId") in sections or dest.get("siteSpaceId") in site_spaces:
            tx.delete(REDIRECT, redirect["id"])


def redirect_json(redirect: dict[str, Any]) -> dict[str, Any]:
    body = {
        "object": "site-redirect",
        "id": redirect["id"],
        "source": redirect["source"],
        "destination": redirect["destination"],
        "draft": bool(redirect.get("draft", False)),
        "captureWildcard": bool(redirect.get("captureWildcard", False)),
        "permanent": bool(redirect.get("permanent", False)),
        "createdAt": redirect["createdAt"],
    }
    if redirect.get("updatedAt"):
        body["updatedAt"] = redirect["updatedAt"]
    return body


def _page_path(tx: Tx, space_id: str, page_id: str) -> str | None:
    space = tx.get("space", space_id)
    if space is None:
        return None
    found = find_page(get_revision(tx, space["revision"])["pages"], page_id)
    return None if found is None else found[1]


def resolve_destination(tx: Tx, st: Structure, dest: Destination) -> dict[str, Any]:
    """The stored form of a destination, checked against the site (400 naming the field)."""

    def need(name: str) -> str:
        value = getattr(dest, name)
        if not value:
            raise bad_request(f"destination.{name}: is required for kind '{dest.kind}'")
        return str(value)

    def site_space(name: str = "siteSpaceId") -> dict[str, Any]:
        ss_id = need(name)
        ss = st.site_space(ss_id)
        if ss is None:
            raise bad_request(f"destination.{name}: no site space '{ss_id}' in this site")
        return ss

    if dest.kind == "site-section":
        section_id = need("siteSectionId")
        if st.section(section_id) is None:
            raise bad_request(f"destination.siteSectionId: no section '{section_id}' in this site")
        return {"kind": "site-section", "siteSectionId": section_id}
    if dest.kind == "site-space":
        return {"kind": "site-space", "siteSpaceId": site_space()["id"]}
    if dest.kind == "site-page":
        ss = site_space()
        page_id = need("pageId")
        if _page_path(tx, ss["space"], page_id) is None:
            raise bad_request(
                f"destination.pageId: no page '{page_id}' in the space of site space '{ss['id']}'"
            )
        return {"kind": "site-page", "siteSpaceId": ss["id"], "pageId": page_id}
    if dest.kind == "external":
        url = need("url")
        if not URL_RE.match(url):
            raise bad_request("destination.url: must be an absolute http(s) URL")
        return {"kind": "external", "url": url}
    # kind "path": a page of a space of the site, by its path in that space
    space_id = need("spaceId")
    candidates = [ss for ss in st.ordered_site_spaces() if ss["space"] == space_id]
    if not candidates:
        raise bad_request(f"destination.spaceId: space '{space_id}' is not in this site")
    ss = candidates[0]
    wanted = (dest.path or "").strip("/")
    if not wanted:
        return {"kind": "site-space", "siteSpaceId": ss["id"]}
    space = tx.get("space", space_id) or {}
    pages = get_revision(tx, space["revision"])["pages"] if space.get("revision") else []
    for node, path, _ in iter_pages(pages):
        if path == wanted and node.get("type") != "group":
            return {"kind": "site-page", "siteSpaceId": ss["id"], "pageId": node["id"]}
    raise bad_request(f"destination.path: no page at '{wanted}' in space '{space_id}'")


def target_url(tx: Tx, st: Structure, dest: dict[str, Any]) -> str | None:
    kind = dest["kind"]
    if kind == "external":
        return str(dest["url"])
    if kind == "site-section":
        section = st.section(dest["siteSectionId"])
        return st.section_url(section) if section else None
    ss = st.site_space(dest["siteSpaceId"])
    if ss is None:
        return None
    url = st.site_space_url(ss)
    if kind == "site-page":
        path = _page_path(tx, ss["space"], dest["pageId"])
        return None if path is None else f"{url}/{path}"
    return url


def load_redirect(tx: Tx, site_id: str, redirect_id: str) -> dict[str, Any]:
    redirect = tx.get(REDIRECT, redirect_id)
    if redirect is None or redirect.get("site") != site_id:
        raise not_found("Site redirect", redirect_id)
    return redirect


def check_unique_source(tx: Tx, site_id: str, source: str, redirect_id: str | None) -> None:
    for other in tx.list(REDIRECT, site_id):
        if other["source"] == source and other["id"] != redirect_id:
            raise conflict(f"source: '{source}' already redirects (redirect '{other['id']}')")


def listed_redirects(
    tx: Tx, site_id: str, *, search: str | None, draft: bool, order_by: str
) -> list[dict[str, Any]]:
    """The live (or draft) redirects, filtered by source and in the order asked for."""
    items = [r for r in tx.list(REDIRECT, site_id) if bool(r.get("draft")) is draft]
    if search:
        items = [r for r in items if search.lower() in r["source"].lower()]
    if order_by == "source":
        items.sort(key=lambda r: r["source"])
    elif order_by == "updatedAt":
        items.sort(key=lambda r: r.get("updatedAt") or r["createdAt"], reverse=True)
    return items


def new_redirect(tx: Tx, ctx: Ctx, st: Structure, body: RedirectCreate) -> dict[str, Any]:
    """Store a redirect of the site from a create body (its source checked unique first)."""
    site_id = st.site["id"]
    check_unique_source(tx, site_id, body.source, None)
    redirect = {
        "id": ctx.new_id(),
        "site": site_id,
        "source": body.source,
        "destination": resolve_destination(tx, st, body.destination),
        "draft": body.draft,
        "permanent": body.permanent,
        "captureWildcard": body.captureWildcard,
        "createdAt": ctx.now(),
    }
    tx.put(REDIRECT, redirect["id"], redirect, scope=site_id)
    return redirect


def live_redirect(tx: Tx, site_id: str, source: str) -> dict[str, Any]:
    """The live redirect of ``source`` (404 when there is none)."""
    redirect = next(
        (r for r in tx.list(REDIRECT, site_id) if r["source"] == source and not r.get("draft")),
        None,
    )
    if redirect is None:
        raise not_found("Redirect for source", source)
    return redirect
