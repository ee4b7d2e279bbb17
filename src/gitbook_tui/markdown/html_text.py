"""Text of HTML fragments: whitespace tidying of spans, blocks flattened into one table
cell's spans, and HTML reduced to readable plain text."""

from __future__ import annotations

import re
from collections.abc import Iterable

from .html_tree import Node, parse_fragment
from .model import (
    Block,
    CodeBlock,
    Figure,
    Heading,
    Image,
    ListBlock,
    Paragraph,
    Span,
    Spans,
    Table,
    child_blocks,
    plain_text,
)

WHITESPACE_RE = re.compile(r"[ \t\r\n\f\v]+")
_BREAK_RE = re.compile(r" *\n[ \n]*")
BLOCK_TAGS = frozenset(
    {"p", "div", "section", "article", "main", "header", "footer", "aside", "nav", "table"}
    | {"pre", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "hr", "figure"}
    | {"details", "summary", "dl", "dt", "dd", "li", "tr", "thead", "tbody", "picture"}
    | {"center", "form", "fieldset", "address", "figcaption"}
)
"""Tags that start a block of their own (the rest are inline)."""


def tidy(spans: Spans) -> Spans:
    """Spans with blanks around line breaks, repeated breaks and both ends removed."""
    out: list[Span] = []
    for span in spans:
        text = _BREAK_RE.sub("\n", span.text) if "\n" in span.text else span.text
        if out and text[:1] in (" ", "\n"):
            previous = out[-1]
            if previous.text.endswith("\n"):
                text = text.lstrip(" \n")
            elif text[0] == "\n" and previous.text.endswith(" "):
                out[-1] = Span(previous.text.rstrip(" "), previous.style, previous.href)
        if text:
            out.append(Span(text, span.style, span.href))
    while out and not out[0].text.strip(" \n"):
        out.pop(0)
    while out and not out[-1].text.strip(" \n"):
        out.pop()
    if out:
        first, last = out[0], out[-1]
        out[0] = Span(first.text.lstrip(" \n"), first.style, first.href)
        last = out[-1]
        out[-1] = Span(last.text.rstrip(" \n"), last.style, last.href)
    return tuple(span for span in out if span.text)


def flatten(blocks: Iterable[Block]) -> list[Span]:
    """Blocks as spans for one table cell: paragraphs on lines of their own, list items
    with their bullets, code as inline code."""
    out: list[Span] = []
    for block in blocks:
        if out:
            out.append(Span("\n"))
        if isinstance(block, Paragraph | Heading):
            out.extend(block.spans)
        elif isinstance(block, ListBlock):
            for index, item in enumerate(block.items):
                if index:
                    out.append(Span("\n"))
                marker = f"{block.start + index}. " if block.ordered else "• "
                out.append(Span(marker))
                out.extend(flatten(item.blocks))
        elif isinstance(block, CodeBlock):
            out.append(Span(block.code, frozenset({"code"})))
        elif isinstance(block, Image | Figure):
            out.append(Span(block.alt or "image", frozenset({"link"}), block.src))
        elif isinstance(block, Table):
            for row in (block.header, *block.rows):
                out.append(Span(" · ".join(plain_text(cell) for cell in row) + "\n"))
        else:
            out.extend(flatten(child_blocks(block)))
    return out


def strip_html(text: str) -> str:
    """Reduce HTML to readable plain text: tags and comments removed, entities decoded,
    block elements on lines of their own."""
    parts: list[str] = []

    def walk(node: Node) -> None:
        if isinstance(node, str):
            parts.append(node)
            return
        block = node.tag in BLOCK_TAGS or node.tag == "br"
        if block:
            parts.append("\n")
        if node.tag in ("td", "th"):
            parts.append(" ")
        for child in node.children:
            walk(child)
        if block:
            parts.append("\n")

    walk(parse_fragment(text))
    lines = (WHITESPACE_RE.sub(" ", line).strip() for line in "".join(parts).split("\n"))
    return "\n".join(line for line in lines if line)
