"""Block tokens → the block model: paragraphs, headings, code, lists, tables, quotes, footnotes."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from markdown_it.common.utils import unescapeAll
from markdown_it.token import Token

from .anchors import AnchorRegistry
from .front_matter import FrontMatterError, read_front_matter
from .html_blocks import html_block, is_img_tag
from .inline import CHECKBOX_MARK, html_attrs, spans_of, token_text
from .model import (
    Align,
    Block,
    Blocks,
    CodeBlock,
    Footnotes,
    Heading,
    Image,
    ListBlock,
    ListItem,
    MathBlock,
    Notice,
    Paragraph,
    Quote,
    Rule,
    Span,
    Spans,
    Table,
    plain_text,
)
from .tag_blocks import PART_TYPES, Item, finish, is_true, tag_blocks
from .tags import parse_attrs

__all__ = ["Converter", "convert", "finish"]

_log = logging.getLogger(__name__)

_ALIGNS: dict[str, Align] = {
    "text-align:left": "left",
    "text-align:center": "center",
    "text-align:right": "right",
}


class Converter:
    """Converts a markdown-it token stream to blocks, collecting headings, links and footnotes."""

    def __init__(self) -> None:
        self.anchors = AnchorRegistry()
        self.headings: list[tuple[int, str, str]] = []
        self.links: list[tuple[str, str]] = []
        self.footnote_defs: dict[str, list[Block]] = {}
        self.front_matter: dict[str, Any] = {}

    def heading(self, level: int, spans: Spans) -> Heading:
        """A heading with a unique anchor, recorded for the outline."""
        title = plain_text(spans)
        anchor = self.anchors.anchor(title)
        self.headings.append((level, title, anchor))
        return Heading(level, spans, anchor)

    # -- inline -----------------------------------------------------------

    def spans(self, inline: Token) -> Spans:
        return spans_of(inline, self.links)

    def _paragraph(self, inline: Token, out: list[Item]) -> None:
        children = inline.children or ()
        if children and self._only_images(children):
            for tok in children:
                if tok.type == "image":
                    src, title = tok.attrGet("src"), tok.attrGet("title")
                    out.append(
                        Image(
                            "" if src is None else str(src),
                            token_text(tok.children),
                            None if not title else str(title),
                        )
                    )
                elif tok.type == "html_inline":
                    attrs = html_attrs(tok.content)
                    out.append(
                        Image(attrs.get("src", ""), attrs.get("alt", ""), attrs.get("title"))
                    )
            return
        spans = self.spans(inline)
        if spans:
            out.append(Paragraph(spans))

    @staticmethod
    def _only_images(children: Sequence[Token]) -> bool:
        seen = False
        for tok in children:
            t = tok.type
            if t == "image" or (t == "html_inline" and is_img_tag(tok.content)):
                seen = True
            elif t in ("softbreak", "hardbreak") or (t == "text" and not tok.content.strip()):
                continue
            else:
                return False
        return seen

    # -- blocks -----------------------------------------------------------

    def items(self, toks: list[Token], i: int) -> tuple[list[Item], int]:
        """Convert tokens from ``i`` up to the closing token of the current container."""
        out: list[Item] = []
        n = len(toks)
        while i < n:
            tok = toks[i]
            t = tok.type
            if tok.nesting == -1:
                return out, i + 1
            if t == "paragraph_open" and i + 1 < n and toks[i + 1].type == "inline":
                self._paragraph(toks[i + 1], out)
                i += 3
            elif t == "heading_open" and i + 1 < n and toks[i + 1].type == "inline":
                spans = self.spans(toks[i + 1])
                level = int(tok.tag[1:]) if tok.tag[1:].isdigit() else 1
                out.append(self.heading(level, spans))
                i += 3
            elif t == "fence":
                out.append(self._fence(tok))
                i += 1
            elif t == "code_block":
                out.append(CodeBlock(_strip_final_newline(tok.content)))
                i += 1
            elif t == "bullet_list_open" or t == "ordered_list_open":
                i = self._list(toks, i, out)
            elif t == "list_item_open":
                i = self._list_item(toks, i, out)
            elif t == "blockquote_open":
                children, i = self.items(toks, i + 1)
                out.append(Quote(finish(children)))
            elif t == "hr":
                out.append(Rule())
                i += 1
            elif t == "table_open":
                i = self._table(toks, i, out)
            elif t == "html_block":
                out.extend(html_block(tok.content, self.links, self.heading))
                i += 1
            elif t == "math_block" or t == "math_block_label":
                out.append(MathBlock(tok.content.strip("\n")))
                i += 1
            elif t == "gitbook_open":
                links_before = len(self.links)
                children, i = self.items(toks, i + 1)
                out.extend(tag_blocks(tok.meta["tag"], children, self.links, links_before))
            elif t == "gitbook_tag":
                out.extend(tag_blocks(tok.meta["tag"], [], self.links, len(self.links)))
                i += 1
            elif t == "gitbook_raw":
                if tok.content.strip():
                    out.append(Paragraph((Span(tok.content.rstrip("\n")),)))
                i += 1
            elif t == "footnote_reference_open":
                label = str((tok.meta or {}).get("label", ""))
                children, i = self.items(toks, i + 1)
                self.footnote_defs.setdefault(label, []).extend(finish(children))
            elif t == "front_matter":
                self._front_matter(tok.content, out)
                i += 1
            elif t == "inline":
                spans = self.spans(tok)
                if spans:
                    out.append(Paragraph(spans))
                i += 1
            elif tok.nesting == 1:
                # Unknown container from some rule: keep its content.
                children, i = self.items(toks, i + 1)
                out.extend(children)
            else:
                if tok.content.strip():
                    out.append(Paragraph((Span(tok.content),)))
                i += 1
        return out, i

    def _front_matter(self, text: str, out: list[Item]) -> None:
        try:
            self.front_matter = read_front_matter(text)
        except FrontMatterError as exc:
            out.append(Notice("The page's front matter could not be read", str(exc)))
            out.append(CodeBlock(text, "yaml", "Front matter"))

    def _fence(self, tok: Token) -> CodeBlock:
        info = unescapeAll(tok.info).strip() if tok.info else ""
        language: str | None = None
        title: str | None = None
        line_numbers = full_width = False
        if info:
            language, _, rest = info.partition(" ")
            language = language.strip("{}.") or None
            if "=" in rest:
                attrs, _args = parse_attrs(rest)
                title = attrs.get("title") or None
                line_numbers = is_true(attrs.get("lineNumbers"))
                full_width = is_true(attrs.get("fullWidth"))
            elif rest.strip():
                # "```python example.py": words after the language name the block (a
                # file name, most often), never dropped
                title = rest.strip()
        return CodeBlock(
            _strip_final_newline(tok.content), language, title, line_numbers, full_width
        )

    def _list(self, toks: list[Token], i: int, out: list[Item]) -> int:
        tok = toks[i]
        ordered = tok.type == "ordered_list_open"
        start = 1
        if ordered:
            raw_start = tok.attrGet("start")
            try:
                start = int(raw_start) if raw_start is not None else 1
            except (TypeError, ValueError):
                start = 1
        tight = True
        if i + 2 < len(toks) and toks[i + 2].type == "paragraph_open":
            tight = toks[i + 2].hidden
        children, i = self.items(toks, i + 1)
        items: list[ListItem] = []
        for child in children:
            if isinstance(child, ListItem):
                items.append(child)
            elif isinstance(child, PART_TYPES):
                items.append(ListItem(finish([child])))
            else:
                items.append(ListItem((child,)))
        out.append(ListBlock(ordered, start, tuple(items), tight))
        return i

    def _list_item(self, toks: list[Token], i: int, out: list[Item]) -> int:
        tok = toks[i]
        checked: bool | None = None
        cls = tok.attrGet("class")
        if cls is not None and "task-list-item" in str(cls) and i + 2 < len(toks):
            inline = toks[i + 2]
            first = inline.children[0] if inline.type == "inline" and inline.children else None
            if first is not None and first.type == "html_inline" and CHECKBOX_MARK in first.content:
                checked = 'checked="checked"' in first.content
        children, i = self.items(toks, i + 1)
        out.append(ListItem(finish(children), checked))
        return i

    def _table(self, toks: list[Token], i: int, out: list[Item]) -> int:
        header: list[Spans] = []
        rows: list[tuple[Spans, ...]] = []
        aligns: list[Align] = []
        row: list[Spans] = []
        in_head = False
        depth = 0
        n = len(toks)
        while i < n:
            tok = toks[i]
            t = tok.type
            depth += tok.nesting
            i += 1
            if t == "thead_open":
                in_head = True
            elif t == "thead_close":
                in_head = False
            elif t == "tr_open":
                row = []
            elif t == "tr_close":
                if in_head and not header:
                    header = row
                else:
                    rows.append(tuple(row))
                row = []
            elif t == "th_open" and in_head:
                style = tok.attrGet("style")
                aligns.append(_ALIGNS.get(str(style)) if style is not None else None)
            elif t == "inline":
                row.append(self.spans(tok))
            if depth <= 0:
                break
        out.append(Table(tuple(header), tuple(rows), tuple(aligns)))
        return i

    def footnotes(self, env: dict[str, Any]) -> Footnotes | None:
        referenced = env.get("footnotes", {}).get("list", {})
        items: list[tuple[str, Blocks]] = []
        defs = self.footnote_defs
        for _id, data in sorted(referenced.items()):
            label = data.get("label")
            if label is not None and label in defs:
                items.append((label, tuple(defs.pop(label))))
        items.extend((label, tuple(blocks)) for label, blocks in defs.items())
        return Footnotes(tuple(items)) if items else None


def convert(conv: Converter, tokens: list[Token], source: str) -> list[Item]:
    """The items of a stream of block ``tokens`` (of ``source``), one top-level block at a
    time: should a block fail to convert (a bug, or a library giving up on some input),
    only that block is shown as its source lines in plain text, the blocks around it kept."""
    items: list[Item] = []
    lines: list[str] | None = None
    i, n = 0, len(tokens)
    while i < n:
        end = _block_end(tokens, i)
        try:
            chunk, _ = conv.items(tokens[i:end], 0)
        except Exception:
            _log.exception("a markdown block failed to convert; showing it as plain text")
            if lines is None:
                lines = source.split("\n")
            chunk = _as_text(tokens[i], lines)
        items.extend(chunk)
        i = end
    return items


def _block_end(tokens: list[Token], i: int) -> int:
    """The index after the top-level block starting at ``tokens[i]`` (its closing token)."""
    depth, n = 0, len(tokens)
    while i < n:
        depth += tokens[i].nesting
        i += 1
        if depth <= 0:
            break
    return i


def _as_text(tok: Token, lines: list[str]) -> list[Item]:
    text = "\n".join(lines[tok.map[0] : tok.map[1]]) if tok.map else tok.content
    return [Paragraph((Span(text.strip("\n")),))] if text.strip() else []


def _strip_final_newline(code: str) -> str:
    return code[:-1] if code.endswith("\n") else code
