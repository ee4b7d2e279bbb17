"""Where a line of one diff's view is in another diff's of the same pages: by the source
blocks it shows (:func:`same_line`), not by its position.

A large page's first part and its whole diff (:mod:`.staged`) number the display blocks of
each side alike (the part is the page's beginning), but on a page of much repeated text
they may pair and order them differently: the line showing a block is then found in the
whole diff by that block's position on its side.
"""

from __future__ import annotations

from collections.abc import Sequence

from .align import DiffRow
from .view import ChangeIndex, Fold, InlineLine, SplitLine, ViewRow

__all__ = ["same_change", "same_line", "shown_blocks"]

_NONE = range(0)


def _fold_blocks(line_fold: Fold, rows: Sequence[DiffRow]) -> tuple[range, range]:
    """The blocks a fold hides on each side (equal rows: consecutive on both sides)."""
    first = rows[line_fold.start]
    old = (
        _NONE
        if first.old_index is None
        else range(first.old_index, first.old_index + line_fold.count)
    )
    new = (
        _NONE
        if first.new_index is None
        else range(first.new_index, first.new_index + line_fold.count)
    )
    return old, new


def _one(index: int | None) -> range:
    return _NONE if index is None else range(index, index + 1)


def _row(row: ViewRow | None) -> DiffRow | None:
    return row if isinstance(row, DiffRow) else None


def shown_blocks(line: InlineLine | SplitLine, rows: Sequence[DiffRow]) -> tuple[range, range]:
    """Positions of the old and the new page's display blocks ``line`` shows (a fold: those
    it hides); ``rows``: the diff's rows the line's view was folded from."""
    if line.fold is not None:
        return _fold_blocks(line.fold, rows)
    if isinstance(line, InlineLine):
        row = _row(line.row)
        if row is None:
            return _NONE, _NONE
        old = _one(row.old_index) if line.side in ("old", "both") else _NONE
        new = _one(row.new_index) if line.side in ("new", "both") else _NONE
        return old, new
    left, right = _row(line.left_row), _row(line.right_row)
    return (
        _one(left.old_index) if left is not None and line.left is not None else _NONE,
        _one(right.new_index) if right is not None and line.right is not None else _NONE,
    )


def same_line(
    line: InlineLine | SplitLine,
    rows: Sequence[DiffRow],
    lines: Sequence[InlineLine | SplitLine],
    other_rows: Sequence[DiffRow],
) -> int | None:
    """The index in ``lines`` (a view of ``other_rows``) of the line showing the block that
    ``line`` (a view of ``rows``) shows first: its old side's if it has one, else its new
    side's; ``None`` if no line shows it."""
    old, new = shown_blocks(line, rows)
    for side, blocks in ((0, old), (1, new)):
        if not blocks:
            continue
        block = blocks[0]
        for index, other in enumerate(lines):
            if block in shown_blocks(other, other_rows)[side]:
                return index
    return None


def same_change(
    line: int | None, ordinal: int, lines: Sequence[InlineLine | SplitLine], changes: ChangeIndex
) -> int | None:
    """The change of ``lines`` (indexed by ``changes``) that ``line`` (found by
    :func:`same_line`) is part of; else the change of the same ``ordinal`` (1-based, 0:
    none) if the view has changes."""
    if line is not None and lines[line].is_change:
        return changes.positions[changes.ordinal(line) - 1]
    if ordinal and changes:
        return changes.positions[min(ordinal, len(changes)) - 1]
    return None
