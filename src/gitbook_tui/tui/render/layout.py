"""Windowed document layout: exact layouts near the viewport, estimated heights elsewhere."""

from __future__ import annotations

from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from itertools import accumulate
from time import monotonic

from ...markdown import model as m
from .core import BlockLayout, Context, FileInfo, LayoutState
from .estimate import has_targets
from .flows import SearchText
from .haystack import haystack
from .styles import DEFAULT_PALETTE, Palette
from .units import (
    Unit,
    estimate_unit,
    layout_unit,
    layout_unit_search,
    layout_unit_text,
    unit_block,
    units_of,
)

__all__ = ["DocumentLayout"]


class DocumentLayout:
    """The lines of a whole document at one width, laid out lazily block by block.

    The layout's blocks are *units* (:mod:`.units`): the document's top-level blocks,
    except that a huge container counts as one unit per part. Every unit has a height: exact once it has been laid out, estimated
    (from its text length) until then. Callers ask for the viewport they are about to
    show with :meth:`ensure`; the blocks there (plus a margin) are laid out and the
    returned top keeps the content the reader was looking at in place even when
    estimates above it turn out wrong.
    """

    def __init__(
        self,
        document: m.Document,
        width: int,
        *,
        files: Mapping[str, FileInfo] | None = None,
        palette: Palette = DEFAULT_PALETTE,
        state: LayoutState | None = None,
        max_cached: int = 1500,
        titles: Callable[[str], str | None] | None = None,
    ) -> None:
        self.document = document
        self.units: list[Unit] = []
        self._add_units(document.blocks)
        self.state = state or LayoutState()
        self._context = Context(palette=palette, state=self.state, files=files or {}, titles=titles)
        self._max_cached = max_cached
        self._layouts: OrderedDict[int, BlockLayout] = OrderedDict()
        # Text of every block laid out so far: small, kept for search even after the
        # block's styled layout has been evicted from the bounded cache above.
        self._text: dict[int, list[str]] = {}
        # Searchable text of every block searched so far, so that searching again (a
        # new query) costs a scan, not a layout of the whole page.
        self._search: dict[int, SearchText] = {}
        # Find's pre-check text of every block looked at so far (any width).
        self._haystacks: dict[int, str | None] = {}
        self._exact: list[bool] = []
        self._heights: list[int] = []
        self._offsets: list[int] | None = None
        self._anchor_blocks: dict[str, int] | None = None
        self._focusable: list[int] | None = None
        self._share = 1.0
        self.width = 0
        self.set_width(width)

    @property
    def palette(self) -> Palette:
        return self._context.palette

    # -- geometry ------------------------------------------------------------------

    def set_width(self, width: int) -> None:
        """Re-estimate everything for a new width; exact layouts are redone on demand."""
        width = max(1, width)
        if width == self.width:
            return
        self.width = width
        self._layouts.clear()
        self._text.clear()
        self._search.clear()
        self._exact = [False] * len(self.units)
        self._heights = [estimate_unit(unit, width) for unit in self.units]
        self._offsets = None

    def _add_units(self, blocks: tuple[m.Block, ...]) -> list[Unit]:
        first = len(self.document.blocks) - len(blocks)
        added = [unit for i, block in enumerate(blocks, first) for unit in units_of(block, i)]
        self.units.extend(added)
        return added

    def __len__(self) -> int:
        return len(self.units)

    # -- a document still being parsed --------------------------------------------

    @property
    def complete(self) -> bool:
        """False while the document is the first part of a page still being parsed."""
        return self._share >= 1.0

    def set_share(self, share: float) -> None:
        """How much of the page the document covers (1.0: all of it). Below 1.0 the
        total height includes an estimate of the lines still to come (the scrollbar's)."""
        self._share = min(1.0, max(0.0, share))

    def extend(self, document: m.Document, share: float = 1.0) -> None:
        """Take ``document``: the current one with blocks added after its last (the
        rest of a progressive parse). The new blocks start estimated, like all others."""
        count = len(self.document.blocks)
        self.document = document
        added = self._add_units(document.blocks[count:])
        self._exact.extend([False] * len(added))
        self._heights.extend(estimate_unit(unit, self.width) for unit in added)
        self._offsets = None
        self._anchor_blocks = None
        self._focusable = None
        self.set_share(share)

    @property
    def offsets(self) -> list[int]:
        """``offsets[i]`` is the first line of block ``i``; the last item is the total."""
        if self._offsets is None:
            self._offsets = [0, *accumulate(self._heights)]
        return self._offsets

    @property
    def content_height(self) -> int:
        """The lines of the blocks the document has (so far)."""
        return self.offsets[-1]

    @property
    def total_height(self) -> int:
        """All lines, with an estimate of those still being parsed (see :meth:`set_share`)."""
        known = self.offsets[-1]
        if self._share >= 1.0:
            return known
        return known + int(known * (1.0 - self._share) / max(self._share, 0.01)) + 1

    def start(self, index: int) -> int:
        return self.offsets[index]

    def height(self, index: int) -> int:
        return self._heights[index]

    def is_exact(self, index: int) -> bool:
        return self._exact[index]

    def block_at(self, y: int) -> int:
        """The block holding line ``y`` (clamped to the document)."""
        if not self.units:
            return 0
        return min(max(0, bisect_right(self.offsets, y) - 1), len(self.units) - 1)

    def locate(self, y: int) -> tuple[int, int] | None:
        """``(block, line in block)`` of document line ``y``, or None outside the document."""
        if y < 0 or y >= self.content_height:
            return None
        index = self.block_at(y)
        return index, y - self.start(index)

    # -- layouts -------------------------------------------------------------------

    def peek(self, index: int) -> BlockLayout | None:
        """The cached layout of block ``index`` without laying anything out."""
        return self._layouts.get(index)

    def get(self, index: int) -> BlockLayout:
        """The exact layout of block ``index`` (laid out now if needed)."""
        layout = self._layouts.get(index)
        if layout is not None:
            self._layouts.move_to_end(index)
            return layout
        layout = layout_unit(self.units[index], self.width, self._context)
        self._layouts[index] = layout
        if len(self._layouts) > self._max_cached:
            # Evicted blocks keep their exact height: re-laying them out is deterministic.
            self._layouts.popitem(last=False)
        self._text[index] = layout.plain
        self._set_height(index, layout.height)
        return layout

    def text(self, index: int) -> list[str]:
        """The rendered text lines of block ``index`` (without styling or highlighting)."""
        lines = self._text.get(index)
        if lines is None:
            lines = layout_unit_text(self.units[index], self.width, self._context)
            self._text[index] = lines
            self._set_height(index, len(lines))
        return lines

    def search_text(self, index: int) -> SearchText:
        """Block ``index``'s lines and the text search looks in (soft wraps joined)."""
        found = self._search.get(index)
        if found is None:
            found = layout_unit_search(self.units[index], self.width, self._context)
            self._search[index] = found
            # Same lines as text(): share them rather than keep two copies.
            self._text.setdefault(index, found.lines)
            self._set_height(index, len(found.lines))
        return found

    def may_contain(self, index: int, words: list[str]) -> bool:
        """False when block ``index`` cannot draw all of ``words`` (lowercase, see
        :func:`.haystack.query_words`); True when it may (or cannot be told cheaply)."""
        try:
            text = self._haystacks[index]
        except KeyError:
            block = unit_block(self.units[index])
            text = self._haystacks[index] = haystack(block, self._context.title_of)
        return text is None or all(word in text for word in words)

    def prepare_find(self, start: int, budget: float) -> int:
        """Make find's pre-check text of blocks from ``start`` on for about ``budget``
        seconds (ahead of a search); the first block left to do."""
        deadline = monotonic() + budget
        index = start
        while index < len(self.units):
            self.may_contain(index, [])
            index += 1
            if not index % 64 and monotonic() > deadline:
                break
        return index

    def _set_height(self, index: int, height: int) -> None:
        self._exact[index] = True
        if self._heights[index] != height:
            self._heights[index] = height
            self._offsets = None

    def invalidate(self, index: int) -> None:
        """Forget block ``index``'s layout (its state changed); its old height stays until relaid."""
        self._layouts.pop(index, None)
        self._text.pop(index, None)
        self._search.pop(index, None)
        self._haystacks.pop(index, None)

    def ensure(self, top: int, height: int, margin: int | None = None) -> int:
        """Lay out every block within ``margin`` lines of the viewport ``[top, top + height)``.

        Returns the corrected top: when a block starting above ``top`` changes height,
        ``top`` moves by the same amount, so what is on screen stays where it was.
        """
        if not self.units:
            return 0
        margin = height if margin is None else margin
        for _ in range(4):
            changed = False
            index = self.block_at(max(0, top - margin))
            y = self.start(index)
            while index < len(self.units) and y < top + height + margin:
                if index not in self._layouts:
                    old = self._heights[index]
                    new = self.get(index).height
                    if new != old:
                        changed = True
                        if y < top:
                            top = max(0, top + new - old)
                y += self._heights[index]
                index += 1
            if not changed:
                break
        return min(max(0, top), max(0, self.total_height - height))

    def ensure_bottom(self, height: int) -> int:
        """Lay out the last screenful exactly; return the top that shows the document's end
        (the end of what has been parsed so far while it is incomplete)."""
        if not self.units:
            return 0
        for _ in range(16):
            top = max(0, self.content_height - height)
            index = self.block_at(max(0, top - height))
            changed = False
            for i in range(index, len(self.units)):
                if i not in self._layouts:
                    old = self._heights[i]
                    changed |= self.get(i).height != old
            if not changed:
                return top
        return max(0, self.content_height - height)

    # -- lookups -------------------------------------------------------------------

    def anchor_block(self, anchor: str) -> int | None:
        """The top-level block holding the heading with ``anchor``."""
        if self._anchor_blocks is None:
            found: dict[str, int] = {}
            for index, unit in enumerate(self.units):
                block = unit_block(unit)
                if isinstance(block, m.Heading):
                    found.setdefault(block.anchor, index)
                elif isinstance(block, m.Paragraph | m.CodeBlock | m.Table):
                    continue
                else:
                    for child in m.walk(m.child_blocks(block)):
                        if isinstance(child, m.Heading):
                            found.setdefault(child.anchor, index)
            self._anchor_blocks = found
        return self._anchor_blocks.get(anchor)

    def anchor_line(self, anchor: str) -> int | None:
        """The document line of heading ``anchor`` (its block's start if it is hidden)."""
        index = self.anchor_block(anchor)
        if index is None:
            return None
        layout = self.get(index)
        return self.start(index) + layout.anchors.get(anchor, 0)

    def focusable_blocks(self) -> list[int]:
        """Indices of the top-level blocks that may hold links, details or tabs."""
        if self._focusable is None:
            self._focusable = [
                i for i, unit in enumerate(self.units) if has_targets(unit_block(unit))
            ]
        return self._focusable

    def lines(self) -> Iterator[tuple[int, int, str]]:
        """``(block, line, text)`` of every line, laying out the whole document."""
        for index in range(len(self.units)):
            for number, text in enumerate(self.text(index)):
                yield index, number, text
