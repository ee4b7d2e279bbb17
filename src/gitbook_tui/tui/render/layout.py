"""Windowed document layout: exact layouts near the viewport, estimated heights elsewhere."""

from __future__ import annotations

from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from itertools import accumulate

from ...markdown import model as m
from .blocks import layout_top_level, layout_top_level_search, layout_top_level_text
from .core import BlockLayout, Context, FileInfo, LayoutState
from .estimate import estimate_height, has_targets
from .flows import SearchText
from .styles import DEFAULT_PALETTE, Palette

__all__ = ["DocumentLayout"]


class DocumentLayout:
    """The lines of a whole document at one width, laid out lazily block by block.

    Every top-level block has a height: exact once it has been laid out, estimated
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
        self.blocks = document.blocks
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
        self._exact: list[bool] = []
        self._heights: list[int] = []
        self._offsets: list[int] | None = None
        self._anchor_blocks: dict[str, int] | None = None
        self._focusable: list[int] | None = None
        self.width = 0
        self.set_width(width)

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
        self._exact = [False] * len(self.blocks)
        self._heights = [estimate_height(block, width) + 1 for block in self.blocks]
        self._offsets = None

    def __len__(self) -> int:
        return len(self.blocks)

    @property
    def offsets(self) -> list[int]:
        """``offsets[i]`` is the first line of block ``i``; the last item is the total."""
        if self._offsets is None:
            self._offsets = [0, *accumulate(self._heights)]
        return self._offsets

    @property
    def total_height(self) -> int:
        return self.offsets[-1]

    def start(self, index: int) -> int:
        return self.offsets[index]

    def height(self, index: int) -> int:
        return self._heights[index]

    def is_exact(self, index: int) -> bool:
        return self._exact[index]

    def block_at(self, y: int) -> int:
        """The block holding line ``y`` (clamped to the document)."""
        if not self.blocks:
            return 0
        return min(max(0, bisect_right(self.offsets, y) - 1), len(self.blocks) - 1)

    def locate(self, y: int) -> tuple[int, int] | None:
        """``(block, line in block)`` of document line ``y``, or None outside the document."""
        if y < 0 or y >= self.total_height:
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
        layout = layout_top_level(self.blocks[index], index, self.width, self._context)
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
            lines = layout_top_level_text(self.blocks[index], index, self.width, self._context)
            self._text[index] = lines
            self._set_height(index, len(lines))
        return lines

    def search_text(self, index: int) -> SearchText:
        """Block ``index``'s lines and the text search looks in (soft wraps joined)."""
        found = self._search.get(index)
        if found is None:
            found = layout_top_level_search(self.blocks[index], index, self.width, self._context)
            self._search[index] = found
            # Same lines as text(): share them rather than keep two copies.
            self._text.setdefault(index, found.lines)
            self._set_height(index, len(found.lines))
        return found

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

    def ensure(self, top: int, height: int, margin: int | None = None) -> int:
        """Lay out every block within ``margin`` lines of the viewport ``[top, top + height)``.

        Returns the corrected top: when a block starting above ``top`` changes height,
        ``top`` moves by the same amount, so what is on screen stays where it was.
        """
        if not self.blocks:
            return 0
        margin = height if margin is None else margin
        for _ in range(4):
            changed = False
            index = self.block_at(max(0, top - margin))
            y = self.start(index)
            while index < len(self.blocks) and y < top + height + margin:
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
        """Lay out the last screenful exactly; return the top that shows the document's end."""
        if not self.blocks:
            return 0
        for _ in range(16):
            top = max(0, self.total_height - height)
            index = self.block_at(max(0, top - height))
            changed = False
            for i in range(index, len(self.blocks)):
                if i not in self._layouts:
                    old = self._heights[i]
                    changed |= self.get(i).height != old
            if not changed:
                return top
        return max(0, self.total_height - height)

    # -- lookups -------------------------------------------------------------------

    def anchor_block(self, anchor: str) -> int | None:
        """The top-level block holding the heading with ``anchor``."""
        if self._anchor_blocks is None:
            found: dict[str, int] = {}
            for index, block in enumerate(self.blocks):
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
            self._focusable = [i for i, block in enumerate(self.blocks) if has_targets(block)]
        return self._focusable

    def lines(self) -> Iterator[tuple[int, int, str]]:
        """``(block, line, text)`` of every line, laying out the whole document."""
        for index in range(len(self.blocks)):
            for number, text in enumerate(self.text(index)):
                yield index, number, text
