"""Small shared helpers of the site editor: inert table cells, permission reasons, and the
server's error messages split by the form field they name."""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text

from ...api.errors import APIConnectionError, APIStatusError, GitBookError
from ...markdown.sanitize import clean_text
from ...models import Site

__all__ = [
    "VISIBILITY_AUDIENCE",
    "VISIBILITY_RANK",
    "cell",
    "edit_denied",
    "error_text",
    "field_errors",
    "publish_denied",
]

VISIBILITY_AUDIENCE = {
    "public": "anyone on the internet (listed and indexed by search engines)",
    "unlisted": "anyone who has the URL (not indexed)",
    "share-link": "only people with the site's share link",
    "visitor-auth": "only visitors signed in through your authentication",
}
VISIBILITY_RANK = {"visitor-auth": 0, "share-link": 1, "unlisted": 2, "public": 3}


def cell(text: str | None, style: str = "") -> Text:
    """A table cell of server text: controls stripped, never read as markup."""
    return Text(clean_text(text or ""), style=style, no_wrap=True, overflow="ellipsis")


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


def error_text(error: BaseException, server: str = "") -> str:
    """One line naming the server and what it said (never the token)."""
    where = f" ({server})" if server else ""
    if isinstance(error, APIStatusError):
        return f"Server{where} refused: {clean_text(error.message)} [{error.status}]"
    if isinstance(error, APIConnectionError):  # it says what failed: name the server in it
        head, sep, rest = clean_text(str(error)).partition(" (")
        return f"{head}{f' at {server}' if server else ''}{sep}{rest}"
    if isinstance(error, GitBookError):
        return f"Could not reach the server{where}: {clean_text(str(error))}"
    return f"Unexpected error: {clean_text(str(error))}"


def field_errors(error: APIStatusError, fields: Iterable[str]) -> dict[str, str]:
    """The server's message split by field: ``"source: already redirects; x: bad"`` gives
    ``{"source": "already redirects", ...}``; a part naming no field goes under ``""``."""
    names = set(fields)
    found: dict[str, str] = {}
    for part in clean_text(error.message).split("; "):
        head, sep, rest = part.partition(": ")
        key = head.split(".", 1)[0] if sep else ""
        if key not in names:
            key, rest = "", part
        found[key] = f"{found[key]}; {rest}" if key in found else rest
    return found
