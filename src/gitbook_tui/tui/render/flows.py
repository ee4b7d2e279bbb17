"""Soft-wrap flows: a block's text as read, with wrapped lines joined back, for search."""

from __future__ import annotations

from array import array
from bisect import bisect_right
from dataclasses import dataclass

from rich.style import Style
from rich.text import Text

from ..common.text import cell_width

__all__ = ["FlowMarks", "SearchText"]

FLOW_KEY = "gbf"

Segment = tuple[int, int, int]
"""``(line, x0, x1)``: cell columns ``[x0, x1)`` of one rendered line of a block."""


@dataclass(frozen=True, slots=True)
class SearchText:
    """One block's rendered lines and its searchable text.

    ``text`` is made of units separated by newlines: first every wrapped text (a
    paragraph, a heading, a table cell, a whole code block…) in one piece, its lines
    joined by whatever the wrap consumed between them (a space, nothing inside a folded
    word or code line, a newline between code lines), so a match reads the same at
    every width; then, line by line, whatever else is drawn (list markers, bars,
    borders), whitespace-only runs left out.

    Piece ``i`` of ``text`` starts at ``starts[i]`` and is drawn on line
    ``places[3 * i]`` from character ``places[3 * i + 1]``, ``places[3 * i + 2]``
    characters long. Characters between pieces (a wrap's cropped space, separators)
    are not drawn anywhere.
    """

    lines: list[str]
    text: str
    starts: array[int]
    places: array[int]

    def segments(self, start: int, end: int) -> list[Segment]:
        """Where ``text[start:end]`` is drawn: one segment per line it touches, in order.

        A match made only of undrawn characters (a space cropped at a wrap) gets an
        empty segment where it would be, so it still has a place to scroll to.
        """
        starts, places = self.starts, self.places
        first = max(0, bisect_right(starts, start) - 1)
        out: list[Segment] = []
        index = first
        while index < len(starts) and starts[index] < end:
            offset = starts[index]
            line, x, length = places[3 * index : 3 * index + 3]
            lo, hi = max(start, offset), min(end, offset + length)
            if lo < hi:
                out.append(self._cells(line, x + lo - offset, x + hi - offset))
            index += 1
        if not out and first < len(starts):
            offset = starts[first]
            line, x, length = places[3 * first : 3 * first + 3]
            column = x + min(max(0, start - offset), length)
            out.append(self._cells(line, column, column))
        return out

    def _cells(self, line: int, x0: int, x1: int) -> Segment:
        text = self.lines[line]
        if text.isascii():
            return line, x0, x1
        c0 = cell_width(text[:x0])
        return line, c0, c0 + cell_width(text[x0:x1])


class FlowMarks:
    """Marks wrapped text during a text-only layout so search can join its lines back.

    Each marked text gets a style object of its own spanning all its characters. Rich's
    wrapping and every composition step after it (prefixes, padding, table cells,
    side-by-side columns) carry that span along, so in the finished lines each span
    says where a fragment of that text landed. The styles carry meta only and are never
    rendered: only text-only layouts are marked.
    """

    _STYLE = Style.from_meta({FLOW_KEY: True})

    def __init__(self) -> None:
        # Keyed by the style's id: equal styles, told apart by identity, which costs a
        # dict lookup per span instead of decoding style meta.
        self._texts: dict[int, tuple[Style, str]] = {}

    def mark(self, text: Text) -> Text:
        """Make all of ``text`` (in place: callers pass text of their own) one new flow."""
        plain = text.plain
        if plain:
            style = self._STYLE.copy()
            self._texts[id(style)] = (style, plain)
            text.stylize(style)
        return text

    def search_text(self, lines: list[Text]) -> SearchText:
        """The searchable text of a block laid out (with these marks) as ``lines``."""
        # Runs for every block of a page on its first search: written for speed, in one
        # pass over the lines (leftovers go straight in, flows once all are collected;
        # the order of units does not matter, matches are sorted afterwards).
        texts = self._texts
        plains: list[str] = []
        flows: dict[int, list[tuple[int, int, int]]] = {}
        units: list[str] = []
        add = units.append
        starts: array[int] = array("i")
        places: list[int] = []
        place = places.extend
        offset = 0
        for y, line in enumerate(lines):
            plain = line.plain
            plains.append(plain)
            ranges: list[tuple[int, int]] = []
            for start, end, style in line.spans:
                key = id(style)
                if key in texts and end > start:
                    flows.setdefault(key, []).append((y, start, end))
                    ranges.append((start, end))
            if not plain or plain.isspace():
                continue
            # What the flows leave of the line: bars, markers, borders. Runs of only
            # whitespace (indents, padding) are never looked for and vary with the width.
            if ranges:
                if len(ranges) > 1:
                    ranges.sort()
                ranges.append((len(plain), len(plain)))
            else:
                ranges = [(len(plain), len(plain))]
            x = 0
            for x0, x1 in ranges:
                if x0 > x:
                    run = plain[x:x0]
                    if not run.isspace():
                        if offset:
                            add("\n")
                            offset += 1
                        starts.append(offset)
                        place((y, x, x0 - x))
                        add(run)
                        offset += x0 - x
                if x1 > x:
                    x = x1

        for key, fragments in flows.items():
            if offset:
                add("\n")
                offset += 1
            original = texts[key][1]
            position, first = 0, True
            for y, x0, x1 in fragments:
                fragment = plains[y][x0:x1]
                found = original.find(fragment, position)
                if first:
                    first = False
                else:
                    between = original[position:found] if found >= 0 else "\n"
                    # Only whitespace (or nothing) may join two fragments; anything else
                    # was cropped out of sight, so the text breaks there.
                    if between and not between.isspace():
                        between = "\n"
                    add(between)
                    offset += len(between)
                if found >= 0:
                    position = found + x1 - x0
                starts.append(offset)
                place((y, x0, x1 - x0))
                add(fragment)
                offset += x1 - x0

        return SearchText(plains, "".join(units), starts, array("i", places))
