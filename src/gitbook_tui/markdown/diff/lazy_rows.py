"""Lazy sequences of a diff's rows and display blocks: made when first read (:mod:`.lazy`)."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence
from typing import overload

from .align import DiffRow, RowKind
from .blocks import DisplayBlock
from .chunk_view import SideView

__all__ = ["LazyBlocks", "LazyRows"]

_KEEP_NEAR = 4
"""Chunks this close to a change keep their block tokens (see :meth:`LazyRows.drop_far_tokens`)."""


class LazyBlocks(Sequence[DisplayBlock]):
    """One side's display blocks, made on demand."""

    def __init__(self, view: SideView) -> None:
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
        self, old: SideView, new: SideView, segments: list[tuple[int, int] | tuple[DiffRow, ...]]
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
        for s, seg in enumerate(segments):
            if equal[s] or all(
                isinstance(row, DiffRow) and row.kind is RowKind.EQUAL for row in seg
            ):
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
