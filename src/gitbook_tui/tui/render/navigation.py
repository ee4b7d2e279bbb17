"""Reading-order navigation between focusable items, and picking the tabs block to switch."""

from __future__ import annotations

from bisect import bisect_left, bisect_right

from .core import Path, PlacedTarget
from .layout import DocumentLayout

__all__ = ["Position", "nearest_tabs", "next_target", "tab_count", "target_at"]

Position = tuple[int, int]
"""``(top-level block, index in that block's targets)``."""


def target_at(layout: DocumentLayout, position: Position | None) -> PlacedTarget | None:
    if position is None or not 0 <= position[0] < len(layout):
        return None
    targets = layout.get(position[0]).targets
    return targets[position[1]] if 0 <= position[1] < len(targets) else None


def next_target(
    layout: DocumentLayout, current: Position | None, top: int, bottom: int, forward: bool
) -> Position | None:
    """The focusable item after (or before) ``current``, wrapping around the document.

    Without a ``current`` item the search starts at the viewport ``[top, bottom]``:
    the first item at or below ``top`` going forward, the last one at or above
    ``bottom`` going back. Only blocks that can hold items are laid out.
    """
    blocks = layout.focusable_blocks()
    if not blocks:
        return None
    start = current[0] if current is not None else layout.block_at(top if forward else bottom)
    if forward:
        cut = bisect_left(blocks, start)
        order = blocks[cut:] + blocks[:cut]
    else:
        cut = bisect_right(blocks, start)
        order = blocks[:cut][::-1] + blocks[cut:][::-1]
    if order and order[0] == start:
        # Wrapping all the way round ends in the start block's other items.
        order.append(start)
    for visit, index in enumerate(order):
        targets = layout.get(index).targets
        indices = range(len(targets)) if forward else range(len(targets) - 1, -1, -1)
        block_top = layout.start(index)
        for k in indices:
            if visit == 0 and index == start:
                if current is not None:
                    if (k <= current[1]) if forward else (k >= current[1]):
                        continue
                else:
                    line = block_top + targets[k].line
                    if (line < top) if forward else (line > bottom):
                        continue
            return index, k
    return None


def tab_count(layout: DocumentLayout, index: int, path: Path) -> int:
    return sum(
        1
        for placed in layout.get(index).targets
        if placed.target.kind == "tab" and placed.target.path == path
    )


def nearest_tabs(
    layout: DocumentLayout, current: Position | None, top: int, bottom: int
) -> tuple[int, Path] | None:
    """The tabs block ``[``/``]`` act on: the one holding the focused item, else the
    tabs header nearest the viewport top among the blocks on screen."""
    focused = target_at(layout, current)
    if current is not None and focused is not None and focused.target.tabs is not None:
        return current[0], focused.target.tabs
    if not len(layout):
        return None
    best: tuple[int, int, Path] | None = None
    first, last = layout.block_at(top), layout.block_at(bottom)
    for index in range(first, last + 1):
        block_top = layout.start(index)
        for placed in layout.get(index).targets:
            if placed.target.kind != "tab":
                continue
            distance = abs(block_top + placed.line - top)
            if best is None or distance < best[0]:
                best = (distance, index, placed.target.path)
    return None if best is None else (best[1], best[2])
