"""Layout units: a top-level block, or one part of a huge container laid out on its own.

The document layout lays out, caches and measures *units*. Most top-level blocks are one
unit. A container too large to lay out at once (a changelog is one ``{% updates %}``
block holding dozens of releases) is cut into parts — each update's date line and each
of its children — so only the parts near the screen are laid out, and toggling a
``<details>`` in one release re-lays that release alone. The parts draw exactly the
lines the whole block draws (same paths, so details and tabs keep their state).
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text

from ...markdown import model as m
from .blocks import layout_block
from .core import BlockLayout, Context, finalize, prefixed
from .estimate import estimate_height
from .flows import FlowMarks, SearchText
from .links import safe_text

__all__ = [
    "SPLIT_CHILDREN",
    "Unit",
    "estimate_unit",
    "layout_unit",
    "layout_unit_search",
    "layout_unit_text",
    "unit_block",
    "units_of",
]

SPLIT_CHILDREN = 24
"""A container with more children than this (all updates together) is laid out part by
part. Counted, not measured, so the units do not depend on the width."""


@dataclass(frozen=True, slots=True)
class Unit:
    """What one layout unit draws: ``block`` (top-level block ``index``) whole when
    ``part`` is ``()``; for an updates block ``(j,)`` is update ``j``'s date line and
    ``(j, k)`` its ``k``-th child. ``gap``: a blank line follows (a block's last unit)."""

    block: m.Block
    index: int
    part: tuple[int, ...] = ()
    gap: bool = True


def units_of(block: m.Block, index: int) -> list[Unit]:
    """The units top-level block ``index`` is laid out in."""
    if isinstance(block, m.Updates) and block.updates:
        children = sum(len(update.blocks) for update in block.updates)
        if children > SPLIT_CHILDREN:
            units: list[Unit] = []
            for j, update in enumerate(block.updates):
                units.append(Unit(block, index, (j,), gap=False))
                units.extend(
                    Unit(block, index, (j, k), gap=False) for k in range(len(update.blocks))
                )
            units[-1] = Unit(block, index, units[-1].part, gap=True)
            return units
    return [Unit(block, index)]


def _date(update: m.Update) -> str:
    return safe_text(update.date, single_line=True) or "Update"


def unit_block(unit: Unit) -> m.Block:
    """The model block a unit draws, for estimates, targets and find's pre-check."""
    if not unit.part:
        return unit.block
    assert isinstance(unit.block, m.Updates)
    update = unit.block.updates[unit.part[0]]
    if len(unit.part) == 1:
        return m.Paragraph((m.Span(_date(update)),))
    return update.blocks[unit.part[1]]


def estimate_unit(unit: Unit, width: int) -> int:
    """Estimated height of ``unit``, its gap included."""
    gap = 1 if unit.gap else 0
    if not unit.part:
        return estimate_height(unit.block, width) + gap
    if len(unit.part) == 1:
        return (2 if unit.part[0] else 1) + gap
    return estimate_height(unit_block(unit), width - 2) + (1 if unit.part[1] else 0) + gap


def _lines(unit: Unit, width: int, ctx: Context) -> list[Text]:
    width = max(1, width)
    if not unit.part:
        return layout_block(unit.block, width, ctx, (unit.index,))
    # Parts of an updates block: the lines render/blocks.py's _updates draws for them.
    block = unit.block
    assert isinstance(block, m.Updates)
    palette = ctx.palette
    j = unit.part[0]
    update = block.updates[j]
    if len(unit.part) == 1:
        date = Text(f"● {_date(update)}", style=palette.update_date)
        return [Text(), date] if j else [date]
    k = unit.part[1]
    lines = layout_block(update.blocks[k], max(1, width - 2), ctx, (unit.index, j, k))
    if lines and k:
        lines.insert(0, Text())
    return prefixed(lines, Text("│ ", style=palette.step_bar))


def layout_unit(unit: Unit, width: int, ctx: Context) -> BlockLayout:
    """Lay out ``unit``: its lines plus the blank line after a block."""
    ctx.targets = []
    ctx.highlight = True
    lines = _lines(unit, width, ctx)
    if unit.gap:
        lines.append(Text())
    return finalize(lines, ctx.targets)


def layout_unit_text(unit: Unit, width: int, ctx: Context) -> list[str]:
    """The same lines as :func:`layout_unit`, as plain text only (cheap)."""
    ctx.targets = []
    ctx.highlight = False
    try:
        lines = _lines(unit, width, ctx)
    finally:
        ctx.highlight = True
    return [line.plain for line in lines] + ([""] if unit.gap else [])


def layout_unit_search(unit: Unit, width: int, ctx: Context) -> SearchText:
    """The same lines as :func:`layout_unit_text`, plus the text search looks in."""
    ctx.targets = []
    ctx.highlight = False
    ctx.marks = marks = FlowMarks()
    try:
        lines = _lines(unit, width, ctx)
    finally:
        ctx.highlight = True
        ctx.marks = None
    if unit.gap:
        lines.append(Text())
    return marks.search_text(lines)
