"""Align two pages' display blocks (rapidfuzz Indel) and pair similar blocks as changed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import pairwise

from rapidfuzz import fuzz
from rapidfuzz.distance import Indel

from ..model import Document, Table, plain_text
from .blocks import BlockKind, DisplayBlock, flatten
from .words import WordDiff, word_diff

__all__ = [
    "DEFAULT_THRESHOLD",
    "BlockDiff",
    "DiffRow",
    "RowKind",
    "align_stretch",
    "diff_blocks",
    "diff_documents",
    "interned_keys",
    "pair_run",
    "similarity",
]

DEFAULT_THRESHOLD = 60.0
"""Blocks of one kind at least this similar (``fuzz.ratio``, 0–100) pair as "changed"."""

_DP_LIMIT = 20_000
"""Replace runs with at most this many (old × new) candidate cells are paired optimally
(a small in-order DP); larger runs greedily, each old block taking the most similar
unpaired new block ahead within :data:`_GREEDY_WINDOW`."""
_GREEDY_WINDOW = 64


class RowKind(StrEnum):
    EQUAL = "equal"
    ADDED = "added"
    REMOVED = "removed"
    CHANGED = "changed"


@dataclass(frozen=True, slots=True)
class DiffRow:
    """One aligned row: a block on both sides (equal, changed), or on one side only."""

    kind: RowKind
    old: DisplayBlock | None
    new: DisplayBlock | None
    old_index: int | None
    """Position of :attr:`old` among the old page's display blocks."""
    new_index: int | None
    score: float = 100.0
    """``fuzz.ratio`` of the pair's texts for a CHANGED row (100 for EQUAL, 0 one-sided);
    below the threshold for table rows paired by their first cell (see :func:`similarity`)."""

    @property
    def is_change(self) -> bool:
        return self.kind is not RowKind.EQUAL

    @property
    def block(self) -> DisplayBlock:
        """The block to show for the row: the new one, or the old one if it was removed."""
        block = self.new if self.new is not None else self.old
        assert block is not None
        return block

    def words(self) -> WordDiff | None:
        """Word-level diff of a CHANGED row's texts (computed on first use, memoized)."""
        if self.kind is not RowKind.CHANGED or self.old is None or self.new is None:
            return None
        return word_diff(self.old.text, self.new.text)

    @property
    def variant_changed(self) -> bool:
        """A CHANGED pair whose variant differs (heading level, language, hint style…)."""
        return (
            self.old is not None and self.new is not None and self.old.variant != self.new.variant
        )


@dataclass(frozen=True, slots=True)
class BlockDiff:
    """The aligned rows of two pages, in reading order, and their tallies.

    ``rows`` and the block sequences may be lazy (:mod:`.lazy`: rows of unchanged blocks
    made when first read); such rows count their kinds without being made."""

    rows: Sequence[DiffRow]
    old_blocks: Sequence[DisplayBlock] = field(repr=False)
    new_blocks: Sequence[DisplayBlock] = field(repr=False)

    def _count(self, kind: RowKind) -> int:
        counter = getattr(self.rows, "count_kind", None)
        if counter is not None:
            return int(counter(kind))
        return sum(1 for row in self.rows if row.kind is kind)

    @property
    def added(self) -> int:
        return self._count(RowKind.ADDED)

    @property
    def removed(self) -> int:
        return self._count(RowKind.REMOVED)

    @property
    def changed(self) -> int:
        return self._count(RowKind.CHANGED)

    @property
    def identical(self) -> bool:
        return self.added + self.removed + self.changed == 0


def interned_keys(
    old: Sequence[DisplayBlock], new: Sequence[DisplayBlock]
) -> tuple[list[int], list[int]]:
    """Each block's equality key as a small int, equal ints for equal keys (no collisions)."""
    ids: dict[tuple[str, str, str, str], int] = {}
    old_keys = [ids.setdefault(block.key, len(ids)) for block in old]
    new_keys = [ids.setdefault(block.key, len(ids)) for block in new]
    return old_keys, new_keys


def _group_bounds(blocks: Sequence[DisplayBlock]) -> list[int]:
    """Start of each run of blocks from one top-level block, then the end."""
    bounds = [0]
    top = blocks[0].top if blocks else 0
    for index, block in enumerate(blocks):
        if block.top != top:
            bounds.append(index)
            top = block.top
    if blocks:
        bounds.append(len(blocks))
    return bounds


def _group_keys(keys: list[int], bounds: list[int], ids: dict[tuple[int, ...], int]) -> list[int]:
    return [ids.setdefault(tuple(keys[a:b]), len(ids)) for a, b in pairwise(bounds)]


def _first_cell(block: DisplayBlock) -> tuple[int, str] | None:
    source, part = block.source, block.part
    if block.kind is not BlockKind.TABLE_ROW or not isinstance(source, Table) or part is None:
        return None
    cells = source.rows[part]
    return (len(cells), plain_text(cells[0])) if cells else None


def similarity(a: DisplayBlock, b: DisplayBlock, threshold: float = DEFAULT_THRESHOLD) -> float:
    """How strongly two blocks of one kind pair: their ``fuzz.ratio`` if at least
    ``threshold``, else 0 — except that two table rows with as many cells and the same
    non-empty first cell (the row's key: "Type | duration" → "Type | rate") always pair,
    at ``threshold``, since short rows rarely reach it however little changed."""
    score = fuzz.ratio(a.text, b.text, score_cutoff=threshold)
    if score >= threshold and score > 0:
        return score
    if a.kind is BlockKind.TABLE_ROW:
        key = _first_cell(a)
        if key is not None and key[1].strip() and key == _first_cell(b):
            return threshold or 1.0
    return 0.0


def _pair_dp(
    old: Sequence[DisplayBlock], new: Sequence[DisplayBlock], threshold: float
) -> list[tuple[int, int, float]]:
    """In-order pairs maximising the total similarity (weighted LCS over the score grid)."""
    n, m = len(old), len(new)
    scores: list[list[float]] = []
    for a in old:
        row = []
        for b in new:
            row.append(similarity(a, b, threshold) if a.kind is b.kind else 0.0)
        scores.append(row)
    total = [[0.0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        here, below, score_row = total[i], total[i + 1], scores[i]
        for j in range(m - 1, -1, -1):
            best = max(below[j], here[j + 1])
            score = score_row[j]
            if score and below[j + 1] + score > best:
                best = below[j + 1] + score
            here[j] = best
    pairs: list[tuple[int, int, float]] = []
    i = j = 0
    while i < n and j < m:
        score = scores[i][j]
        if score and total[i][j] == total[i + 1][j + 1] + score:
            pairs.append((i, j, score))
            i += 1
            j += 1
        elif total[i][j] == total[i + 1][j]:
            i += 1
        else:
            j += 1
    return pairs


def _pair_greedy(
    old: Sequence[DisplayBlock], new: Sequence[DisplayBlock], threshold: float
) -> list[tuple[int, int, float]]:
    pairs: list[tuple[int, int, float]] = []
    start = 0
    for i, a in enumerate(old):
        best_j, best_score = -1, 0.0
        for j in range(start, min(len(new), start + _GREEDY_WINDOW)):
            b = new[j]
            if b.kind is not a.kind:
                continue
            score = similarity(a, b, threshold)
            if score > best_score:
                best_j, best_score = j, score
                if score == 100.0:
                    break
        if best_j >= 0:
            pairs.append((i, best_j, best_score))
            start = best_j + 1
            if start >= len(new):
                break
    return pairs


def pair_run(
    old: Sequence[DisplayBlock],
    new: Sequence[DisplayBlock],
    threshold: float = DEFAULT_THRESHOLD,
) -> list[tuple[int, int, float]]:
    """In-order ``(old position, new position, score)`` pairs of same-kind blocks at least
    ``threshold`` similar, out of a run that the alignment could not match exactly."""
    if not old or not new:
        return []
    if len(old) * len(new) <= _DP_LIMIT:
        return _pair_dp(old, new, threshold)
    return _pair_greedy(old, new, threshold)


class _Aligner:
    """Builds the rows: top-level blocks first, then display blocks inside what differs."""

    def __init__(
        self,
        old: tuple[DisplayBlock, ...],
        new: tuple[DisplayBlock, ...],
        threshold: float,
        old_base: int = 0,
        new_base: int = 0,
    ) -> None:
        self.old, self.new, self.threshold = old, new, threshold
        self.old_keys, self.new_keys = interned_keys(old, new)
        self.rows: list[DiffRow] = []
        self.old_base, self.new_base = old_base, new_base
        """Positions of ``old[0]``/``new[0]`` in their pages (a stretch of a lazy diff)."""

    def equal(self, i1: int, i2: int, j1: int) -> None:
        old, new, ob, nb = self.old, self.new, self.old_base, self.new_base
        self.rows.extend(
            DiffRow(RowKind.EQUAL, old[i], new[j], ob + i, nb + j)
            for i, j in zip(range(i1, i2), range(j1, j1 + i2 - i1), strict=True)
        )

    def groups(self) -> None:
        """Align whole top-level blocks (a third as many items as display blocks, and
        most are untouched), then align display blocks only inside the runs that differ."""
        old_bounds, new_bounds = _group_bounds(self.old), _group_bounds(self.new)
        ids: dict[tuple[int, ...], int] = {}
        old_groups = _group_keys(self.old_keys, old_bounds, ids)
        new_groups = _group_keys(self.new_keys, new_bounds, ids)
        pending: list[int] | None = None
        for op in Indel.opcodes(old_groups, new_groups):
            i1, i2 = old_bounds[op.src_start], old_bounds[op.src_end]
            j1, j2 = new_bounds[op.dest_start], new_bounds[op.dest_end]
            if op.tag != "equal":
                if pending is None:
                    pending = [i1, i2, j1, j2]
                else:
                    pending[1], pending[3] = i2, j2
                continue
            if pending is not None:
                self.blocks(pending[0], pending[1], pending[2], pending[3])
                pending = None
            self.equal(i1, i2, j1)
        if pending is not None:
            self.blocks(pending[0], pending[1], pending[2], pending[3])

    def blocks(self, i0: int, i3: int, j0: int, j3: int) -> None:
        """Align the display blocks ``old[i0:i3]`` with ``new[j0:j3]``."""
        pending: list[int] | None = None
        ops = Indel.opcodes(self.old_keys[i0:i3], self.new_keys[j0:j3])
        for op in ops:
            i1, i2, j1, j2 = (
                i0 + op.src_start,
                i0 + op.src_end,
                j0 + op.dest_start,
                j0 + op.dest_end,
            )
            if op.tag != "equal":
                if pending is None:
                    pending = [i1, i2, j1, j2]
                else:
                    pending[1], pending[3] = i2, j2
                continue
            if pending is not None:
                self.replace(pending[0], pending[1], pending[2], pending[3])
                pending = None
            self.equal(i1, i2, j1)
        if pending is not None:
            self.replace(pending[0], pending[1], pending[2], pending[3])

    def replace(self, i1: int, i2: int, j1: int, j2: int) -> None:
        old, new, rows, ob, nb = self.old, self.new, self.rows, self.old_base, self.new_base
        removed, added, changed = RowKind.REMOVED, RowKind.ADDED, RowKind.CHANGED
        i, j = i1, j1
        for pi, pj, _weight in pair_run(old[i1:i2], new[j1:j2], self.threshold):
            pi += i1
            pj += j1
            rows.extend(DiffRow(removed, old[k], None, ob + k, None, 0.0) for k in range(i, pi))
            rows.extend(DiffRow(added, None, new[k], None, nb + k, 0.0) for k in range(j, pj))
            score = fuzz.ratio(old[pi].text, new[pj].text)
            rows.append(DiffRow(changed, old[pi], new[pj], ob + pi, nb + pj, score))
            i, j = pi + 1, pj + 1
        rows.extend(DiffRow(removed, old[k], None, ob + k, None, 0.0) for k in range(i, i2))
        rows.extend(DiffRow(added, None, new[k], None, nb + k, 0.0) for k in range(j, j2))


def diff_blocks(
    old: Sequence[DisplayBlock],
    new: Sequence[DisplayBlock],
    *,
    threshold: float = DEFAULT_THRESHOLD,
) -> BlockDiff:
    """Align two display-block sequences into rows.

    Equal keys are matched by ``rapidfuzz.distance.Indel.opcodes`` (a longest common
    subsequence) — over whole top-level blocks first, then over the display blocks of
    the top-level blocks that differ. Each stretch between two matched stretches is a
    replace run, in which same-kind blocks at least ``threshold`` similar (see
    :func:`similarity`) pair up in order as CHANGED — the pairing with the highest total
    similarity for small runs, greedily for large ones — and the rest are REMOVED (old side) or ADDED (new side), removals
    first. A moved block is therefore a removal in one place and an addition in another.
    """
    aligner = _Aligner(tuple(old), tuple(new), threshold)
    aligner.groups()
    return BlockDiff(tuple(aligner.rows), aligner.old, aligner.new)


def align_stretch(
    old: Sequence[DisplayBlock],
    new: Sequence[DisplayBlock],
    old_base: int,
    new_base: int,
    threshold: float = DEFAULT_THRESHOLD,
) -> list[DiffRow]:
    """The rows :func:`diff_blocks` makes of ``old`` and ``new`` when their top-level
    groups are a stretch that differs (display blocks aligned, then paired), with the
    positions in their pages (they start at display blocks ``old_base``/``new_base``)."""
    aligner = _Aligner(tuple(old), tuple(new), threshold, old_base, new_base)
    aligner.blocks(0, len(aligner.old), 0, len(aligner.new))
    return aligner.rows


def diff_documents(
    old: Document | None,
    new: Document | None,
    *,
    threshold: float = DEFAULT_THRESHOLD,
) -> BlockDiff:
    """Flatten and align two parsed pages; ``None`` for a side where the page does not exist
    (created: everything ADDED; deleted: everything REMOVED)."""
    return diff_blocks(flatten(old), flatten(new), threshold=threshold)
