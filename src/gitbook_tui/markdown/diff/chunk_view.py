"""What each chunk of a page gives (display blocks, items, headings) and one side's view of
its chunks — positions and display blocks made on demand — for the lazy diff (:mod:`.lazy`)."""

from __future__ import annotations

from bisect import bisect_right
from typing import TypeAlias

from markdown_it.token import Token

from ..blocks import Converter, finish
from ..tag_blocks import PART_TYPES
from .blocks import BlockKind, DisplayBlock, flatten_run
from .chunks import Side
from .outline import OUTLINE_ROWS

__all__ = ["ChunkFacts", "SideView", "chunk_facts"]

_NO_HEADING, _HEADING, _PARSED = 0, 1, 2

_GroupKey: TypeAlias = tuple[tuple[str, str, str, str], ...]


class ChunkFacts:
    """What a chunk gives, whichever side it is on: display blocks, items, headings, and
    once it is parsed, its top-level groups (what the alignment compares)."""

    __slots__ = ("count", "groups", "heading", "items", "last_heading")

    def __init__(self, count: int, items: int, heading: int, last_heading: str | None) -> None:
        self.count = count
        self.items = items
        self.heading = heading
        """:data:`_NO_HEADING`, :data:`_HEADING` (one heading, text unread) or :data:`_PARSED`."""
        self.last_heading = last_heading
        """For a parsed chunk: the title of its last heading (``None``: it has none)."""
        self.groups: list[tuple[int, int, _GroupKey]] | None = None
        """Display ranges of its top-level blocks and their keys (once parsed)."""

    def parsed(self, blocks: tuple[DisplayBlock, ...]) -> None:
        groups: list[tuple[int, int, _GroupKey]] = []
        start = 0
        for end in range(1, len(blocks) + 1):
            if end == len(blocks) or blocks[end].top != blocks[start].top:
                groups.append((start, end, tuple(b.key for b in blocks[start:end])))
                start = end
        self.groups = groups


def _plain_count(tokens: list[Token], converter: Converter) -> tuple[int, int] | None:
    """``(display blocks, heading kind)`` of a chunk of one plain block (one item), read
    off its block tokens; ``None`` if it needs parsing to tell."""
    if not tokens:
        return None
    first = tokens[0]
    kind = first.type
    if kind == "heading_open" and len(tokens) == 3:
        return 1, _HEADING
    if kind == "paragraph_open" and len(tokens) == 3 and tokens[1].type == "inline":
        # A letter or digit first (after emphasis marks) is text: exactly one paragraph,
        # never images only.
        return (1, _NO_HEADING) if tokens[1].content.lstrip("*_")[:1].isalnum() else None
    if kind == "fence" and len(tokens) == 1:
        code = converter._fence(first)  # what flatten emits: the title, then each line
        return (1 if code.title else 0) + code.code.count("\n") + 1, _NO_HEADING
    if kind == "hr" and len(tokens) == 1:
        return 1, _NO_HEADING
    if kind == "table_open" and first.meta and OUTLINE_ROWS in first.meta:
        return first.meta[OUTLINE_ROWS], _NO_HEADING  # outlined: the header row, the body's
    if kind == "table_open" and tokens[-1].type == "table_close":
        rows = head = 0
        in_head = False
        for token in tokens:
            kind = token.type
            if kind == "tr_open":
                rows += 1
                head += in_head
            elif kind == "thead_open":
                in_head = True
            elif kind == "thead_close":
                in_head = False
        return (rows, _NO_HEADING) if head == 1 else None  # the header row, then the body's
    return None


class SideView:
    """One side's chunks, their positions, and their display blocks made on demand."""

    def __init__(self, side: Side, facts: dict[int, ChunkFacts]) -> None:
        self.chunks = side.chunks
        self.facts = [facts[id(chunk.source)] for chunk in side.chunks]
        self.starts = [0]
        """Display position of each chunk's first block; the total last."""
        self.tops = [0]
        """``Document.blocks`` position of each chunk's first block."""
        for fact in self.facts:
            self.starts.append(self.starts[-1] + fact.count)
            self.tops.append(self.tops[-1] + fact.items)
        self.converter = Converter()
        self._display: dict[int, tuple[DisplayBlock, ...]] = {}
        self._section_after: dict[int, str] = {}

    def display(self, k: int) -> tuple[DisplayBlock, ...]:
        """Chunk ``k``'s display blocks, as :func:`flatten` gives them in the whole page."""
        blocks = self._display.get(k)
        if blocks is None:
            items = self.chunks[k].convert(self.converter)
            blocks, _ = flatten_run(finish(items), self.tops[k], self.section_before(k))
            assert len(blocks) == self.facts[k].count
            self._display[k] = blocks
        return blocks

    def stretch(self, start: int, end: int) -> list[DisplayBlock]:
        return [block for k in range(start, end) for block in self.display(k)]

    def section_before(self, k: int) -> str:
        """The title of the last heading before chunk ``k`` ("" if none)."""
        j = k - 1
        while j >= 0:
            known = self._section_after.get(j)
            if known is not None:
                return known
            fact = self.facts[j]
            if fact.heading == _HEADING:
                heading = self.chunks[j].convert(self.converter)[0]
                self._section_after[j] = title = getattr(heading, "text", "")
                return title
            if fact.heading == _PARSED and fact.last_heading is not None:
                self._section_after[j] = fact.last_heading
                return fact.last_heading
            j -= 1
        return ""

    def block_at(self, index: int) -> DisplayBlock:
        k = bisect_right(self.starts, index) - 1
        return self.display(k)[index - self.starts[k]]


def chunk_facts(sides: tuple[Side, Side]) -> dict[int, ChunkFacts] | None:
    """Each chunk's facts (by ``id`` of the chunk holding its tokens); ``None`` if a chunk
    holds a part (tab, step…) outside its container: it would join its neighbour."""
    facts: dict[int, ChunkFacts] = {}
    converter = Converter()
    for side in sides:
        for chunk in side.chunks:
            source = chunk.source
            if id(source) in facts:
                continue
            plain = _plain_count(source.outline_tokens(), converter)
            if plain is not None:
                facts[id(source)] = ChunkFacts(plain[0], 1, plain[1], None)
                continue
            items = chunk.convert(converter)
            if any(isinstance(item, PART_TYPES) for item in items):
                return None
            blocks, _ = flatten_run(finish(items))
            last = next((b.text for b in reversed(blocks) if b.kind is BlockKind.HEADING), None)
            fact = facts[id(source)] = ChunkFacts(len(blocks), len(items), _PARSED, last)
            fact.parsed(blocks)
    return facts
