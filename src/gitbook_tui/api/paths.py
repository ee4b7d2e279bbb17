"""Path safety: ids as single percent-encoded segments, and a last check of every request path."""

from __future__ import annotations

import re
from urllib.parse import quote, unquote

__all__ = ["checked_path", "segment", "segments"]

# Characters that must never reach a path, even encoded: separators some servers decode
# back into structure (``/``, ``\\``; a percent-encoded ``%2F`` is decoded by ASGI servers),
# query and fragment starts, and control characters (C0, DEL, C1).
_UNSAFE_SEGMENT = re.compile(r"[/\\?#\x00-\x1f\x7f-\x9f]")


def _shown(value: str) -> str:
    return repr(value if len(value) <= 60 else value[:57] + "...")


def segment(value: str | int, name: str) -> str:
    """``value`` as one percent-encoded path segment; a :class:`ValueError` naming ``name``
    when it is empty, ``.``/``..`` (which HTTP clients resolve, escaping the segment), or
    holds ``/``, ``\\``, ``?``, ``#`` or a control character.

    Other characters are encoded (``%2e%2e`` is sent as ``%252e%252e``: the literal id)."""
    text = str(value)
    if text in ("", ".", "..") or _UNSAFE_SEGMENT.search(text):
        raise ValueError(f"{name} must be a single path segment, got {_shown(text)}")
    return quote(text, safe="")


def segments(value: str, name: str) -> str:
    """A ``/``-separated sub-path (a page path), each part checked as by :func:`segment`;
    empty parts (leading, trailing or doubled slashes) are dropped."""
    parts = [part for part in value.split("/") if part]
    try:
        return "/".join(segment(part, name) for part in parts)
    except ValueError:
        raise ValueError(f"{name} must be a path of plain segments, got {_shown(value)}") from None


def checked_path(path: str) -> str:
    """The request path, refused when it could address anything but what it names: a dot
    segment (HTTP clients resolve them), an empty segment (but a trailing slash), or a raw
    unsafe character. Paths built with :func:`segment` always pass; this guards the rest."""
    path = "/" + path.lstrip("/")
    parts = path[1:].split("/")
    if len(parts) > 1 and parts[-1] == "":
        parts.pop()
    for part in parts:
        if part in ("", ".", "..") or unquote(part) in (".", "..") or _UNSAFE_SEGMENT.search(part):
            raise ValueError(f"unsafe request path {_shown(path)}: every segment must be plain")
    return path
