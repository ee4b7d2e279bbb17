"""The quote of the block under the review diff's cursor (``c``: a new thread quoting it)."""

from __future__ import annotations

from ...markdown.diff.align import DiffRow
from ...markdown.diff.blocks import DisplayBlock
from ...markdown.diff.view import InlineLine, SplitLine
from ...markdown.sanitize import clean_text
from ..render.diff_view import DiffView

__all__ = ["Quote", "block_quote", "quoted_block"]

MAX_QUOTE = 2000
"""Characters of a block quoted at most (a huge table row or code line is cut with "…")."""

Quote = tuple[str | None, str]
"""(page id or ``None``, the markdown to start the composer with)."""


def block_quote(text: str) -> str:
    """``text`` as a markdown blockquote, followed by an empty line to write under it."""
    text = clean_text(text).strip()
    if len(text) > MAX_QUOTE:
        text = text[:MAX_QUOTE].rstrip() + "…"
    lines = text.splitlines() or [""]
    return "\n".join(f"> {line}".rstrip() for line in lines) + "\n\n"


def quoted_block(diff: DiffView) -> str | None:
    """The text of the block at the diff's cursor (its current change, else the first line
    shown), the new side when it has one; ``None`` when no diff is shown."""
    lines = diff.lines
    if not lines:
        return None
    position = diff.current
    if position is None or position >= len(lines):
        top = diff.scroll_offset.y
        position = next(
            (i for i, line in enumerate(lines) if _block(line) is not None and i >= top), 0
        )
    block = _block(lines[position])
    return block.text if block is not None else None


def _block(line: InlineLine | SplitLine) -> DisplayBlock | None:
    """The block a line shows, its new side when it has one (what the thread discusses)."""
    if isinstance(line, SplitLine):
        return line.right or line.left
    if isinstance(line.row, DiffRow) and line.row.new is not None:
        return line.row.new  # the removed line of a changed pair: quote what replaces it
    return line.block
