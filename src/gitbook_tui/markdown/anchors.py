"""GitBook-style heading anchors: stable slugs, de-duplicated with ``-1``, ``-2`` …"""

from __future__ import annotations

import re

__all__ = ["AnchorRegistry", "slugify"]

_DROP_RE = re.compile(r"[^\w\s-]")
_DASH_RE = re.compile(r"[\s-]+")

FALLBACK_SLUG = "section"


def slugify(text: str) -> str:
    """Lowercase, punctuation dropped, runs of spaces/dashes → one ``-``.

    Letters and digits of every script are kept (``"Über uns"`` → ``"über-uns"``);
    text with nothing sluggable left (only emoji or punctuation) gives ``"section"``.
    """
    slug = _DASH_RE.sub("-", _DROP_RE.sub("", text.lower())).strip("-")
    return slug or FALLBACK_SLUG


class AnchorRegistry:
    """Hands out unique anchors within one document, in document order."""

    __slots__ = ("_next", "_used")

    def __init__(self) -> None:
        self._used: set[str] = set()
        self._next: dict[str, int] = {}

    def anchor(self, text: str) -> str:
        """The anchor for a heading titled ``text``: ``slug``, then ``slug-1``, ``slug-2`` …"""
        base = slugify(text)
        candidate = base
        if candidate in self._used:
            n = self._next.get(base, 1)
            candidate = f"{base}-{n}"
            while candidate in self._used:
                n += 1
                candidate = f"{base}-{n}"
            self._next[base] = n + 1
        self._used.add(candidate)
        return candidate
