"""Cheap height estimates for blocks not laid out yet, and a focusable-content test."""

from __future__ import annotations

from collections.abc import Iterable

from ...markdown import model as m

__all__ = ["estimate_height", "has_targets"]


def _text_lines(chars: int, width: int) -> int:
    # Word wrapping wastes roughly a tenth of each line.
    return max(1, -(-chars * 10 // max(1, width * 9)))


def _spans_length(spans: Iterable[m.Span]) -> int:
    return sum(len(span.text) for span in spans)


def _children(blocks: Iterable[m.Block], width: int, gap: int = 1) -> int:
    heights = [estimate_height(block, width) for block in blocks]
    return sum(heights) + gap * max(0, len(heights) - 1)


def estimate_height(block: m.Block, width: int) -> int:
    """Roughly how many lines ``block`` takes at ``width`` (no trailing blank line)."""
    width = max(1, width)
    if isinstance(block, m.Paragraph):
        return _text_lines(_spans_length(block.spans), width)
    if isinstance(block, m.Heading):
        return _text_lines(_spans_length(block.spans), width) + (1 if block.level <= 2 else 0)
    if isinstance(block, m.CodeBlock):
        return block.code.rstrip("\n").count("\n") + 2
    if isinstance(block, m.Table):
        # Pages can hold thousands of tables: one tight pass, assuming equal columns.
        rows = (block.header, *block.rows) if block.header else block.rows
        columns = max(1, len(block.header) or (len(rows[0]) if rows else 1))
        room = max(1, (width - 3 * columns - 1) // columns)
        total = 3
        for row in rows:
            longest = max([sum([len(s.text) for s in cell]) for cell in row] or [0])
            total += 1 if longest <= room else -(-longest * 10 // (room * 9))
        return total
    if isinstance(block, m.Include):
        return 1 + (_children(block.blocks, width - 2) if block.blocks else 0)
    if isinstance(block, m.Rule):
        return 1
    if isinstance(block, m.Quote | m.Hint):
        return _children(block.blocks, width - 4)
    if isinstance(block, m.ListBlock):
        gap = 0 if block.tight else 1
        return sum(_children(item.blocks, width - 3, gap) for item in block.items) + gap * max(
            0, len(block.items) - 1
        )
    if isinstance(block, m.Tabs):
        return 2 + (_children(block.tabs[0].blocks, width) if block.tabs else 0)
    if isinstance(block, m.Stepper):
        return sum(1 + _children(step.blocks, width - 4) for step in block.steps) + max(
            0, len(block.steps) - 1
        )
    if isinstance(block, m.Columns):
        if width >= 100 and block.columns:
            column_width = width // len(block.columns)
            return max(_children(column, column_width) for column in block.columns)
        return sum(_children(column, width) + 1 for column in block.columns)
    if isinstance(block, m.Details):
        return 1 + (_children(block.blocks, width - 2) if block.open else 0)
    if isinstance(block, m.Figure | m.Image | m.FileBlock):
        return 3
    if isinstance(block, m.EmbedCard):
        return 4 + (1 if block.caption else 0)
    if isinstance(block, m.ContentRef):
        return 4
    if isinstance(block, m.OpenAPICard):
        return 3 + _children(block.blocks, width - 4)
    if isinstance(block, m.Updates):
        return sum(2 + _children(update.blocks, width - 2) for update in block.updates)
    if isinstance(block, m.Footnotes):
        return 1 + sum(_children(blocks, width - 4, 0) for _label, blocks in block.items)
    if isinstance(block, m.UnknownBlock):
        return 3 + len(block.attrs) + _children(block.blocks, width - 4)
    if isinstance(block, m.Cards):
        return sum(
            3 + len(card.body) + (card.target is not None) + (card.cover is not None)
            for card in block.cards
        )
    if isinstance(block, m.Conditional):
        return sum(1 + _children(blocks, width - 2) for _label, blocks in block.branches)
    if isinstance(block, m.MathBlock):
        return block.tex.count("\n") + 2
    if isinstance(block, m.Notice):
        return _text_lines(len(block.message) + len(block.detail) + 4, width - 2)
    if isinstance(block, m.HtmlBlock):
        return _text_lines(len(block.text), width)
    return 1


_ALWAYS_FOCUSABLE = (
    m.Details,
    m.Tabs,
    m.Figure,
    m.Image,
    m.FileBlock,
    m.EmbedCard,
    m.ContentRef,
    m.Include,
    m.OpenAPICard,
    m.Cards,
)


def _spans_link(spans: Iterable[m.Span]) -> bool:
    return any(span.href is not None for span in spans)


def has_targets(block: m.Block) -> bool:
    """Whether ``block`` (or anything nested in it) can hold a focusable item."""
    for node in m.walk((block,)):
        if isinstance(node, _ALWAYS_FOCUSABLE):
            return True
        if isinstance(node, m.Paragraph | m.Heading) and _spans_link(node.spans):
            return True
        if isinstance(node, m.Table) and any(
            _spans_link(cell) for row in (node.header, *node.rows) for cell in row
        ):
            return True
        if isinstance(node, m.UnknownBlock) and any(
            value.startswith(("http://", "https://")) for value in node.attrs.values()
        ):
            return True
    return False
