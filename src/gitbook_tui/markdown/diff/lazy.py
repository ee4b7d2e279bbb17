"""A page diff that parses the unchanged blocks only when they are looked at: :func:`lazy_diff`.

Both sides are cut into top-level chunks (:mod:`.chunks`); the chunk sequences are aligned
on their source text (``rapidfuzz`` Indel over interned keys). Chunks of equal text give
equal rows, so only the stretches between them are parsed, flattened and aligned as
:func:`~.align.diff_blocks` does (top-level groups, then display blocks, then pairs).

A fold still needs the number of rows it hides, and every row its position, so each
chunk's number of display blocks is known up front: read off its block tokens for the
plain kinds (a heading, a paragraph that starts with a letter or digit — after emphasis
marks —, fenced code, a
pipe table, a rule — one block each, no inline parsing needed), and by parsing the chunk
for anything else (tags, lists, quotes, HTML…, a small share of a page). The rows of an
unchanged chunk are made when first read (the fold's context, an opened fold), from its
parse then: the section (heading above) it is under is found by walking back to the
nearest chunk that holds a heading.

The rows equal those of ``diff_documents(parse(old), parse(new))`` (tests compare them
on the demo pages, fixtures and the 1 MB page); pages whose chunks cannot stand alone (a
tab, step… part outside its container, link reference or footnote definitions) are not
diffed lazily (:func:`lazy_diff` returns ``None``).
"""

from __future__ import annotations

import gc
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from typing import TypeAlias, overload

from markdown_it.token import Token
from rapidfuzz.distance import Indel

from ..blocks import Converter, finish
from ..tag_blocks import PART_TYPES
from .align import DEFAULT_THRESHOLD, BlockDiff, DiffRow, RowKind, align_stretch
from .blocks import BlockKind, DisplayBlock, flatten_run
from .chunks import Side, chunked_pair

__all__ = ["LazyRows", "lazy_diff"]

_NO_HEADING, _HEADING, _PARSED = 0, 1, 2
_GC_PAUSE_THRESHOLD = 64 * 1024
_KEEP_NEAR = 4
"""Chunks this close to a change keep their block tokens (see :meth:`LazyRows.drop_far_tokens`)."""


_GroupKey: TypeAlias = tuple[tuple[str, str, str, str], ...]


class _Facts:
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


class _SideView:
    """One side's chunks, their positions, and their display blocks made on demand."""

    def __init__(self, side: Side, facts: dict[int, _Facts]) -> None:
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


class _Blocks(Sequence[DisplayBlock]):
    """One side's display blocks, made on demand."""

    def __init__(self, view: _SideView) -> None:
        self._view = view

    def __len__(self) -> int:
        return self._view.starts[-1]

    @overload
    def __getitem__(self, index: int) -> DisplayBlock: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[DisplayBlock]: ...
    def __getitem__(self, index: int | slice) -> DisplayBlock | Sequence[DisplayBlock]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        return self._view.block_at(index)


class LazyRows(Sequence[DiffRow]):
    """The rows of a diff; those of unchanged chunks made when first read.

    Segments in reading order: a pair of equal chunks (old ``k``, new ``k``), or the
    rows of a stretch that differs. :meth:`runs` tells equal rows from changes without
    making any.
    """

    def __init__(
        self, old: _SideView, new: _SideView, segments: list[tuple[int, int] | tuple[DiffRow, ...]]
    ) -> None:
        self._old, self._new = old, new
        self._segments = segments
        self._equal = [len(seg) == 2 and isinstance(seg[0], int) for seg in segments]
        self._starts = [0]
        for seg, equal in zip(segments, self._equal, strict=True):
            size = old.facts[seg[0]].count if equal else len(seg)  # type: ignore[index]
            self._starts.append(self._starts[-1] + size)

    def _rows(self, s: int) -> tuple[DiffRow, ...]:
        seg = self._segments[s]
        if not self._equal[s]:
            return seg  # type: ignore[return-value]
        k, j = seg
        assert isinstance(k, int) and isinstance(j, int)
        old, new = self._old, self._new
        o, n = old.starts[k], new.starts[j]
        equal = RowKind.EQUAL
        rows = tuple(
            DiffRow(equal, a, b, o + i, n + i)
            for i, (a, b) in enumerate(zip(old.display(k), new.display(j), strict=True))
        )
        self._segments[s] = rows
        self._equal[s] = False  # made: from now on read like a stretch (all EQUAL rows)
        return rows

    def __len__(self) -> int:
        return self._starts[-1]

    @overload
    def __getitem__(self, index: int) -> DiffRow: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[DiffRow]: ...
    def __getitem__(self, index: int | slice) -> DiffRow | Sequence[DiffRow]:
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step != 1:
                return tuple(self[i] for i in range(start, stop, step))
            out: list[DiffRow] = []
            s = bisect_right(self._starts, start) - 1
            while start < stop:
                rows = self._rows(s)
                base = self._starts[s]
                take = rows[start - base : stop - base]
                out.extend(take)
                start += len(take)
                s += 1
            return tuple(out)
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        s = bisect_right(self._starts, index) - 1
        return self._rows(s)[index - self._starts[s]]

    def __iter__(self) -> Iterator[DiffRow]:
        for s in range(len(self._segments)):
            yield from self._rows(s)

    def __eq__(self, other: object) -> bool:
        """Equal to the same rows as a tuple (what a diff of whole parses holds)."""
        if isinstance(other, LazyRows | tuple):
            return len(self) == len(other) and tuple(self) == tuple(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def runs(self) -> Iterator[tuple[int, int, bool]]:
        """``(start, end, equal)``: maximal runs of equal rows, and each changed row alone."""
        equal_start: int | None = None
        position = 0
        for s, seg in enumerate(self._segments):
            if self._equal[s]:
                if equal_start is None:
                    equal_start = position
                position = self._starts[s + 1]
                continue
            for row in seg:
                assert isinstance(row, DiffRow)
                if row.kind is RowKind.EQUAL:
                    if equal_start is None:
                        equal_start = position
                else:
                    if equal_start is not None:
                        yield equal_start, position, True
                        equal_start = None
                    yield position, position + 1, False
                position += 1
        if equal_start is not None:
            yield equal_start, position, True

    def drop_far_tokens(self, near: int = _KEEP_NEAR) -> None:
        """Drop the block tokens of the unparsed chunks more than ``near`` chunks away from
        a change (tens of MB for a large page, and they slow down every collection): the
        context of a change needs the near ones soon; the others are tokenized again if
        ever read."""
        keep: set[int] = set()
        segments, equal = self._segments, self._equal
        for s in range(len(segments)):
            if equal[s]:
                continue
            for t in range(max(0, s - near), min(len(segments), s + near + 1)):
                if equal[t]:
                    k, j = segments[t]
                    assert isinstance(k, int) and isinstance(j, int)
                    keep.add(id(self._old.chunks[k].source))
                    keep.add(id(self._new.chunks[j].source))
        for view in (self._old, self._new):
            for chunk in view.chunks:
                source = chunk.source
                if source.items is None and id(source) not in keep:
                    source.tokens = None

    def count_kind(self, kind: RowKind) -> int:
        """How many rows are of ``kind`` (without making the equal ones)."""
        count = 0
        for s, seg in enumerate(self._segments):
            if self._equal[s]:
                count += self._starts[s + 1] - self._starts[s] if kind is RowKind.EQUAL else 0
            else:
                count += sum(1 for row in seg if isinstance(row, DiffRow) and row.kind is kind)
        return count


def _facts(sides: tuple[Side, Side]) -> dict[int, _Facts] | None:
    """Each chunk's facts (by ``id`` of the chunk holding its tokens); ``None`` if a chunk
    holds a part (tab, step…) outside its container: it would join its neighbour."""
    facts: dict[int, _Facts] = {}
    converter = Converter()
    for side in sides:
        for chunk in side.chunks:
            source = chunk.source
            if id(source) in facts:
                continue
            plain = _plain_count(source.block_tokens(), converter)
            if plain is not None:
                facts[id(source)] = _Facts(plain[0], 1, plain[1], None)
                continue
            items = chunk.convert(converter)
            if any(isinstance(item, PART_TYPES) for item in items):
                return None
            blocks, _ = flatten_run(finish(items))
            last = next((b.text for b in reversed(blocks) if b.kind is BlockKind.HEADING), None)
            fact = facts[id(source)] = _Facts(len(blocks), len(items), _PARSED, last)
            fact.parsed(blocks)
    return facts


_Unit: TypeAlias = tuple[int, int, int]
"""A chunk's top-level group, or a whole unparsed chunk: (chunk, first, end display block)."""


def _units(view: _SideView, ids: dict[object, int]) -> tuple[list[_Unit], list[int]]:
    """What the alignment compares, with their keys interned: the top-level groups of the
    chunks parsed so far (their display keys), and each other chunk whole (its text: equal
    text, equal blocks)."""
    units: list[_Unit] = []
    keys: list[int] = []
    for k, chunk in enumerate(view.chunks):
        fact = view.facts[k]
        if fact.groups is not None:
            for start, end, key in fact.groups:
                units.append((k, start, end))
                keys.append(ids.setdefault(key, len(ids)))
        elif fact.count:
            units.append((k, 0, fact.count))
            keys.append(ids.setdefault(chunk.key, len(ids)))
    return units, keys


def _parse_touched(view: _SideView, units: list[_Unit], ranges: list[tuple[int, int]]) -> bool:
    """Parse the unparsed chunks of the units in ``ranges``; whether there were any."""
    touched = False
    for u1, u2 in ranges:
        for k, _start, _end in units[u1:u2]:
            fact = view.facts[k]
            if fact.groups is None:
                fact.parsed(flatten_run(finish(view.chunks[k].convert(view.converter)))[0])
                touched = True
    return touched


def _segments(
    old: _SideView, new: _SideView, threshold: float
) -> list[tuple[int, int] | tuple[DiffRow, ...]]:
    """Align the units of both sides (top-level groups, as :func:`diff_blocks` does): the
    chunks in a stretch that differs are parsed and the alignment is run again on their
    groups (a change of formatting alone leaves the groups equal), until none is left."""
    while True:
        ids: dict[object, int] = {}
        old_units, old_keys = _units(old, ids)
        new_units, new_keys = _units(new, ids)
        opcodes = Indel.opcodes(old_keys, new_keys)
        differ = [op for op in opcodes if op.tag != "equal"]
        touched_old = _parse_touched(old, old_units, [(op.src_start, op.src_end) for op in differ])
        touched_new = _parse_touched(
            new, new_units, [(op.dest_start, op.dest_end) for op in differ]
        )
        if not (touched_old or touched_new):
            break
    segments: list[tuple[int, int] | tuple[DiffRow, ...]] = []

    def blocks(view: _SideView, units: list[_Unit]) -> list[DisplayBlock]:
        return [b for k, start, end in units for b in view.display(k)[start:end]]

    def position(view: _SideView, units: list[_Unit], u: int) -> int:
        if u < len(units):
            k, start, _end = units[u]
            return view.starts[k] + start
        return view.starts[-1]

    pending: list[int] | None = None

    def stretch(u1: int, u2: int, v1: int, v2: int) -> None:
        rows = align_stretch(
            blocks(old, old_units[u1:u2]),
            blocks(new, new_units[v1:v2]),
            position(old, old_units, u1),
            position(new, new_units, v1),
            threshold,
        )
        segments.append(tuple(rows))

    for op in opcodes:
        if op.tag != "equal":
            if pending is None:
                pending = [op.src_start, op.src_end, op.dest_start, op.dest_end]
            else:
                pending[1], pending[3] = op.src_end, op.dest_end
            continue
        if pending is not None:
            stretch(*pending)
            pending = None
        for u, v in zip(
            range(op.src_start, op.src_end), range(op.dest_start, op.dest_end), strict=True
        ):
            (k, o1, o2), (j, n1, _n2) = old_units[u], new_units[v]
            if old.facts[k].groups is None and new.facts[j].groups is None:
                segments.append((k, j))  # whole unparsed chunks: rows made when read
                continue
            ob, nb = old.starts[k] + o1, new.starts[j] + n1
            equal = RowKind.EQUAL
            segments.append(
                tuple(
                    DiffRow(equal, a, b, ob + i, nb + i)
                    for i, (a, b) in enumerate(
                        zip(old.display(k)[o1:o2], new.display(j)[n1 : n1 + o2 - o1], strict=True)
                    )
                )
            )
    if pending is not None:
        stretch(*pending)
    return segments


def lazy_diff(old: str, new: str, *, threshold: float = DEFAULT_THRESHOLD) -> BlockDiff | None:
    """The diff of two revisions of a page, parsed lazily (see the module docstring);
    ``None`` if this page cannot be (diff the parsed pages instead)."""
    # Hundreds of thousands of short-lived acyclic objects: see parse() on pausing the GC.
    pause_gc = max(len(old), len(new)) >= _GC_PAUSE_THRESHOLD and gc.isenabled()
    if pause_gc:
        gc.disable()
    try:
        sides = chunked_pair(old, new)
        facts = None if sides is None else _facts(sides)
        if sides is None or facts is None:
            return None
        old_view, new_view = _SideView(sides[0], facts), _SideView(sides[1], facts)
        rows = LazyRows(old_view, new_view, _segments(old_view, new_view, threshold))
        rows.drop_far_tokens()
        return BlockDiff(rows, _Blocks(old_view), _Blocks(new_view))
    finally:
        if pause_gc:
            gc.enable()
