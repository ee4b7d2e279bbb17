"""Case-insensitive search over a document layout's text, soft wraps joined."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import NamedTuple

from ..common.text import cell_width
from .flows import SearchText
from .haystack import query_words
from .layout import DocumentLayout

__all__ = [
    "FindResults",
    "Match",
    "Pending",
    "block_matches",
    "block_resolver",
    "iter_matches",
    "line_matches",
]


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


class Pending(NamedTuple):
    """``total`` matches in block ``block``, a paragraph: counted in its text, their
    lines and columns left to work out (by laying it out) when they are needed."""

    block: int
    total: int


def block_resolver(layout: DocumentLayout, query: str) -> Callable[[int], list[Match]]:
    """The exact matches of ``query`` in a block of ``layout`` (lays it out)."""
    pattern = _pattern(query)
    return lambda index: block_matches(index, layout.search_text(index), pattern)


def iter_matches(
    layout: DocumentLayout, query: str, start: int = 0
) -> Iterator[list[Match] | Pending | None]:
    """Matches block by block from block ``start`` on (one list per block, maybe empty).

    While the document is still being parsed, ``None`` comes after its last block (and
    again each time it is asked for): the search carries on once more blocks arrive.

    A generator so a caller can spread a large document over several event-loop turns.
    Every block that may hold the query (see :mod:`.haystack`: most blocks are ruled out
    without a layout) is laid out exactly, so the search sees precisely what is drawn;
    text wrapped over several lines is searched as one, so the count does not depend on
    the width. A paragraph's drawn text is its inline text, wrapped: its matches are
    only counted (:class:`Pending`) and placed once shown or stepped to.
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
        elif (text := layout.paragraph_text(index)) is not None:
            if text.isascii() and needle not in text.lower():
                yield []
            else:
                count = sum(1 for _hit in pattern.finditer(text))
                yield Pending(index, count) if count else []
        else:
            yield block_matches(index, layout.search_text(index), pattern, needle)
        index += 1


class FindResults:
    """The state of one search: matches found so far, the current one, the counter."""

    def __init__(
        self, query: str = "", resolve: Callable[[int], list[Match]] | None = None
    ) -> None:
        self.query = query
        self.done = not query
        self.matches: list[Match] = []
        """Every match so far, in reading order; those of a :class:`Pending` block are
        stand-ins (line -1) until :meth:`place` has laid the block out."""
        self.current: int | None = None
        self.wanted: int | None = None
        """The match to make current once found (the same search again after the page was
        laid out anew: the reader stays on the match they were on)."""
        self.waiting = False
        """True while the search has reached the end of a document still being parsed."""
        self._resolve = resolve
        self._pending: dict[int, tuple[int, int]] = {}  # block -> (first number, count)
        self._by_line: dict[tuple[int, int], list[tuple[int, int, int]]] = {}

    def add(self, found: list[Match] | Pending) -> None:
        if isinstance(found, Pending):
            if self._resolve is None:
                raise ValueError("pending matches need a resolver")
            self._pending[found.block] = (len(self.matches), found.total)
            self.matches.extend([Match(found.block, -1, 0, 0)] * found.total)
            return
        for match in found:
            self._index(len(self.matches), match)
            self.matches.append(match)

    def _index(self, number: int, match: Match) -> None:
        for line, x0, x1 in match.segments:
            if x1 > x0:
                self._by_line.setdefault((match.block, line), []).append((x0, x1, number))

    def place(self, block: int) -> None:
        """Work out where the matches of a :class:`Pending` block are (lays it out)."""
        first, count = self._pending.pop(block, (0, -1))
        if count < 0 or self._resolve is None:
            return
        found = self._resolve(block)
        if len(found) == count:
            self.matches[first : first + count] = found
            for number, match in enumerate(found, first):
                self._index(number, match)
            return
        # Counted differently once drawn (should not happen): renumber everything.
        self.matches[first : first + count] = found
        shift = len(found) - count
        self._pending = {
            b: (f + shift if f > first else f, c) for b, (f, c) in self._pending.items()
        }
        if self.current is not None and self.current >= first + count:
            self.current += shift
        elif self.current is not None and self.current >= first + len(found):
            self.current = first if found else None
        self._by_line = {}
        for number, match in enumerate(self.matches):
            if match.line >= 0:
                self._index(number, match)

    def placed(self) -> list[Match]:
        """Every match so far, each placed (lays out every pending block: for tests)."""
        for block in list(self._pending):
            self.place(block)
        return list(self.matches)

    def _placed(self, number: int) -> Match:
        match = self.matches[number]
        if match.line < 0:
            self.place(match.block)
            match = self.matches[min(number, len(self.matches) - 1)]
        return match

    def on_line(self, block: int, line: int) -> Iterator[tuple[int, int, bool]]:
        """``(x0, x1, is_current)`` of the match parts on one rendered line."""
        if block in self._pending:
            self.place(block)
        for x0, x1, number in self._by_line.get((block, line), ()):
            yield x0, x1, number == self.current

    def pick_first(self, line_of: Callable[[Match], int], top: int) -> bool:
        """Make the first match at/after document line ``top`` current (wrapping to the
        first match once the search is complete); True if the current match changed."""
        if self.current is not None or not self.matches:
            return False
        if self.wanted is not None:
            if self.wanted < len(self.matches):
                self.current = self.wanted
                return True
            if not self.done:
                return False  # not found yet
        number = 0
        while number < len(self.matches):
            match = self.matches[number]
            if match.line < 0:
                if line_of(Match(match.block + 1, 0, 0, 0)) <= top:
                    number += self._pending[match.block][1]  # the block is above the screen
                    continue
                match = self._placed(number)
            if line_of(match) >= top:
                self.current = number
                return True
            number += 1
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
        match = self._placed(self.current)
        return match if self.matches else None

    @property
    def current_match(self) -> Match | None:
        if self.current is None or not self.matches:
            return None
        return self._placed(self.current)

    @property
    def status(self) -> str:
        """``"3/17"``; a ``+`` while still searching; ``"no matches"``; ``""`` when idle."""
        if not self.query:
            return ""
        if self.done and not self.matches:
            return "no matches"
        position = 0 if self.current is None else self.current + 1
        return f"{position}/{len(self.matches)}{'' if self.done else '+'}"
