"""Wording shared by the Admin tabs: the server's refusals in one line (never the token) and
split by the form field they name."""

from __future__ import annotations

from collections.abc import Iterable

from ...api.errors import APIConnectionError, APIStatusError, GitBookError
from ...markdown.sanitize import clean_text
from ..common.failure import describe_failure

__all__ = ["error_text", "field_errors"]


def error_text(error: BaseException, server: str = "") -> str:
    """One line naming the server and what it said."""
    where = f" ({clean_text(server)})" if server else ""
    if isinstance(error, APIStatusError):
        return f"Server{where} refused: {clean_text(error.message)} [{error.status}]"
    if isinstance(error, APIConnectionError | GitBookError):
        return f"Could not reach the server{where}: {clean_text(str(error))}"
    return describe_failure(error)


def field_errors(error: APIStatusError, fields: Iterable[str]) -> dict[str, str]:
    """``"title: too long; x: bad"`` → ``{"title": "too long", "": "x: bad"}`` (a part
    naming no field of the form goes on top, under ``""``)."""
    names = set(fields)
    found: dict[str, str] = {}
    for part in clean_text(error.message).split("; "):
        head, sep, rest = part.partition(": ")
        key = head.split(".", 1)[0] if sep else ""
        if key not in names:
            key, rest = "", part
        found[key] = f"{found[key]}; {rest}" if key in found else rest
    return found
