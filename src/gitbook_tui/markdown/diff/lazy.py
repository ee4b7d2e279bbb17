"""A page diff that parses the unchanged blocks only when they are looked at: :func:`lazy_diff`.

Both sides are cut into top-level chunks (:mod:`.chunks`: the change request's side shares
the base's where the text is the same). The alignment is the one :func:`~.align.diff_blocks`
makes — ``rapidfuzz`` Indel over the top-level groups' keys, then display blocks and pairs
inside the stretches that differ — except that a chunk not parsed yet stands for its group
by its source text (equal text, equal blocks). The chunks in a stretch that differs are
parsed and the alignment run again with their real keys (a change of formatting alone
leaves two groups equal), until no new chunk is touched: typically twice, parsing the
changed chunks only.

A fold still needs the number of rows it hides, and every row its position, so each
chunk's number of display blocks is known up front (:mod:`.chunk_view`: read off the
block tokens for the plain kinds, parsed for the others). The rows of an unchanged chunk
are made when first read — the context around a change, an opened fold — from its parse
then (:mod:`.lazy_rows`).

The rows equal those of ``diff_documents(parse(old), parse(new))`` (tests compare rows,
folds, lines and change index on every demo page with random edits, the fixtures and the
1 MB page); pages whose chunks cannot stand alone (a tab, step… part outside its
container; link reference or footnote definitions) are not diffed lazily
(:func:`lazy_diff` returns ``None``).
"""

from __future__ import annotations

from typing import Any, TypeAlias

from rapidfuzz.distance import Indel

from ..blocks import finish
from .align import DEFAULT_THRESHOLD, BlockDiff, DiffRow, RowKind, align_stretch
from .blocks import DisplayBlock, flatten_run
from .chunk_view import SideView, chunk_facts
from .chunks import Side, chunked_pair, paused_gc
from .lazy_rows import LazyBlocks, LazyRows

__all__ = ["LazyRows", "lazy_diff"]


_Unit: TypeAlias = tuple[int, int, int]
"""A chunk's top-level group, or a whole unparsed chunk: (chunk, first, end display block)."""


class _ReadDifferently(Exception):
    """Chunks taken as equal turn out to give different blocks."""


class _Ids:
    """Interned keys: a chunk's source text and a top-level group's display keys share one
    id when a parsed chunk shows they go together (union-find), so a chunk not parsed yet
    matches a parsed one of the same text."""

    def __init__(self) -> None:
        self.by_text: dict[str, int] = {}
        self.by_group: dict[object, int] = {}
        self.parent: list[int] = []

    def _id(self, table: dict[Any, int], key: object) -> int:
        found = table.get(key)
        if found is None:
            found = table[key] = len(self.parent)
            self.parent.append(found)
        return found

    def text(self, text: str) -> int:
        return self._id(self.by_text, text)

    def group(self, key: object) -> int:
        return self._id(self.by_group, key)

    def same(self, a: int, b: int) -> int:
        a, b = self.find(a), self.find(b)
        if a != b:
            self.parent[b] = a
        return a

    def find(self, i: int) -> int:
        parent = self.parent
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i


def _units(view: SideView, ids: _Ids) -> tuple[list[_Unit], list[int]]:
    """What the alignment compares, with their ids (see :class:`_Ids`, resolved with
    ``find`` once both sides are in): the top-level groups of the chunks parsed so far
    (their display keys; one group: its text too), and each other chunk whole (its text:
    equal text, equal blocks)."""
    units: list[_Unit] = []
    keys: list[int] = []
    for k, chunk in enumerate(view.chunks):
        fact = view.facts[k]
        if fact.groups is not None:
            if len(fact.groups) == 1:
                start, end, key = fact.groups[0]
                units.append((k, start, end))
                keys.append(ids.same(ids.text(chunk.key), ids.group(key)))
                continue
            for start, end, key in fact.groups:
                units.append((k, start, end))
                keys.append(ids.group(key))
        elif fact.count:
            units.append((k, 0, fact.count))
            keys.append(ids.text(chunk.key))
    return units, keys


def _parse(view: SideView, k: int) -> bool:
    """Parse chunk ``k`` for its groups; whether it was not parsed yet."""
    fact = view.facts[k]
    if fact.groups is not None:
        return False
    fact.parsed(flatten_run(finish(view.chunks[k].convert(view.converter)))[0])
    return True


def _parse_like_many(views: tuple[SideView, SideView]) -> bool:
    """Parse the chunks whose text is that of a parsed chunk of other than one group (whole,
    they would stand for one): whether there were any."""
    texts = {
        chunk.key
        for view in views
        for chunk, fact in zip(view.chunks, view.facts, strict=True)
        if fact.groups is not None and len(fact.groups) != 1
    }
    touched = False
    for view in views:
        for k, chunk in enumerate(view.chunks):
            if chunk.key in texts:
                touched |= _parse(view, k)
    return touched


def _parse_touched(view: SideView, units: list[_Unit], ranges: list[tuple[int, int]]) -> bool:
    """Parse the unparsed chunks of the units in ``ranges``; whether there were any."""
    touched = False
    for u1, u2 in ranges:
        for k, _start, _end in units[u1:u2]:
            touched |= _parse(view, k)
    return touched


def _segments(
    old: SideView, new: SideView, threshold: float
) -> list[tuple[int, int] | tuple[DiffRow, ...]]:
    """Align the units of both sides (top-level groups, as :func:`diff_blocks` does): the
    chunks in a stretch that differs are parsed and the alignment is run again on their
    groups (a change of formatting alone leaves the groups equal), until none is left."""
    while True:
        if _parse_like_many((old, new)):
            continue
        ids = _Ids()
        old_units, old_ids = _units(old, ids)
        new_units, new_ids = _units(new, ids)
        old_keys = [ids.find(i) for i in old_ids]
        new_keys = [ids.find(i) for i in new_ids]
        opcodes = Indel.opcodes(old_keys, new_keys)
        differ = [op for op in opcodes if op.tag != "equal"]
        touched_old = _parse_touched(old, old_units, [(op.src_start, op.src_end) for op in differ])
        touched_new = _parse_touched(
            new, new_units, [(op.dest_start, op.dest_end) for op in differ]
        )
        if not (touched_old or touched_new):
            break
    segments: list[tuple[int, int] | tuple[DiffRow, ...]] = []

    def blocks(view: SideView, units: list[_Unit]) -> list[DisplayBlock]:
        return [b for k, start, end in units for b in view.display(k)[start:end]]

    def position(view: SideView, units: list[_Unit], u: int) -> int:
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
            pairs = list(zip(old.display(k)[o1:o2], new.display(j)[n1:_n2], strict=True))
            if any(a.key != b.key for a, b in pairs):
                raise _ReadDifferently  # equal ids for blocks that differ: see lazy_diff
            equal = RowKind.EQUAL
            segments.append(
                tuple(DiffRow(equal, a, b, ob + i, nb + i) for i, (a, b) in enumerate(pairs))
            )
    if pending is not None:
        stretch(*pending)
    return segments


def lazy_diff(
    old: str, new: str, *, threshold: float = DEFAULT_THRESHOLD, base: Side | None = None
) -> BlockDiff | None:
    """The diff of two revisions of a page, parsed lazily (see the module docstring;
    ``base``: :func:`~.chunks.cut_base` of ``old`` if made already); ``None`` if this page
    cannot be (diff the parsed pages instead)."""
    sides = chunked_pair(old, new, base)
    if sides is None:
        return None
    with paused_gc(old, new):
        facts = chunk_facts(sides)
        if facts is None:
            return None
        old_view, new_view = SideView(sides[0], facts), SideView(sides[1], facts)
        try:
            segments = _segments(old_view, new_view, threshold)
        except (_ReadDifferently, ValueError):
            # The same text read differently on the two sides (a context a chunk's key
            # does not capture): never seen in the tests, but then parse the pages whole.
            return None
        rows = LazyRows(old_view, new_view, segments)
        rows.drop_far_tokens()
        return BlockDiff(rows, LazyBlocks(old_view), LazyBlocks(new_view))
