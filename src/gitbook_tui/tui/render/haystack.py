"""Cheap text of a block for find's pre-check: every word drawn is in it, no layout needed.

Find in page searches the text exactly as it is drawn, which needs the block laid out;
most blocks of a large page do not hold the query at all. :func:`haystack` collects the
text a block can draw (from the model, without wrapping or styling) so those blocks are
skipped: a query can only match a block whose haystack holds each of the query's words.
Blocks whose renderers add words of their own (placeholders, steps, embeds…) get no
haystack and are always searched; queries made of non-ASCII text or of the glyphs the
renderers draw (bullets, bars, boxes) skip the pre-check.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from ...markdown import model as m
from .links import icon_text

__all__ = ["haystack", "query_words"]

Titles = Callable[[str | None], str | None]

# Characters a query may hold for the pre-check to apply: printable ASCII.
_PLAIN_QUERY_RE = re.compile(r"[ -~]+")


def query_words(query: str) -> list[str] | None:
    """The lowercased words the pre-check looks for, or None when it cannot be used."""
    if not _PLAIN_QUERY_RE.fullmatch(query):
        return None
    words = query.lower().split()
    return words or None


class _Unsupported(Exception):
    """The block draws text of its own: no haystack."""


def haystack(block: m.Block, title_of: Titles) -> str | None:
    """Every piece of text ``block`` may draw, casefolded, one piece a line; None when
    the block draws words the model does not hold (it must then always be searched)."""
    out: list[str] = []
    try:
        _collect(block, out, title_of)
    except _Unsupported:
        return None
    text = "\n".join(out)
    return text.lower() if text.isascii() else text.casefold().replace("ı", "i")


def _spans(spans: Iterable[m.Span], out: list[str], title_of: Titles) -> None:
    pieces: list[str] = []
    for span in spans:
        value = span.text
        style = span.style
        if style:
            if "footnote_ref" in style:
                value = f"[{value}]"
            elif "icon" in style:
                pieces.append(value)
                value = icon_text(value)
            elif "mention" in style:
                pieces.append(value)
                value = title_of(span.href) or value
        pieces.append(value)
    # Spans are drawn next to each other: a word may run across two of them.
    out.append("".join(pieces).replace("\t", "    "))


def _collect(block: m.Block, out: list[str], title_of: Titles) -> None:
    if isinstance(block, m.Paragraph | m.Heading):
        _spans(block.spans, out, title_of)
    elif isinstance(block, m.CodeBlock):
        if block.line_numbers:
            raise _Unsupported
        out.extend((block.code.replace("\t", "    "), block.title or "", block.language or ""))
    elif isinstance(block, m.Table):
        for row in (block.header, *block.rows):
            for cell in row:
                _spans(cell, out, title_of)
    elif isinstance(block, m.Rule):
        return
    elif isinstance(block, m.HtmlBlock):
        out.append(block.text.replace("\t", "    "))
    elif isinstance(block, m.Quote):
        _children(block.blocks, out, title_of)
    elif isinstance(block, m.Hint):
        out.append(block.style)  # an empty hint shows its style's name
        _children(block.blocks, out, title_of)
    elif isinstance(block, m.ListBlock):
        for number, item in enumerate(block.items, start=block.start):
            if block.ordered:
                out.append(f"{number}.")
            _children(item.blocks, out, title_of)
    elif isinstance(block, m.Details):
        out.append("Details")  # shown when the summary is empty
        _spans(block.summary, out, title_of)
        _children(block.blocks, out, title_of)
    elif isinstance(block, m.Tabs):
        for number, tab in enumerate(block.tabs, start=1):
            out.extend((tab.title, f"Tab {number}"))
            _children(tab.blocks, out, title_of)
    else:
        raise _Unsupported


def _children(blocks: Iterable[m.Block], out: list[str], title_of: Titles) -> None:
    for child in blocks:
        _collect(child, out, title_of)
