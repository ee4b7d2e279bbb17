"""Case-insensitive search over a document layout's text, soft wraps joined."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ..common.text import cell_width
from .flows import SearchText
from .haystack import query_words
from .layout import DocumentLayout

__all__ = ["FindResults", "Match", "block_matches", "iter_matches", "line_matches"]


@dataclass(frozen=True, slots=True, order=True)
class Match:
    block: int
    line: int
    x0: int
    x1: int
    """Cell columns ``[x0, x1)`` of the match (its first part) in its rendered line."""
    rest: tuple[tuple[int, int, int], ...] = ()
    """``(line, x0, x1)`` of the parts on the next lines when the match runs on past a
    soft wrap ("consumer" ending one line, "group" starting the next)."""

    @property
    def segments(self) -> tuple[tuple[int, int, int], ...]:
        """``(line, x0, x1)`` of every part of the match, in reading order."""
        return ((self.line, self.x0, self.x1), *self.rest)


def _pattern(query: str) -> re.Pattern[str]:
    # A regex with IGNORECASE keeps indices in the original string (str.lower() can
    # change lengths, e.g. "İ"), so columns stay right.
    return re.compile(re.escape(query), re.IGNORECASE)


def line_matches(text: str, pattern: re.Pattern[str]) -> Iterator[tuple[int, int]]:
    """Cell ranges of ``pattern`` in one rendered line."""
    ascii_only = text.isascii()
    for found in pattern.finditer(text):
        start, end = found.span()
        if ascii_only:
            yield start, end
        else:
            x0 = cell_width(text[:start])
            yield x0, x0 + cell_width(text[start:end])


def block_matches(
    index: int, search: SearchText, pattern: re.Pattern[str], needle: str | None = None
) -> list[Match]:
    """The matches of ``pattern`` in one block, in reading order.

    ``needle`` (the lowercased query) enables a cheap pre-check: most blocks do not
    contain the query at all.
    """
    text = search.text
    if needle is not None and text.isascii() and needle not in text.lower():
        return []
    found: list[Match] = []
    for hit in pattern.finditer(text):
        (line, x0, x1), *rest = search.segments(*hit.span())
        found.append(Match(index, line, x0, x1, tuple(rest)))
    # Text is searched wrapped text first, then decorations: put them back in place.
    found.sort()
    return found


def iter_matches(
    layout: DocumentLayout, query: str, start: int = 0
) -> Iterator[list[Match] | None]:
    """Matches block by block from block ``start`` on (one list per block, maybe empty).

    While the document is still being parsed, ``None`` comes after its last block (and
    again each time it is asked for): the search carries on once more blocks arrive.

    A generator so a caller can spread a large document over several event-loop turns.
    Every block that may hold the query (see :mod:`.haystack`: most blocks are ruled out
    without a layout) is laid out exactly, so the search sees precisely what is drawn;
    text wrapped over several lines is searched as one, so the count does not depend on
    the width.
    """
    if not query:
        return
    pattern = _pattern(query)
    needle = query.lower()
    words = query_words(query)
    index = start
    while True:
        if index >= len(layout):
            if layout.complete:
                return
            yield None
            continue
        if words is not None and not layout.may_contain(index, words):
            yield []
        else:
            yield block_matches(index, layout.search_text(index), pattern, needle)
        index += 1


class FindResults:
    """The state of one search: matches found so far, the current one, the counter."""

    def __init__(self, query: str = "") -> None:
        self.query = query
        self.done = not query
        self.matches: list[Match] = []
        self.current: int | None = None
        self.waiting = False
        """True while the search has reached the end of a document still being parsed."""
        self._by_line: dict[tuple[int, int], list[tuple[int, int, int]]] = {}

    def add(self, found: list[Match]) -> None:
        for match in found:
            number = len(self.matches)
            for line, x0, x1 in match.segments:
                if x1 > x0:
                    self._by_line.setdefault((match.block, line), []).append((x0, x1, number))
            self.matches.append(match)

    def on_line(self, block: int, line: int) -> Iterator[tuple[int, int, bool]]:
        """``(x0, x1, is_current)`` of the match parts on one rendered line."""
        for x0, x1, number in self._by_line.get((block, line), ()):
            yield x0, x1, number == self.current

    def pick_first(self, line_of: Callable[[Match], int], top: int) -> bool:
        """Make the first match at/after document line ``top`` current (wrapping to the
        first match once the search is complete); True if the current match changed."""
        if self.current is not None or not self.matches:
            return False
        for number, match in enumerate(self.matches):
            if line_of(match) >= top:
                self.current = number
                return True
        if self.done:
            self.current = 0
            return True
        return False

    def step(self, delta: int) -> Match | None:
        """Move to the next (``+1``) or previous (``-1``) match, wrapping around."""
        if not self.matches:
            return None
        current = self.current
        self.current = 0 if current is None else (current + delta) % len(self.matches)
        return self.matches[self.current]

    @property
    def current_match(self) -> Match | None:
        return None if self.current is None else self.matches[self.current]

    @property
    def status(self) -> str:
        """``"3/17"``; a ``+`` while still searching; ``"no matches"``; ``""`` when idle."""
        if not self.query:
            return ""
        if self.done and not self.matches:
            return "no matches"
        position = 0 if self.current is None else self.current + 1
        return f"{position}/{len(self.matches)}{'' if self.done else '+'}"
