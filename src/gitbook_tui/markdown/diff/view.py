"""What a diff pane shows: folded equal runs, inline and split line sequences, change index."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, TypeAlias

from .align import DiffRow, RowKind
from .blocks import DisplayBlock
from .words import WordSpan

__all__ = [
    "ADDED_MARKER",
    "CHANGED_MARKER",
    "CONTEXT_STEPS",
    "DEFAULT_CONTEXT",
    "EQUAL_MARKER",
    "REMOVED_MARKER",
    "ChangeIndex",
    "Fold",
    "InlineLine",
    "SplitLine",
    "ViewRow",
    "fold",
    "inline_lines",
    "narrower",
    "split_lines",
    "wider",
]

ADDED_MARKER = "+"
REMOVED_MARKER = "−"  # U+2212, one cell wide like "+"
CHANGED_MARKER = "±"
"""Marks a merged inline line (deletions and insertions on one line)."""
EQUAL_MARKER = " "
"""Markers for the gutter: colour is never the only signal of a change."""


@dataclass(frozen=True, slots=True)
class Fold:
    """A run of equal rows hidden from view: ``rows[start:start + count]`` of the diff."""

    start: int
    count: int
    section: str = ""
    """Section (nearest heading) of the first hidden block, to say where the run is."""

    @property
    def is_change(self) -> bool:
        return False


ViewRow: TypeAlias = DiffRow | Fold

CONTEXT_STEPS: tuple[int, ...] = (0, 1, 3, 5, 10, 25)
"""Context sizes that ``{``/``}`` step through (``None`` after the last: no folding)."""
DEFAULT_CONTEXT = 3


def wider(context: int | None) -> int | None:
    """The next context size up (``}``); ``None`` (everything shown) after the largest."""
    if context is None:
        return None
    return next((step for step in CONTEXT_STEPS if step > context), None)


def narrower(context: int | None) -> int:
    """The next context size down (``{``), at least 0."""
    if context is None:
        return CONTEXT_STEPS[-1]
    return next((step for step in reversed(CONTEXT_STEPS) if step < context), 0)


def fold(
    rows: Sequence[DiffRow],
    context: int | None = DEFAULT_CONTEXT,
    *,
    expanded: Collection[int] = (),
) -> tuple[ViewRow, ...]:
    """The rows to show: changes, ``context`` equal rows either side of each, and a
    :class:`Fold` for each longer run of equal rows (``None`` shows everything).

    A run that would hide a single row is shown instead (a fold takes a line too), and
    so is a run of equal rows holding any row index in ``expanded`` (the folds the reader
    opened, by their :attr:`Fold.start` or any row inside: a fold stays open when the
    context changes).
    """
    if context is None:
        return tuple(rows)
    context = max(0, context)
    opened = sorted(expanded)
    shown: list[ViewRow] = []
    n = len(rows)
    for i, j, equal in _runs(rows):
        if not equal:
            shown.extend(rows[i:j])
            continue
        # Equal run rows[i:j]: keep `context` after the change before it, before the next.
        keep_head = context if i > 0 else 0
        keep_tail = context if j < n else 0
        hidden_start, hidden_end = i + keep_head, j - keep_tail
        k = bisect_left(opened, i)
        if hidden_end - hidden_start <= 1 or (k < len(opened) and opened[k] < j):
            shown.extend(rows[i:j])
        else:
            shown.extend(rows[i:hidden_start])
            shown.append(
                Fold(hidden_start, hidden_end - hidden_start, rows[hidden_start].block.section)
            )
            shown.extend(rows[hidden_end:j])
    return tuple(shown)


def _runs(rows: Sequence[DiffRow]) -> Iterator[tuple[int, int, bool]]:
    """``(start, end, equal)``: maximal runs of equal rows, and each other row alone (lazy
    rows tell them apart without being made: :meth:`.lazy.LazyRows.runs`)."""
    runs = getattr(rows, "runs", None)
    if runs is not None:
        yield from runs()
        return
    n = len(rows)
    i = 0
    while i < n:
        if rows[i].kind is not RowKind.EQUAL:
            yield i, i + 1, False
            i += 1
            continue
        j = i
        while j < n and rows[j].kind is RowKind.EQUAL:
            j += 1
        yield i, j, True
        i = j


@dataclass(frozen=True, slots=True)
class InlineLine:
    """One row of the inline (one column) view."""

    marker: str
    """:data:`ADDED_MARKER`, :data:`REMOVED_MARKER`, :data:`CHANGED_MARKER` or :data:`EQUAL_MARKER`."""
    side: Literal["old", "new", "both"]
    """Which page the block is from ("both" for equal and merged changed rows)."""
    block: DisplayBlock | None
    """The block to show; ``None`` for a fold."""
    row: ViewRow
    view_index: int
    """Position of :attr:`row` in the folded rows this line was made from."""

    @property
    def is_change(self) -> bool:
        return self.row.is_change

    @property
    def fold(self) -> Fold | None:
        return self.row if isinstance(self.row, Fold) else None

    def spans(self) -> tuple[WordSpan, ...] | None:
        """Word highlights for a line of a changed pair (lazy, memoized); else ``None``."""
        if not isinstance(self.row, DiffRow):
            return None
        words = self.row.words()
        if words is None:
            return None
        if self.side == "old":
            return words.old
        if self.side == "new":
            return words.new
        return words.merged


def inline_lines(rows: Iterable[ViewRow], *, merge_changed: bool = False) -> tuple[InlineLine, ...]:
    """Rows as one column: a changed pair gives a − line then a + line (or one ± line with
    deletions and insertions interleaved if ``merge_changed``)."""
    lines: list[InlineLine] = []
    for index, row in enumerate(rows):
        if isinstance(row, Fold):
            lines.append(InlineLine(EQUAL_MARKER, "both", None, row, index))
        elif row.kind is RowKind.EQUAL:
            lines.append(InlineLine(EQUAL_MARKER, "both", row.new, row, index))
        elif row.kind is RowKind.ADDED:
            lines.append(InlineLine(ADDED_MARKER, "new", row.new, row, index))
        elif row.kind is RowKind.REMOVED:
            lines.append(InlineLine(REMOVED_MARKER, "old", row.old, row, index))
        elif merge_changed:
            lines.append(InlineLine(CHANGED_MARKER, "both", row.new, row, index))
        else:
            lines.append(InlineLine(REMOVED_MARKER, "old", row.old, row, index))
            lines.append(InlineLine(ADDED_MARKER, "new", row.new, row, index))
    return tuple(lines)


@dataclass(frozen=True, slots=True)
class SplitLine:
    """One row of the split (old | new) view; a ``None`` side is filler (draw it hatched)."""

    left: DisplayBlock | None
    right: DisplayBlock | None
    left_row: ViewRow | None
    """The row whose old block is on the left (``None`` for filler)."""
    right_row: ViewRow | None
    """The row whose new block is on the right (``None`` for filler); the same row as
    :attr:`left_row` for equal and changed rows and folds."""
    view_index: int
    """Position in the folded rows of the first row shown on this line."""

    @property
    def fold(self) -> Fold | None:
        row = self.left_row
        return row if isinstance(row, Fold) else None

    @property
    def is_change(self) -> bool:
        return any(row is not None and row.is_change for row in (self.left_row, self.right_row))

    @property
    def left_marker(self) -> str:
        return _marker(self.left_row, REMOVED_MARKER)

    @property
    def right_marker(self) -> str:
        return _marker(self.right_row, ADDED_MARKER)

    def left_spans(self) -> tuple[WordSpan, ...] | None:
        """Word highlights of the old side of a changed pair (lazy, memoized)."""
        row = self.left_row
        words = row.words() if isinstance(row, DiffRow) else None
        return None if words is None else words.old

    def right_spans(self) -> tuple[WordSpan, ...] | None:
        """Word highlights of the new side of a changed pair (lazy, memoized)."""
        row = self.right_row
        words = row.words() if isinstance(row, DiffRow) else None
        return None if words is None else words.new


def _marker(row: ViewRow | None, changed: str) -> str:
    if row is None or not row.is_change:
        return EQUAL_MARKER
    return changed


def split_lines(rows: Sequence[ViewRow], *, side_by_side: bool = True) -> tuple[SplitLine, ...]:
    """Rows as two aligned columns, equal and changed rows on one line.

    One-sided rows get filler on the other side. With ``side_by_side`` (the default) a
    stretch of removals and the additions right after it share lines, removals on the
    left and additions on the right, as a code review tool shows a rewritten hunk; the
    rest of the longer side gets filler.
    """
    lines: list[SplitLine] = []
    n = len(rows)
    i = 0
    while i < n:
        row = rows[i]
        if isinstance(row, Fold) or row.kind in (RowKind.EQUAL, RowKind.CHANGED):
            old = None if isinstance(row, Fold) else row.old
            new = None if isinstance(row, Fold) else row.new
            lines.append(SplitLine(old, new, row, row, i))
            i += 1
            continue
        removed_start = i
        while i < n and _is(rows[i], RowKind.REMOVED):
            i += 1
        removed = range(removed_start, i)
        added_start = i
        if side_by_side or not removed:
            while i < n and _is(rows[i], RowKind.ADDED):
                i += 1
        added = range(added_start, i)
        if not side_by_side:
            for k in (*removed, *added):
                r = rows[k]
                assert isinstance(r, DiffRow)
                lines.append(SplitLine(r.old, r.new, r if r.old else None, r if r.new else None, k))
            continue
        for offset in range(max(len(removed), len(added))):
            left = rows[removed[offset]] if offset < len(removed) else None
            right = rows[added[offset]] if offset < len(added) else None
            assert left is None or isinstance(left, DiffRow)
            assert right is None or isinstance(right, DiffRow)
            first = removed[offset] if left is not None else added[offset]
            lines.append(
                SplitLine(
                    left.old if left else None, right.new if right else None, left, right, first
                )
            )
    return tuple(lines)


def _is(row: ViewRow, kind: RowKind) -> bool:
    return isinstance(row, DiffRow) and row.kind is kind


class _Line(Protocol):
    @property
    def is_change(self) -> bool: ...


class ChangeIndex:
    """Where the changes are in a displayed sequence, for ``n``/``N``: each position at which
    a stretch of changes starts (or every changed position with ``hunks=False``)."""

    __slots__ = ("positions",)

    def __init__(self, positions: Iterable[int]) -> None:
        self.positions: tuple[int, ...] = tuple(sorted(positions))

    @classmethod
    def of(cls, lines: Sequence[_Line], *, hunks: bool = True) -> ChangeIndex:
        """Index ``lines`` (view rows, inline or split lines — anything with ``is_change``)."""
        positions: list[int] = []
        previous = False
        for position, line in enumerate(lines):
            change = line.is_change
            if change and not (hunks and previous):
                positions.append(position)
            previous = change
        return cls(positions)

    def __len__(self) -> int:
        return len(self.positions)

    def __bool__(self) -> bool:
        return bool(self.positions)

    def next(self, position: int) -> int | None:
        """The first change after ``position`` (``None`` past the last one)."""
        k = bisect_right(self.positions, position)
        return self.positions[k] if k < len(self.positions) else None

    def previous(self, position: int) -> int | None:
        """The last change before ``position`` (``None`` before the first one)."""
        k = bisect_left(self.positions, position)
        return self.positions[k - 1] if k > 0 else None

    def ordinal(self, position: int) -> int:
        """How many changes start at or before ``position`` ("change 3 of 12")."""
        return bisect_right(self.positions, position)
