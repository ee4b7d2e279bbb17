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
from typing import Any

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
    if "\t" in text:
        text = text.replace("\t", "    ")
    return text.lower() if text.isascii() else text.casefold().replace("ı", "i")


def _spans(spans: Iterable[m.Span], out: list[str], title_of: Titles) -> None:
    pieces: list[str] = []
    for span in spans:
        style = span.style
        if not style:
            pieces.append(span.text)
        elif "footnote_ref" in style:
            pieces.append(f"[{span.text}]")
        elif "icon" in style:
            pieces.extend((span.text, icon_text(span.text)))
        elif "mention" in style:
            pieces.extend((span.text, title_of(span.href) or ""))
        else:
            pieces.append(span.text)
    # Spans are drawn next to each other: a word may run across two of them.
    out.append("".join(pieces))


def _paragraph(block: m.Paragraph | m.Heading, out: list[str], title_of: Titles) -> None:
    _spans(block.spans, out, title_of)


def _code(block: m.CodeBlock, out: list[str], title_of: Titles) -> None:
    if block.line_numbers:
        raise _Unsupported
    out.extend((block.code, block.title or "", block.language or ""))


def _table(block: m.Table, out: list[str], title_of: Titles) -> None:
    for row in (block.header, *block.rows):
        for cell in row:
            _spans(cell, out, title_of)


def _html(block: m.HtmlBlock, out: list[str], title_of: Titles) -> None:
    out.append(block.text)


def _quote(block: m.Quote, out: list[str], title_of: Titles) -> None:
    _children(block.blocks, out, title_of)


def _hint(block: m.Hint, out: list[str], title_of: Titles) -> None:
    out.append(block.style)  # an empty hint shows its style's name
    _children(block.blocks, out, title_of)


def _list(block: m.ListBlock, out: list[str], title_of: Titles) -> None:
    for number, item in enumerate(block.items, start=block.start):
        if block.ordered:
            out.append(f"{number}.")
        _children(item.blocks, out, title_of)


def _details(block: m.Details, out: list[str], title_of: Titles) -> None:
    out.append("Details")  # shown when the summary is empty
    _spans(block.summary, out, title_of)
    _children(block.blocks, out, title_of)


def _tabs(block: m.Tabs, out: list[str], title_of: Titles) -> None:
    for number, tab in enumerate(block.tabs, start=1):
        out.extend((tab.title, f"Tab {number}"))
        _children(tab.blocks, out, title_of)


_COLLECTORS: dict[type, Callable[[Any, list[str], Titles], None]] = {
    m.Paragraph: _paragraph,
    m.Heading: _paragraph,
    m.CodeBlock: _code,
    m.Table: _table,
    m.Rule: lambda block, out, title_of: None,
    m.HtmlBlock: _html,
    m.Quote: _quote,
    m.Hint: _hint,
    m.ListBlock: _list,
    m.Details: _details,
    m.Tabs: _tabs,
}
"""The block types whose every drawn word comes from the model; any other block (one
nested anywhere in it too) draws words of its own and is always searched."""


def _collect(block: m.Block, out: list[str], title_of: Titles) -> None:
    collector = _COLLECTORS.get(type(block))
    if collector is None:
        raise _Unsupported
    collector(block, out, title_of)


def _children(blocks: Iterable[m.Block], out: list[str], title_of: Titles) -> None:
    for child in blocks:
        _collect(child, out, title_of)
