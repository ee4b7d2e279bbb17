"""Case-insensitive search over the rendered lines of a document layout."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from rich.cells import cell_len

from .layout import DocumentLayout

__all__ = ["FindResults", "Match", "iter_matches", "line_matches"]


@dataclass(frozen=True, slots=True, order=True)
class Match:
    block: int
    line: int
    x0: int
    x1: int
    """Cell columns ``[x0, x1)`` of the match in its rendered line."""


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
            x0 = cell_len(text[:start])
            yield x0, x0 + cell_len(text[start:end])


def iter_matches(layout: DocumentLayout, query: str, start: int = 0) -> Iterator[list[Match]]:
    """Matches block by block from block ``start`` on (one list per block, maybe empty).

    A generator so a caller can spread a large document over several event-loop turns.
    Every block is laid out exactly, so the search sees precisely what is drawn.
    """
    if not query:
        return
    pattern = _pattern(query)
    needle = query.lower()
    for index in range(start, len(layout)):
        found: list[Match] = []
        for number, text in enumerate(layout.text(index)):
            # Cheap pre-check: most lines do not contain the query at all.
            if text.isascii() and needle not in text.lower():
                continue
            for x0, x1 in line_matches(text, pattern):
                found.append(Match(index, number, x0, x1))
        yield found


class FindResults:
    """The state of one search: matches found so far, the current one, the counter."""

    def __init__(self, query: str = "") -> None:
        self.query = query
        self.done = not query
        self.matches: list[Match] = []
        self.current: int | None = None
        self._by_line: dict[tuple[int, int], list[tuple[int, int, int]]] = {}

    def add(self, found: list[Match]) -> None:
        for match in found:
            self._by_line.setdefault((match.block, match.line), []).append(
                (match.x0, match.x1, len(self.matches))
            )
            self.matches.append(match)

    def on_line(self, block: int, line: int) -> Iterator[tuple[int, int, bool]]:
        """``(x0, x1, is_current)`` of the matches on one rendered line."""
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
