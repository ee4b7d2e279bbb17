"""Small shared helpers of the site editor: inert table cells, permission reasons, and the
server's error messages split by the form field they name."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from ...markdown.sanitize import clean_text
from ...models import Site
from ..common.server_errors import error_text, field_errors
from ..common.text import cell_width, fit

__all__ = [
    "VISIBILITY_AUDIENCE",
    "VISIBILITY_RANK",
    "audience_widening",
    "cell",
    "clip",
    "clip_url",
    "edit_denied",
    "error_text",
    "field_errors",
    "publish_denied",
    "share_widths",
    "table_room",
]

VISIBILITY_AUDIENCE = {
    "public": "anyone on the internet (listed and indexed by search engines)",
    "unlisted": "anyone who has the URL (not indexed)",
    "share-link": "only people with the site's share link",
    "visitor-auth": "only visitors signed in through your authentication",
}
VISIBILITY_RANK = {"visitor-auth": 0, "share-link": 1, "unlisted": 2, "public": 3}
# a space's own audience, below any site's: a private or in-collection space is read only by
# members of the organization, so putting it on a site widens who can read it
SPACE_RANK = {"private": -2, "in-collection": -1, **VISIBILITY_RANK}


def audience_widening(
    space_title: str, space_visibility: str | None, site: Site, url: str
) -> str | None:
    """What adding a space to ``site`` does to who can read it, when that widens its
    audience (``None``: the space is already as open as the site)."""
    site_visibility = str(site.visibility or "")
    space_visibility = str(space_visibility or "private")
    if SPACE_RANK.get(space_visibility, -2) >= SPACE_RANK.get(site_visibility, 9):
        return None
    audience = VISIBILITY_AUDIENCE.get(site_visibility, site_visibility)
    when = "" if site.published else " once the site is published"
    return f"“{space_title}” ({space_visibility}) becomes readable by {audience} at {url}{when}."


def clip(text: str, width: int | None) -> str:
    """``text`` within ``width`` cells, ending in "…" when cut (``None``: as it is)."""
    if width is None or cell_width(text) <= width:
        return text
    return fit(text, width, ellipsis=True).rstrip(" ")  # (fit pads a wide last cell)


def clip_url(url: str, width: int | None) -> str:
    """``url`` within ``width`` cells: without its scheme when that is enough, else cut in
    the middle ("lanternfish.gitb…/legacy"), so URLs of one host stay told apart."""
    if width is None or cell_width(url) <= width:
        return url
    bare = url.split("://", 1)[-1]
    if cell_width(bare) <= width:
        return bare
    slash = bare.rfind("/")
    tail = bare[slash:] if slash > 0 else ""
    tail = tail if cell_width(tail) <= (width - 1) // 2 else ""
    return clip(bare[: len(bare) - len(tail)], width - cell_width(tail)) + tail


def cell(text: str | None, style: str = "", width: int | None = None) -> Text:
    """A table cell of server text: controls stripped, never read as markup; cut with "…"
    to ``width`` cells when given."""
    return Text(clip(clean_text(text or ""), width), style=style, no_wrap=True)


def share_widths(needs: Sequence[int], total: int, floor: int = 4) -> list[int]:
    """Column widths within ``total`` cells: every column its need when all fit, else the
    widest are cut first, down to a common cap (never below ``floor``)."""
    if sum(needs) <= total or not needs:
        return list(needs)
    cap = max(needs)
    while cap > floor and sum(min(n, cap) for n in needs) > total:
        cap -= 1
    return [min(n, cap) for n in needs]


def table_room(width: int, columns: int, padding: int = 1) -> int:
    """The cells a DataTable ``width`` wide leaves for the text of ``columns`` columns
    (each padded ``padding`` cells each side; 2 kept for the vertical scrollbar)."""
    return max(columns, width - 2 - columns * 2 * padding)


def edit_denied(site: Site | None) -> str | None:
    perms = site.permissions if site is not None else None
    if perms is None or perms.create:
        return None
    return "Changing this site needs the create role in the organization (you can view it)."


def publish_denied(site: Site | None) -> str | None:
    perms = site.permissions if site is not None else None
    if perms is None or perms.admin:
        return None
    return "Only organization admins can publish or unpublish a site."
