"""Align two pages' display blocks (rapidfuzz Indel) and pair similar blocks as changed."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from rapidfuzz import fuzz
from rapidfuzz.distance import Indel

from ..model import Document
from .blocks import DisplayBlock, flatten
from .words import WordDiff, word_diff

__all__ = [
    "DEFAULT_THRESHOLD",
    "BlockDiff",
    "DiffRow",
    "RowKind",
    "diff_blocks",
    "diff_documents",
    "interned_keys",
    "pair_run",
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
    """``fuzz.ratio`` of the pair's texts for a CHANGED row (100 for EQUAL, 0 one-sided)."""

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
    """The aligned rows of two pages, in reading order, and their tallies."""

    rows: tuple[DiffRow, ...]
    old_blocks: tuple[DisplayBlock, ...] = field(repr=False)
    new_blocks: tuple[DisplayBlock, ...] = field(repr=False)

    @property
    def added(self) -> int:
        return sum(1 for row in self.rows if row.kind is RowKind.ADDED)

    @property
    def removed(self) -> int:
        return sum(1 for row in self.rows if row.kind is RowKind.REMOVED)

    @property
    def changed(self) -> int:
        return sum(1 for row in self.rows if row.kind is RowKind.CHANGED)

    @property
    def identical(self) -> bool:
        return all(row.kind is RowKind.EQUAL for row in self.rows)


def interned_keys(
    old: Sequence[DisplayBlock], new: Sequence[DisplayBlock]
) -> tuple[list[int], list[int]]:
    """Each block's equality key as a small int, equal ints for equal keys (no collisions)."""
    ids: dict[Hashable, int] = {}
    old_keys = [ids.setdefault(block, len(ids)) for block in old]
    new_keys = [ids.setdefault(block, len(ids)) for block in new]
    return old_keys, new_keys


def _pair_dp(
    old: Sequence[DisplayBlock], new: Sequence[DisplayBlock], threshold: float
) -> list[tuple[int, int, float]]:
    """In-order pairs maximising the total similarity (weighted LCS over the score grid)."""
    n, m = len(old), len(new)
    scores: list[list[float]] = []
    for a in old:
        row = []
        for b in new:
            if a.kind is b.kind:
                score = fuzz.ratio(a.text, b.text, score_cutoff=threshold)
                row.append(score if score >= threshold else 0.0)
            else:
                row.append(0.0)
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
            score = fuzz.ratio(a.text, b.text, score_cutoff=threshold)
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


def _replace_rows(
    old: Sequence[DisplayBlock],
    new: Sequence[DisplayBlock],
    i1: int,
    i2: int,
    j1: int,
    j2: int,
    threshold: float,
    rows: list[DiffRow],
) -> None:
    i, j = i1, j1
    for pi, pj, score in pair_run(old[i1:i2], new[j1:j2], threshold):
        pi += i1
        pj += j1
        rows.extend(DiffRow(RowKind.REMOVED, old[k], None, k, None, 0.0) for k in range(i, pi))
        rows.extend(DiffRow(RowKind.ADDED, None, new[k], None, k, 0.0) for k in range(j, pj))
        rows.append(DiffRow(RowKind.CHANGED, old[pi], new[pj], pi, pj, score))
        i, j = pi + 1, pj + 1
    rows.extend(DiffRow(RowKind.REMOVED, old[k], None, k, None, 0.0) for k in range(i, i2))
    rows.extend(DiffRow(RowKind.ADDED, None, new[k], None, k, 0.0) for k in range(j, j2))


def diff_blocks(
    old: Sequence[DisplayBlock],
    new: Sequence[DisplayBlock],
    *,
    threshold: float = DEFAULT_THRESHOLD,
) -> BlockDiff:
    """Align two display-block sequences into rows.

    Equal keys are matched by ``rapidfuzz.distance.Indel.opcodes`` (a longest common
    subsequence); each stretch between two matched stretches is a replace run, in which
    same-kind blocks at least ``threshold`` similar pair up in order as CHANGED and the
    rest are REMOVED (old side) or ADDED (new side), removals first. A moved block is
    therefore a removal in one place and an addition in another.
    """
    old = tuple(old)
    new = tuple(new)
    old_keys, new_keys = interned_keys(old, new)
    rows: list[DiffRow] = []
    run: list[int] | None = None  # [i1, i2, j1, j2] of the pending replace run
    for op in Indel.opcodes(old_keys, new_keys):
        i1, i2, j1, j2 = op.src_start, op.src_end, op.dest_start, op.dest_end
        if op.tag != "equal":
            if run is None:
                run = [i1, i2, j1, j2]
            else:
                run[1], run[3] = i2, j2
            continue
        if run is not None:
            _replace_rows(old, new, *run, threshold, rows)
            run = None
        rows.extend(
            DiffRow(RowKind.EQUAL, old[i1 + k], new[j1 + k], i1 + k, j1 + k)
            for k in range(i2 - i1)
        )
    if run is not None:
        _replace_rows(old, new, *run, threshold, rows)
    return BlockDiff(tuple(rows), old, new)


def diff_documents(
    old: Document | None,
    new: Document | None,
    *,
    threshold: float = DEFAULT_THRESHOLD,
) -> BlockDiff:
    """Flatten and align two parsed pages; ``None`` for a side where the page does not exist
    (created: everything ADDED; deleted: everything REMOVED)."""
    return diff_blocks(flatten(old), flatten(new), threshold=threshold)
