"""Code blocks: title bar, optional line numbers, folded long lines, cached highlighting."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from rich.style import Style
from rich.text import Span, Text
from textual.color import Color

from ...markdown.model import CodeBlock
from ..common.contrast import TEXT_CONTRAST, readable_on
from ..common.text import cell_width
from .core import Context, pad
from .links import safe_text
from .styles import Palette

if TYPE_CHECKING:
    from pygments.lexer import Lexer

__all__ = ["highlight", "layout_code"]


@lru_cache(maxsize=64)
def _lexer(language: str) -> Lexer | None:
    # Pygments' name lookup scans its registry each time; a page repeats few languages.
    # (Pygments is imported with the first code block: the app's start draws none.)
    from pygments.lexers import get_lexer_by_name
    from pygments.util import ClassNotFound

    try:
        return get_lexer_by_name(language)
    except ClassNotFound:
        return None


@lru_cache(maxsize=512)
def highlight(code: str, language: str | None, palette: Palette) -> Text:
    """Syntax-highlighted ``code`` (already cleaned); width independent, so a resize reuses it.

    Only called when a block is laid out, i.e. when it first comes near the viewport,
    so a page with thousands of code blocks never pays for the ones nobody looks at.
    The returned Text is shared: callers must not modify it.
    """
    lexer = _lexer(language.lower()) if language else None
    if lexer is None:
        return Text(code, style=palette.code_text)
    from rich.syntax import Syntax

    syntax = Syntax(
        code,
        lexer,
        theme=palette.code_theme,
        background_color=palette.code_background,
    )
    text = syntax.highlight(code)
    text.rstrip()
    grounds = tuple(
        ground.triplet.hex
        for ground in (palette.code_text.bgcolor, palette.code_highlight.bgcolor)
        if ground is not None and ground.triplet is not None
    )
    towards = palette.code_text.color
    if grounds and towards is not None and towards.triplet is not None:
        text.style = _readable_token(text.style, grounds, towards.triplet.hex)
        text.spans = [
            Span(span.start, span.end, _readable_token(span.style, grounds, towards.triplet.hex))
            for span in text.spans
        ]
    return text


@lru_cache(maxsize=1024)
def _readable_token(style: str | Style, grounds: tuple[str, ...], towards: str) -> Style | str:
    """A highlighter's token style with its colour floored for contrast on the code's
    backgrounds (plain and highlighted lines): the Pygments themes are not made for them."""
    parsed = Style.parse(style) if isinstance(style, str) else style
    colour = parsed.color
    if colour is None or colour.triplet is None:
        return style
    floored = readable_on(
        Color.parse(colour.triplet.hex),
        [Color.parse(g) for g in grounds],
        Color.parse(towards),
        TEXT_CONTRAST,
    )
    return parsed + Style(color=floored.hex)


CONTINUATION = "↪"
"""Starts every piece of a code line folded to fit (the line goes on, it is not a new one)."""


def _fold(line: Text, width: int) -> list[Text]:
    """Cut one code line into pieces of at most ``width`` cells (code is never re-flowed):
    after the last space of a piece when there is one in its second half, else at the edge."""
    plain = line.plain
    if len(plain) <= width and (plain.isascii() or cell_width(plain) <= width):
        return [line]
    offsets: list[int] = []
    start = 0  # where the current piece starts
    used = 0
    last_space = -1  # index after the last space in the current piece
    for index, char in enumerate(plain):
        char_width = 1 if char.isascii() else cell_width(char)
        if used + char_width > width and used:
            cut = last_space if last_space > start and last_space - start >= width // 2 else index
            offsets.append(cut)
            used = sum(1 if c.isascii() else cell_width(c) for c in plain[cut:index])
            start = cut
            last_space = -1
        used += char_width
        if char == " ":
            last_space = index + 1
    return list(line.divide(offsets)) if offsets else [line]


def layout_code(block: CodeBlock, width: int, ctx: Context) -> list[Text]:
    palette = ctx.palette
    # Pygments drops leading/trailing blank lines; do the same up front so highlighted
    # and text-only layouts have identical characters.
    code = safe_text(block.code).strip("\n")
    language = safe_text(block.language, single_line=True).strip() or None
    title = safe_text(block.title, single_line=True).strip()

    bar = Text(style=palette.code_title)
    bar.append(f" {title} " if title else " ", palette.code_title)
    if language:
        label = f" {language} "
        gap = width - bar.cell_len - cell_width(label)
        if gap > 0:
            bar.append(" " * gap)
        bar.append(label, palette.code_language)
    lines = [pad(bar, width)]

    if ctx.highlight:
        source = highlight(code, language, palette)
    else:
        source = Text(code, style=palette.code_text)
        source.rstrip()
        if ctx.marks is not None:
            # One flow for the whole block: folds join with nothing, lines with "\n",
            # which a one-line query never matches, so no match runs on to the next line.
            ctx.marks.mark(source)
    logical = source.split("\n", allow_blank=True) if code else [Text("")]
    digits = len(str(len(logical)))
    gutter = digits + 3 if block.line_numbers else 0
    room = max(1, width - gutter - 2)
    highlighted = block.highlighted
    for number, line in enumerate(logical, start=1):
        marked = number in highlighted
        for index, piece in enumerate(_fold(line, room)):
            row = Text(
                style=palette.code_text + palette.code_highlight if marked else palette.code_text
            )
            if block.line_numbers:
                label = f"{number:>{digits}} │ " if index == 0 else " " * digits + " ┆ "
                row.append(label, palette.code_gutter)
            # A highlighted line is marked in its first column too, so it shows without
            # colour; a folded line's later pieces start with the continuation mark.
            if marked:
                row.append("▌", palette.tab_marker)
            else:
                row.append(" " if index == 0 else CONTINUATION, palette.code_gutter)
            row.append_text(piece)
            padded = pad(row, width)
            if marked:
                # On top of the highlighter's own background, over the whole line.
                padded.stylize(palette.code_highlight)
            lines.append(padded)
    return lines
