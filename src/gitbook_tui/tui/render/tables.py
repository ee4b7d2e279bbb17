"""Tables: box-drawn, column widths fitted to the width, cells wrapped and aligned.

Cells wrap at spaces; a word longer than its column is cut at the edge and each piece
after the first starts with the continuation mark of folded code lines (``↪``)."""

from __future__ import annotations

import re
from typing import Literal

from rich.cells import chop_cells
from rich.style import Style
from rich.text import Text

from ...markdown.model import Table
from ..common.text import cell_width
from .code import CONTINUATION
from .core import Context, pad, wrap
from .links import inline_text

__all__ = ["fit_widths", "layout_table", "wrap_cell"]

Justify = Literal["left", "center", "right"]


def _longest_word(text: str) -> int:
    return max((cell_width(word) for word in text.split()), default=0)


def _widest_line(text: Text) -> int:
    plain = text.plain
    if "\n" not in plain:
        return text.cell_len
    return max(cell_width(line) for line in plain.split("\n"))


def fit_widths(natural: list[int], minimum: list[int], room: int) -> list[int]:
    """Column widths summing to at most ``room``: natural widths if they fit, else
    every column gets its minimum (capped) and the rest is shared in proportion to
    how much more each column would like."""
    if sum(natural) <= room:
        return natural
    minimum = [
        min(low, high, max(4, room // max(1, len(natural))))
        for low, high in zip(minimum, natural, strict=True)
    ]
    spare = room - sum(minimum)
    if spare <= 0:
        # Narrower than every column's minimum: squeeze evenly, one cell at least.
        share = max(1, room // max(1, len(natural)))
        return [max(1, min(share, high)) for high in natural]
    wants = [high - low for low, high in zip(minimum, natural, strict=True)]
    total_want = sum(wants) or 1
    widths = [low + spare * want // total_want for low, want in zip(minimum, wants, strict=True)]
    # Hand out cells lost to rounding, widest wishes first.
    leftover = room - sum(widths)
    for index in sorted(range(len(widths)), key=lambda i: wants[i], reverse=True):
        if leftover <= 0:
            break
        if widths[index] < natural[index]:
            widths[index] += 1
            leftover -= 1
    return widths


_WORD_RE = re.compile(r"\s*\S+\s*")
"""A word with the blanks around it, as Rich's wrapping reads words."""


def wrap_cell(
    text: Text, width: int, justify: Justify, ctx: Context, mark: Style | None = None
) -> list[Text]:
    """Word-wrap one cell's ``text`` to ``width`` cells: at spaces, and a word longer
    than the column cut at the edge with ``↪`` (in ``mark``) starting each later piece.

    Text without such a word wraps exactly as every other paragraph (:func:`.core.wrap`).
    """
    plain = text.plain
    if text.cell_len <= width or _longest_word(plain) <= width:
        return wrap(text, width, justify, ctx.marks)
    if ctx.marks is not None:
        ctx.marks.mark(text)  # in place, as core.wrap does: the Text is the cell's own
    out: list[Text] = []
    for line in text.split("\n", allow_blank=True):
        if "\t" in line.plain:
            line.expand_tabs(8)
        breaks = _breaks(line.plain, width)
        pieces = line.divide([offset for offset, _ in breaks]) if breaks else [line]
        for piece, continues in zip(pieces, [False, *(c for _, c in breaks)], strict=True):
            piece.rstrip_end(width)
            if justify != "left":
                piece.rstrip()
            if continues:
                marked = piece.blank_copy()
                marked.append(CONTINUATION, mark)
                marked.append_text(piece)
                piece = marked
            out.append(piece)
    return out or [Text()]


def _breaks(plain: str, width: int) -> list[tuple[int, bool]]:
    """Where one line of a cell breaks: ``(offset, continues a cut word)``, the offsets as
    Rich's word wrap puts them except inside words longer than ``width``, whose pieces
    after the first are one cell narrower (room for the continuation mark)."""
    breaks: list[tuple[int, bool]] = []
    room = width - 1 if width > 1 else width
    used = 0
    for match in _WORD_RE.finditer(plain):
        start, chunk = match.start(), match.group()
        word = chunk.rstrip()
        length = cell_width(word)
        if width - used >= length:
            used += cell_width(chunk)
            continue
        if length <= width:
            if used and start:
                breaks.append((start, False))
                used = cell_width(chunk)
            continue
        # Longer than a whole line: from a line of its own, cut at the edge.
        if start:
            breaks.append((start, False))
        first = chop_cells(word, width)[0]
        pieces = chop_cells(word[len(first) :], room)
        offset = start + len(first)
        for piece in pieces:
            breaks.append((offset, width > 1))
            offset += len(piece)
        tail = pieces[-1] if pieces else first
        used = (1 if pieces and width > 1 else 0) + cell_width(tail) + len(chunk) - len(word)
    return breaks


def _border(left: str, mid: str, right: str, fill: str, widths: list[int]) -> str:
    return left + mid.join(fill * (width + 2) for width in widths) + right


def layout_table(block: Table, width: int, ctx: Context) -> list[Text]:
    palette = ctx.palette
    columns = (
        max(len(block.header), *(len(row) for row in block.rows))
        if block.rows
        else len(block.header)
    )
    if columns == 0:
        return []

    def cells_of(row: tuple[tuple, ...], header: bool) -> list[Text]:
        base = palette.table_header if header else None
        # Cells keep their line breaks (<br>, lists in HTML cells): each line wraps alone.
        out = [inline_text(ctx, cell, base) for cell in row]
        return out + [Text() for _ in range(columns - len(out))]

    header = cells_of(block.header, True) if block.header else None
    rows = [cells_of(row, False) for row in block.rows]
    every = ([header] if header else []) + rows
    natural = [max(1, *(_widest_line(row[c]) for row in every)) for c in range(columns)]
    minimum = [max(1, *(_longest_word(row[c].plain) for row in every)) for c in range(columns)]
    widths = fit_widths(natural, minimum, max(columns, width - 3 * columns - 1))
    aligns: list[Justify] = [
        (block.aligns[c] if c < len(block.aligns) and block.aligns[c] else "left")  # type: ignore[misc]
        for c in range(columns)
    ]

    border = palette.table_border

    def render_row(cells: list[Text]) -> list[Text]:
        wrapped = [
            wrap_cell(cell, widths[c], aligns[c], ctx, border) for c, cell in enumerate(cells)
        ]
        height = max(len(lines) for lines in wrapped)
        out: list[Text] = []
        for y in range(height):
            # The border style goes on the bar only: Text(…, style=) would be the whole
            # line's base style and paint every cell in the border colour.
            line = Text()
            line.append("│", style=border)
            for c, lines in enumerate(wrapped):
                cell = lines[y] if y < len(lines) else Text()
                if aligns[c] != "left" and cell.plain:
                    cell = cell.copy()
                    cell.align(aligns[c], widths[c])
                line.append(" ")
                line.append_text(pad(cell, widths[c]))
                line.append(" │", style=border)
            out.append(line)
        return out

    rendered = [render_row(row) for row in rows]
    multi_line = any(len(lines) > 1 for lines in rendered)
    lines = [Text(_border("┌", "┬", "┐", "─", widths), style=border)]
    if header is not None:
        lines.extend(render_row(header))
        lines.append(Text(_border("╞", "╪", "╡", "═", widths), style=border))
    for index, row_lines in enumerate(rendered):
        if index and multi_line:
            # Separators only when a row wraps, so short tables stay compact.
            lines.append(Text(_border("├", "┼", "┤", "─", widths), style=border))
        lines.extend(row_lines)
    lines.append(Text(_border("└", "┴", "┘", "─", widths), style=border))
    return lines
