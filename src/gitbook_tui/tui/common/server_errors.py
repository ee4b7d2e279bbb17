"""The server's refusals as the views word them: one line naming the server, and by field."""

from __future__ import annotations

from collections.abc import Iterable

from ...api.errors import APIConnectionError, APIStatusError, GitBookError
from ...markdown.sanitize import clean_text

__all__ = ["error_text", "field_errors"]


def error_text(error: BaseException, server: str = "") -> str:
    """One line naming the server and what it said (never the token)."""
    server = clean_text(server)
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
    """The server's message split by form field: ``"source: already redirects; x: bad"``
    gives ``{"source": "already redirects", "": "x: bad"}`` (a part naming no field of the
    form goes on top, under ``""``)."""
    names = set(fields)
    found: dict[str, str] = {}
    for part in clean_text(error.message).split("; "):
        head, sep, rest = part.partition(": ")
        key = head.split(".", 1)[0] if sep else ""
        if key not in names:
            key, rest = "", part
        found[key] = f"{found[key]}; {rest}" if key in found else rest
    return found
