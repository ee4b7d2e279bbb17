"""URL slugs of titles: lower-case ASCII words joined by ``-``, made unique among siblings."""

from __future__ import annotations

import re
import unicodedata

from ...markdown.sanitize import clean_text


def slugify(title: str, fallback: str = "page") -> str:
    """A URL slug (lower-case ASCII words joined by ``-``) of a title; ``fallback`` when empty.

    Terminal escape sequences and control characters are removed first, as everywhere text is
    sanitised for display (:func:`clean_text`): a red ``Red`` title gives ``red``, with no
    ``31m`` or ``0m`` left over from its colour codes."""
    text = (
        unicodedata.normalize("NFKD", clean_text(title)).encode("ascii", "ignore").decode("ascii")
    )
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return slug[:100].rstrip("-") or fallback


def unique_slug(slug: str, taken: set[str]) -> str:
    """``slug``, or ``slug-2``, ``slug-3``… when a sibling already uses it; adds it to ``taken``."""
    candidate, n = slug, 1
    while candidate in taken:
        n += 1
        candidate = f"{slug}-{n}"
    taken.add(candidate)
    return candidate
