"""What a search result is and how its text is shown: the chosen page/section, its anchor,
the query's words highlighted (inert), one-line snippets."""

from __future__ import annotations

import re
from dataclasses import dataclass

from textual.content import Content

from ...models import SearchSection
from ..common.text import inert

__all__ = ["SearchResult", "ellipsis", "highlight", "one_line", "section_anchor"]

_HIGHLIGHT = "bold underline"
_WORD = re.compile(r"\w+", re.UNICODE)


@dataclass(frozen=True)
class SearchResult:
    """A chosen result: the page to open and, for a section, its anchor."""

    space_id: str
    page_id: str
    anchor: str | None = None


def section_anchor(section: SearchSection, page_id: str) -> str | None:
    """The anchor of a matching section (``None`` when the match is the page itself)."""
    for value in (section.id, section.path or ""):
        if "#" in value:
            anchor = value.split("#", 1)[1]
            return anchor or None
    if section.id and section.id != page_id and section.resultType != "page":
        return section.id
    return None


def highlight(text: str | None, query: str, *, style: str = "") -> Content:
    """``text`` as inert Content with the words of ``query`` styled where they occur."""
    content = inert(text, style=style)
    plain = content.plain.lower()
    for word in {w.lower() for w in _WORD.findall(query)}:
        start = plain.find(word)
        while start != -1:
            content = content.stylize(_HIGHLIGHT, start, start + len(word))
            start = plain.find(word, start + len(word))
    return content


def one_line(text: str | None) -> str:
    """``text`` with every run of whitespace (newlines too) made one space."""
    return " ".join((text or "").split())


def ellipsis(text: str, limit: int = 60) -> str:
    """``text`` cut to ``limit`` characters, ending in "…" when cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
