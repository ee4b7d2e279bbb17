"""A large page's diff in two stages: the rows of its first changes at once, then the whole.

The whole diff of a 1 MB page takes about a second (:func:`~.lazy.lazy_diff`: both sides
tokenized and cut, every chunk counted, everything aligned), yet its first screen shows
only the first few changes. :func:`stage_diff` finds them in the text first: the texts'
common prefix (compared a slice at a time, at C speed) ends at the first change; a line of
the base found again in the other side a little further on is where they agree again, and
so on for the next changes close to the first (up to :data:`FIRST_CHANGES`). Both sides
are cut at the same blank line of the stretch they share after the last, and the two parts
diffed as pages of their own: their rows, up to the last change and the context after it,
are what the whole page's diff shows first (the part is the page's beginning, and what
follows the cut starts the same on both sides). The fold before the first change counts
what it hides exactly.

The whole page's diff is made next (:meth:`StagedDiff.rest`, in a worker, once the first
screen is painted); it tells whether it shows the part's rows first (:func:`continues`).
It may not: on a page of much repeated text the alignment of the whole can pair a change's
blocks in another order than the part's (equal-length alignments); a fence or a tag closed
only past the cut reads differently too. The pane then finds the reader's lines in the
whole diff by the blocks of the page they show (:func:`~.place.same_line`), and else keeps
the same change (by its number).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from typing import overload

from .align import DEFAULT_THRESHOLD, BlockDiff, DiffRow, RowKind, diff_documents
from .blocks import DisplayBlock
from .chunks import Side, parse_pair, paused_gc
from .lazy import lazy_diff
from .view import DEFAULT_CONTEXT, Fold, ViewRow, fold

__all__ = [
    "FIRST_CHANGES",
    "STAGED_FROM_CHARS",
    "RowsHead",
    "StagedDiff",
    "continues",
    "diff_markdown",
    "diff_to_show",
    "first_part",
    "stage_diff",
]

_log = logging.getLogger(__name__)

STAGED_FROM_CHARS = 200_000
"""Pages this long (the base side) are diffed in two stages; shorter ones whole at once (a
whole diff takes about 0.8 ms a KB: below this, the first screen is in time without)."""
FIRST_CHANGES = 5
"""Changes the first part holds: a screenful (each takes about eight lines, folded)."""
_MOST_OF_THE_PAGE = 0.5
"""A first part longer than this share of the page is not worth it: diff the whole."""
_SYNC_CHARS = 256
"""Text the two sides must share where they are taken to agree again after a change."""
_SKIPS = (64, 1024, 8192)
"""How far past a change to look for where the sides agree again (longer changes: further)."""
_MORE_CHANGES_WITHIN = 96_000
"""Changes past the first one are taken into the first part while they start this close to
it (changes far apart fill a screen with folds: the rest comes soon enough)."""
_CUT_MARGIN = 512
"""Shared text kept on both sides of the cut (the blocks around it read the same)."""


def common_prefix(a: str, i: int, b: str, j: int) -> int:
    """The length of the common prefix of ``a[i:]`` and ``b[j:]`` (slices compared whole:
    an exponential then a binary search)."""
    most = min(len(a) - i, len(b) - j)
    same, step = 0, 64
    while same + step <= most and a[i + same : i + same + step] == b[j + same : j + same + step]:
        same += step
        step *= 2
    high = min(most, same + step)
    while same < high:  # a[i:i+same] == b[j:j+same]; the first difference is before high
        middle = (same + high + 1) // 2
        if a[i + same : i + middle] == b[j + same : j + middle]:
            same = middle
        else:
            high = middle - 1
    return same


def _agree_again(old: str, new: str, o: int, n: int) -> tuple[int, int] | None:
    """A line start in each side past the change at ``o``/``n`` from which the two share
    :data:`_SYNC_CHARS` of text; ``None`` if not found near (a long change)."""
    for skip in _SKIPS:
        probe = old.find("\n", o + skip) + 1
        if probe <= 0 or probe + _SYNC_CHARS > len(old):
            return None
        found = new.find(old[probe : probe + _SYNC_CHARS], n, n + (probe - o) + 4 * skip)
        if found >= 0:
            return probe, found
    return None


def _cut(old: str, new: str, changes: int) -> tuple[int, int] | None:
    """Where to cut both sides after their first changes (up to ``changes``, those close to
    the first): offsets of the same blank line in a stretch both share after the last;
    ``None`` if there is none (diff the whole)."""
    o = n = 0
    first: int | None = None
    cut: tuple[int, int] | None = None
    for _ in range(changes + 1):
        same = common_prefix(old, o, new, n)
        if first is not None:  # o, n: where the sides agree again after a change
            blank = old.find("\n\n", o + min(same // 2, 2 * _CUT_MARGIN), o + same - _CUT_MARGIN)
            if blank >= 0:
                cut = blank + 2, n + (blank + 2 - o)
        if o + same >= len(old) or n + same >= len(new):
            break  # no change past here
        if first is None:
            first = o + same
        elif o + same > first + _MORE_CHANGES_WITHIN and cut is not None:
            break
        again = _agree_again(old, new, o + same, n + same)
        if again is None:
            break
        o, n = again
    return cut


class RowsHead(Sequence[DiffRow]):
    """The first ``end`` rows of a (lazy) diff's rows, still lazy."""

    def __init__(self, rows: Sequence[DiffRow], end: int) -> None:
        self._rows, self._end = rows, end

    def __len__(self) -> int:
        return self._end

    @overload
    def __getitem__(self, index: int) -> DiffRow: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[DiffRow]: ...
    def __getitem__(self, index: int | slice) -> DiffRow | Sequence[DiffRow]:
        if isinstance(index, slice):
            return self._rows[slice(*index.indices(self._end))]
        if index < 0:
            index += self._end
        if not 0 <= index < self._end:
            raise IndexError(index)
        return self._rows[index]

    def __iter__(self) -> Iterator[DiffRow]:
        for index in range(self._end):
            yield self._rows[index]

    def runs(self) -> Iterator[tuple[int, int, bool]]:
        """As :meth:`.lazy_rows.LazyRows.runs`, up to :attr:`_end`."""
        for start, end, equal in _runs(self._rows):
            if start >= self._end:
                return
            yield start, min(end, self._end), equal

    def count_kind(self, kind: RowKind) -> int:
        count = 0
        for start, end, equal in self.runs():
            if equal:
                count += end - start if kind is RowKind.EQUAL else 0
            else:
                count += sum(1 for row in self._rows[start:end] if row.kind is kind)
        return count


def _plain_runs(rows: Sequence[DiffRow]) -> Iterator[tuple[int, int, bool]]:
    start = 0
    for index, row in enumerate(rows):
        if row.kind is not RowKind.EQUAL:
            if start < index:
                yield start, index, True
            yield index, index + 1, False
            start = index + 1
    if start < len(rows):
        yield start, len(rows), True


def diff_markdown(
    old: str | None,
    new: str | None,
    *,
    threshold: float = DEFAULT_THRESHOLD,
    base: Side | None = None,
) -> BlockDiff:
    """Parse and diff two revisions of a page's markdown (``None`` where the page is missing).

    The diff is lazy (:func:`~.lazy.lazy_diff`: what the two sides share is parsed when first
    read) where it can be, else both sides are parsed (:func:`~.chunks.parse_pair`: what they share,
    once). ``base``: :func:`~.chunks.cut_base` of ``old``, if made already (while ``new`` was on its
    way). For a 1 MB page this still takes half a second: call it from a worker.
    """
    if old is not None and new is not None:
        try:
            diff = lazy_diff(old, new, threshold=threshold, base=base)
        except Exception:  # a bug: the whole parses below have their own fallback
            _log.exception("lazy diff failed; diffing the whole parses")
            diff = None
        if diff is not None:
            return diff
    old_doc, new_doc = parse_pair(old, new)
    return diff_documents(old_doc, new_doc, threshold=threshold)


def diff_to_show(old: str | None, new: str | None, *, base: Side | None = None) -> BlockDiff:
    """:func:`diff_markdown`, with the rows a diff pane's first screen folds made (the
    rows around each change: parsed now, in the worker this runs in, not on the UI thread
    when first folded). What the review pane and the history view both show."""
    diff = diff_markdown(old, new, base=base)
    fold(diff.rows, DEFAULT_CONTEXT)
    return diff


def first_part(old: str, new: str) -> BlockDiff | None:
    """The first rows of the diff of ``old`` and ``new`` (their first :data:`FIRST_CHANGES`
    changes and the context after the last), from the two pages' first parts alone; ``None``
    where the page is short, its first part most of it, or not diffed lazily."""
    if len(old) < STAGED_FROM_CHARS:
        return None
    cut = _cut(old, new, FIRST_CHANGES)
    if cut is None or cut[0] > len(old) * _MOST_OF_THE_PAGE:
        return None
    try:
        part = lazy_diff(old[: cut[0]], new[: cut[1]])
    except Exception:  # a bug: the whole page's diff has its own fallback
        _log.exception("diff of the first part failed; diffing the whole page")
        return None
    if part is None:
        return None
    last = max((start for start, _end, equal in _runs(part.rows) if not equal), default=None)
    if last is None:
        return None
    end = min(len(part.rows), last + 1 + DEFAULT_CONTEXT)
    head = RowsHead(part.rows, end)
    fold(head, DEFAULT_CONTEXT)  # the rows around each change made here, in the worker
    return BlockDiff(head, part.old_blocks, part.new_blocks)


def _runs(rows: Sequence[DiffRow]) -> Iterator[tuple[int, int, bool]]:
    runs = getattr(rows, "runs", None)
    return runs() if runs is not None else _plain_runs(rows)


def _fields(block: DisplayBlock | None) -> tuple[object, ...] | None:
    """What a block shows (its equality compares only its content key)."""
    if block is None:
        return None
    return (block.key, block.path, block.depth, block.section, block.top, block.part)


def _shown(row: ViewRow) -> tuple[object, ...]:
    if isinstance(row, Fold):
        return (row,)
    return (row, _fields(row.old), _fields(row.new))


def continues(first: BlockDiff, whole: BlockDiff) -> bool:
    """Whether ``whole`` shows ``first``'s rows first (folded as a pane first shows them):
    then the pane keeps the reader's place when the whole page's diff replaces the part."""
    shown, rest = fold(first.rows, DEFAULT_CONTEXT), fold(whole.rows, DEFAULT_CONTEXT)
    if len(rest) < len(shown):
        return False
    return all(_shown(a) == _shown(b) for a, b in zip(shown, rest, strict=False))


class StagedDiff:
    """A page's diff to show: :attr:`first` at once, and, where it holds the page's first
    part only (:attr:`partial`), the whole page's from :meth:`rest` (run it in a worker)."""

    def __init__(self, first: BlockDiff, rest: tuple[str, str, Side | None] | None = None) -> None:
        self.first = first
        self._rest = rest

    @property
    def partial(self) -> bool:
        return self._rest is not None

    def rest(self) -> tuple[BlockDiff, bool]:
        """The whole page's diff (its first screen's rows made), and whether it
        :func:`continues` :attr:`first`. Call it from a worker: a second for a 1 MB page."""
        if self._rest is None:
            return self.first, True
        old, new, base = self._rest
        with paused_gc(old, new):  # the rows around the changes too (parsed when folded)
            whole = diff_to_show(old, new, base=base)
            return whole, continues(self.first, whole)


def stage_diff(old: str | None, new: str | None, *, base: Side | None = None) -> StagedDiff:
    """The diff of two sides' markdown to show, in two stages where the page is large (see
    the module docstring), else whole. ``base``: :func:`~.chunks.cut_base` of ``old``, if
    made already. Call it from a worker."""
    if old is not None and new is not None:
        first = first_part(old, new)
        if first is not None:
            return StagedDiff(first, (old, new, base))
    return StagedDiff(diff_to_show(old, new, base=base))
