"""Parse GitBook-flavoured markdown into the block model (markdown-it-py plus a tag plugin)."""

from __future__ import annotations

import gc
import html
import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, TypeAlias, TypeVar

from markdown_it import MarkdownIt
from markdown_it.common.utils import unescapeAll
from markdown_it.rules_block import StateBlock
from markdown_it.rules_inline import StateInline
from markdown_it.rules_inline import image as _image_rule
from markdown_it.rules_inline import link as _link_rule
from markdown_it.token import Token
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.front_matter import front_matter_plugin
from mdit_py_plugins.tasklists import tasklists_plugin

from .anchors import AnchorRegistry
from .model import (
    Align,
    Block,
    Blocks,
    CodeBlock,
    Columns,
    ContentRef,
    Details,
    Document,
    EmbedCard,
    Figure,
    FileBlock,
    Footnotes,
    Heading,
    Hint,
    HintStyle,
    HtmlBlock,
    Image,
    Include,
    ListBlock,
    ListItem,
    OpenAPICard,
    Paragraph,
    Quote,
    Rule,
    Span,
    Spans,
    Step,
    Stepper,
    Tab,
    Table,
    Tabs,
    UnknownBlock,
    Update,
    Updates,
    plain_text,
)
from .tags import TagInfo, TagTable, parse_attrs, preprocess

__all__ = ["parse"]

_log = logging.getLogger(__name__)

MAX_NESTING = 100
"""markdown-it's nesting limit (block and inline)."""
_DEPTH_LIMIT = MAX_NESTING - 10
"""Past this block depth the rest of a container is kept as plain text, never dropped."""
_ENV_KEY = "gitbook_tui.markdown.tags"

# ---------------------------------------------------------------------------
# markdown-it block rules


def _depth_guard_rule(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """Keep text past the nesting limit (markdown-it would silently skip it)."""
    if silent or state.level < _DEPTH_LIMIT:
        return False
    token = state.push("gitbook_raw", "", 0)
    token.content = state.getLines(start_line, end_line, max(state.blkIndent, 0), False)
    token.map = [start_line, end_line]
    state.line = end_line
    return True


def _gitbook_tag_rule(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """A line holding one ``{% tag %}`` / ``<details>`` marker found by the pre-pass."""
    table: TagTable | None = state.env.get(_ENV_KEY)
    if table is None:
        return False
    info = table.tags.get(start_line)
    if info is None or state.sCount[start_line] - state.blkIndent >= 4:
        return False
    pos = state.bMarks[start_line] + state.tShift[start_line]
    if pos >= state.eMarks[start_line] or state.src[pos] not in "{<":
        return False
    if silent:
        return True
    if info.end:  # a stray end tag (paired ones are consumed with their opener)
        state.line = start_line + 1
        return True
    close = table.closes.get(start_line)
    if close is not None and close >= end_line:
        close = None  # closes outside this container: unclosed here
    kind = info.kind
    if kind == "self-closing" or (kind == "optional" and close is None):
        token = state.push("gitbook_tag", "", 0)
        token.meta = {"tag": info}
        token.map = [start_line, start_line + 1]
        state.line = start_line + 1
        return True

    content_end = close if close is not None else end_line
    token = state.push("gitbook_open", "", 1)
    token.meta = {"tag": info}
    token.map = [start_line, content_end]
    old_line_max, old_parent, old_indent = state.lineMax, state.parentType, state.blkIndent
    state.lineMax = content_end
    state.parentType = "gitbook"
    state.blkIndent = max(state.sCount[start_line], 0)
    line = start_line + 1
    while line < content_end:
        state.md.block.tokenize(state, line, content_end)
        stopped = state.line
        if stopped >= content_end:
            break
        # Stopped on a line indented less than the tag: lower the indent, carry on.
        indent = state.sCount[stopped]
        if 0 <= indent < state.blkIndent:
            state.blkIndent = indent
            line = stopped
            continue
        raw = state.push("gitbook_raw", "", 0)
        raw.content = state.getLines(stopped, content_end, 0, False)
        break
    state.push("gitbook_close", "", -1)
    state.lineMax, state.parentType, state.blkIndent = old_line_max, old_parent, old_indent
    state.line = close + 1 if close is not None else content_end
    return True


_MAX_INNER_BRACKETS = 8
"""A ``[…]`` holding more ``[`` than this never starts a link label (see :func:`_may_start_label`)."""
_BRACKETS_ENV_KEY = "gitbook_tui.markdown.brackets"
_BRACKET_TOKEN_RE = re.compile(r"\\.|[\[\]]", re.DOTALL)


def _label_starts(src: str) -> set[int]:
    """Positions of the ``[`` in ``src`` with a matching ``]`` and few ``[`` in between."""
    starts: set[int] = set()
    stack: list[tuple[int, int]] = []  # (position, how many "[" came before it)
    opened = 0
    for m in _BRACKET_TOKEN_RE.finditer(src):
        ch = m.group()
        if ch == "[":
            stack.append((m.start(), opened))
            opened += 1
        elif ch == "]" and stack:
            pos, index = stack.pop()
            if opened - index - 1 <= _MAX_INNER_BRACKETS:
                starts.add(pos)
    return starts


def _may_start_label(state: StateInline, pos: int) -> bool:
    """Can the ``[`` at ``pos`` start a link label at all?

    markdown-it explores every ``[`` by scanning ahead for its label end, tens of
    microseconds per bracket and quadratic for unbalanced runs (``[[]``…), so a
    hostile page would take minutes. One linear pass per inline run finds the
    brackets that are balanced (escapes honoured) and do not hold an absurd number
    of other brackets; the link and image rules are skipped for the others, whose
    text stays literal.
    """
    src = state.src
    # id -> (src, starts); the src is held so that its id cannot be reused meanwhile
    cache: dict[int, tuple[str, set[int]]] = state.env.setdefault(_BRACKETS_ENV_KEY, {})
    entry = cache.get(id(src))
    if entry is None or entry[0] is not src:
        entry = cache[id(src)] = (src, _label_starts(src))
    return pos in entry[1]


def _guarded_link(state: StateInline, silent: bool) -> bool:
    if state.src[state.pos] != "[" or not _may_start_label(state, state.pos):
        return False
    return _link_rule(state, silent)


def _guarded_image(state: StateInline, silent: bool) -> bool:
    pos = state.pos
    if (
        state.src[pos] != "!"
        or pos + 1 >= state.posMax
        or state.src[pos + 1] != "["
        or not _may_start_label(state, pos + 1)
    ):
        return False
    return _image_rule(state, silent)


def _build_markdown_it() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"maxNesting": MAX_NESTING})
    md.enable(["table", "strikethrough"])
    md.use(front_matter_plugin)
    # GitBook has no ^[inline] footnotes; keep definitions in place so that
    # unreferenced ones are not thrown away (the tail is assembled here).
    md.use(footnote_plugin, inline=False, move_to_end=False)
    md.use(tasklists_plugin)
    md.block.ruler.before(
        "table",
        "gitbook_tag",
        _gitbook_tag_rule,
        {"alt": ["paragraph", "reference", "blockquote", "list"]},
    )
    md.block.ruler.before("front_matter", "gitbook_depth_guard", _depth_guard_rule)
    md.inline.ruler.at("link", _guarded_link)
    md.inline.ruler.at("image", _guarded_image)
    return md


_MD = _build_markdown_it()

# ---------------------------------------------------------------------------
# Inline content

_STYLE_NAMES = ("bold", "italic", "strike", "link", "code")
_STYLE_CACHE: dict[int, frozenset[str]] = {
    bits: frozenset(name for k, name in enumerate(_STYLE_NAMES) if bits & (1 << k))
    for bits in range(1 << len(_STYLE_NAMES))
}
_BOLD, _ITALIC, _STRIKE, _LINK, _CODE = (1 << k for k in range(len(_STYLE_NAMES)))
_FOOTNOTE_STYLE = frozenset({"footnote_ref"})

_HTML_TAG_NAME_RE = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)")
_HTML_ATTR_RE = re.compile(
    r"""([a-zA-Z_:][-a-zA-Z0-9_:.]*)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))"""
)
_HTML_STYLE_TAGS = {
    "b": _BOLD,
    "strong": _BOLD,
    "em": _ITALIC,
    "i": _ITALIC,
    "s": _STRIKE,
    "del": _STRIKE,
    "strike": _STRIKE,
    "code": _CODE,
}
_CHECKBOX_MARK = 'class="task-list-item-checkbox"'


def _html_attrs(tag: str) -> dict[str, str]:
    attrs: dict[str, str] = {}
    for m in _HTML_ATTR_RE.finditer(tag):
        name, dq, sq, bare = m.groups()
        value = dq if dq is not None else sq if sq is not None else bare
        attrs.setdefault(name.lower(), html.unescape(value or ""))
    return attrs


def _token_text(tokens: Sequence[Token] | None) -> str:
    """Plain text of inline tokens (for image alt text)."""
    if not tokens:
        return ""
    parts: list[str] = []
    for tok in tokens:
        if tok.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif tok.type == "image":
            parts.append(_token_text(tok.children))
        elif tok.type != "html_inline":
            parts.append(tok.content)
    return "".join(parts)


class _SpanBuilder:
    """Turns one inline token list into merged :class:`Span` runs."""

    __slots__ = ("_bits", "_buf", "_href", "_link_parts", "_links", "_out", "_stack")

    def __init__(self, links: list[tuple[str, str]]) -> None:
        self._links = links
        self._out: list[Span] = []
        self._buf: list[str] = []
        self._bits = 0
        self._href: str | None = None
        # (href, bits before, text parts, previous link parts) for every open link
        self._stack: list[tuple[str | None, int, list[str], list[str] | None]] = []
        self._link_parts: list[str] | None = None

    def _flush(self) -> None:
        if self._buf:
            text = "".join(self._buf)
            self._buf.clear()
            if text:
                self._out.append(Span(text, _STYLE_CACHE[self._bits], self._href))

    def _text(self, text: str) -> None:
        if text:
            self._buf.append(text)
            if self._link_parts is not None:
                self._link_parts.append(text)

    def _toggle(self, bit: int, on: bool) -> None:
        self._flush()
        if on:
            self._bits |= bit
        else:
            self._bits &= ~bit

    def _styled(self, text: str, extra: int) -> None:
        """A run with an extra style bit (inline code)."""
        self._flush()
        if text:
            self._out.append(Span(text, _STYLE_CACHE[self._bits | extra], self._href))
            if self._link_parts is not None:
                self._link_parts.append(text)

    def _open_link(self, href: str | None) -> None:
        self._flush()
        self._stack.append((self._href, self._bits, [], self._link_parts))
        self._link_parts = self._stack[-1][2]
        self._href = href
        self._bits |= _LINK

    def _close_link(self) -> None:
        if not self._stack:
            return
        self._flush()
        prev_href, prev_bits, parts, prev_parts = self._stack.pop()
        href = self._href
        if href is not None:
            text = "".join(parts).strip()
            self._links.append((text or href, href))
        if prev_parts is not None:
            prev_parts.extend(parts)
        self._link_parts = prev_parts
        self._href = prev_href
        self._bits = (self._bits & ~_LINK) | (prev_bits & _LINK)

    def _image(self, src: str, alt: str) -> None:
        """An image inside text: its alt text, linking to the image (or the enclosing link)."""
        if self._href is not None:
            self._text(alt or "image")
            return
        self._flush()
        self._out.append(Span(alt or "image", _STYLE_CACHE[self._bits | _LINK], src))

    def _html(self, content: str) -> None:
        if content.startswith("<!--") or content.startswith("<?"):
            return
        m = _HTML_TAG_NAME_RE.match(content)
        if m is None:
            self._text(content)  # not a tag after all (e.g. a declaration): keep it
            return
        closing, name = m.group(1) == "/", m.group(2).lower()
        if name == "br":
            self._text("\n")
        elif name == "img":
            attrs = _html_attrs(content)
            self._image(attrs.get("src", ""), attrs.get("alt", ""))
        elif name == "a":
            if closing:
                self._close_link()
            else:
                href = _html_attrs(content).get("href")
                self._open_link(href)
        elif name in _HTML_STYLE_TAGS:
            self._toggle(_HTML_STYLE_TAGS[name], not closing)
        # any other tag: dropped, its text content (separate tokens) is kept

    def build(self, children: Sequence[Token]) -> Spans:
        lstrip_next = False
        for tok in children:
            t = tok.type
            if t == "text":
                text = tok.content
                if lstrip_next:
                    text = text.lstrip()
                    lstrip_next = False
                self._text(text)
            elif t == "softbreak":
                self._text(" ")
            elif t == "hardbreak":
                self._text("\n")
            elif t == "code_inline":
                self._styled(tok.content, _CODE)
            elif t == "strong_open":
                self._toggle(_BOLD, True)
            elif t == "strong_close":
                self._toggle(_BOLD, False)
            elif t == "em_open":
                self._toggle(_ITALIC, True)
            elif t == "em_close":
                self._toggle(_ITALIC, False)
            elif t == "s_open":
                self._toggle(_STRIKE, True)
            elif t == "s_close":
                self._toggle(_STRIKE, False)
            elif t == "link_open":
                href = tok.attrGet("href")
                self._open_link(None if href is None else str(href))
            elif t == "link_close":
                self._close_link()
            elif t == "image":
                src = tok.attrGet("src")
                self._image("" if src is None else str(src), _token_text(tok.children))
            elif t == "html_inline":
                if _CHECKBOX_MARK in tok.content:
                    lstrip_next = True
                    continue
                self._html(tok.content)
            elif t == "footnote_ref":
                self._flush()
                meta = tok.meta or {}
                label = str(meta.get("label") or int(meta.get("id", 0)) + 1)
                self._out.append(Span(label, _FOOTNOTE_STYLE, None))
            elif t == "footnote_anchor":
                continue
            elif tok.content:
                self._text(tok.content)
        while self._stack:
            self._close_link()
        self._flush()
        return tuple(self._out)


# ---------------------------------------------------------------------------
# Raw HTML blocks

_FIGURE_OR_IMG_RE = re.compile(
    r"<figure\b.*?(?:</figure\s*>|\Z)|<img\b[^<>]*>?", re.IGNORECASE | re.DOTALL
)
_FIGCAPTION_RE = re.compile(
    r"<figcaption\b[^<>]*>(.*?)(?:</figcaption\s*>|\Z)", re.IGNORECASE | re.DOTALL
)
_IMG_RE = re.compile(r"<img\b[^<>]*>?", re.IGNORECASE)
_COMMENT_RE = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)
_LINE_BREAK_TAG_RE = re.compile(
    r"<(?:br|hr|/?(?:p|div|tr|li|ul|ol|h[1-6]|table|thead|tbody|tfoot|blockquote|pre|"
    r"figure|figcaption|details|summary|section|article|header|footer|nav|aside|dl|dt|dd))"
    r"\b[^<>]*>",
    re.IGNORECASE,
)
_CELL_TAG_RE = re.compile(r"</?t[dh]\b[^<>]*>", re.IGNORECASE)
_ANY_TAG_RE = re.compile(r"<[!?/]?[a-zA-Z][^<>]*>")
_BLANK_RUN_RE = re.compile(r"[ \t]+")


def strip_html(text: str) -> str:
    """Reduce HTML to readable plain text: tags and comments removed, entities decoded."""
    text = _COMMENT_RE.sub("", text)
    text = _LINE_BREAK_TAG_RE.sub("\n", text)
    text = _CELL_TAG_RE.sub(" ", text)
    text = _ANY_TAG_RE.sub("", text)
    text = html.unescape(text)
    lines = (_BLANK_RUN_RE.sub(" ", line).strip() for line in text.split("\n"))
    return "\n".join(line for line in lines if line)


# ---------------------------------------------------------------------------
# Token stream → blocks


@dataclass(frozen=True, slots=True)
class _Column:
    blocks: Blocks


@dataclass(frozen=True, slots=True)
class _Summary:
    spans: Spans
    extra: Blocks


_Part: TypeAlias = Tab | Step | _Column | Update | _Summary | ListItem
_Item: TypeAlias = Block | _Part
_P = TypeVar("_P", Tab, Step, _Column, Update)

_HINT_STYLES: dict[str, HintStyle] = {
    "info": "info",
    "note": "info",
    "success": "success",
    "tip": "success",
    "warning": "warning",
    "warn": "warning",
    "caution": "warning",
    "danger": "danger",
    "error": "danger",
}
_ALIGNS: dict[str, Align] = {
    "text-align:left": "left",
    "text-align:center": "center",
    "text-align:right": "right",
}
_OPENAPI_TAGS = {"openapi", "openapi-operation", "openapi-webhook", "swagger"}
_PART_TYPES = (Tab, Step, _Column, Update, _Summary, ListItem)


def _is_true(value: str | None) -> bool:
    return value is not None and value.strip().lower() in ("", "true", "yes", "1")


def _first(info: TagInfo, *keys: str) -> str:
    for key in keys:
        value = info.attrs.get(key)
        if value:
            return value
    return info.args[0] if info.args else ""


class _Converter:
    def __init__(self) -> None:
        self.anchors = AnchorRegistry()
        self.headings: list[tuple[int, str, str]] = []
        self.links: list[tuple[str, str]] = []
        self.footnote_defs: dict[str, list[Block]] = {}

    # -- inline -----------------------------------------------------------

    def spans(self, inline: Token) -> Spans:
        children = inline.children
        if not children:
            return (Span(inline.content),) if inline.content else ()
        if len(children) == 1 and children[0].type == "text":
            text = children[0].content
            return (Span(text),) if text else ()
        return _SpanBuilder(self.links).build(children)

    def _paragraph(self, inline: Token, out: list[_Item]) -> None:
        children = inline.children or ()
        if children and self._only_images(children):
            for tok in children:
                if tok.type == "image":
                    src, title = tok.attrGet("src"), tok.attrGet("title")
                    out.append(
                        Image(
                            "" if src is None else str(src),
                            _token_text(tok.children),
                            None if not title else str(title),
                        )
                    )
                elif tok.type == "html_inline":
                    attrs = _html_attrs(tok.content)
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
            if t == "image" or (t == "html_inline" and _IMG_RE.fullmatch(tok.content)):
                seen = True
            elif t in ("softbreak", "hardbreak") or (t == "text" and not tok.content.strip()):
                continue
            else:
                return False
        return seen

    # -- blocks -----------------------------------------------------------

    def items(self, toks: list[Token], i: int) -> tuple[list[_Item], int]:
        """Convert tokens from ``i`` up to the closing token of the current container."""
        out: list[_Item] = []
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
                title = plain_text(spans)
                anchor = self.anchors.anchor(title)
                self.headings.append((level, title, anchor))
                out.append(Heading(level, spans, anchor))
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
                out.append(Quote(self.finish(children)))
            elif t == "hr":
                out.append(Rule())
                i += 1
            elif t == "table_open":
                i = self._table(toks, i, out)
            elif t == "html_block":
                self._html_block(tok.content, out)
                i += 1
            elif t == "gitbook_open":
                links_before = len(self.links)
                children, i = self.items(toks, i + 1)
                out.extend(self._tag(tok.meta["tag"], children, links_before))
            elif t == "gitbook_tag":
                out.extend(self._tag(tok.meta["tag"], [], len(self.links)))
                i += 1
            elif t == "gitbook_raw":
                if tok.content.strip():
                    out.append(Paragraph((Span(tok.content.rstrip("\n")),)))
                i += 1
            elif t == "footnote_reference_open":
                label = str((tok.meta or {}).get("label", ""))
                children, i = self.items(toks, i + 1)
                self.footnote_defs.setdefault(label, []).extend(self.finish(children))
            elif t == "front_matter":
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

    def _fence(self, tok: Token) -> CodeBlock:
        info = unescapeAll(tok.info).strip() if tok.info else ""
        language: str | None = None
        title: str | None = None
        line_numbers = False
        if info:
            language, _, rest = info.partition(" ")
            language = language.strip("{}.") or None
            if "=" in rest:
                attrs, _args = parse_attrs(rest)
                title = attrs.get("title") or None
                line_numbers = _is_true(attrs.get("lineNumbers"))
        return CodeBlock(_strip_final_newline(tok.content), language, title, line_numbers)

    def _list(self, toks: list[Token], i: int, out: list[_Item]) -> int:
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
            elif isinstance(child, _PART_TYPES):
                items.append(ListItem(self.finish([child])))
            else:
                items.append(ListItem((child,)))
        out.append(ListBlock(ordered, start, tuple(items), tight))
        return i

    def _list_item(self, toks: list[Token], i: int, out: list[_Item]) -> int:
        tok = toks[i]
        checked: bool | None = None
        cls = tok.attrGet("class")
        if cls is not None and "task-list-item" in str(cls) and i + 2 < len(toks):
            inline = toks[i + 2]
            first = inline.children[0] if inline.type == "inline" and inline.children else None
            if (
                first is not None
                and first.type == "html_inline"
                and _CHECKBOX_MARK in first.content
            ):
                checked = 'checked="checked"' in first.content
        children, i = self.items(toks, i + 1)
        out.append(ListItem(self.finish(children), checked))
        return i

    def _table(self, toks: list[Token], i: int, out: list[_Item]) -> int:
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

    def _html_block(self, content: str, out: list[_Item]) -> None:
        lowered = content.lower()
        if "<img" not in lowered and "<figure" not in lowered:
            text = strip_html(content)
            if text:
                out.append(HtmlBlock(text))
            return
        pos = 0
        for m in _FIGURE_OR_IMG_RE.finditer(content):
            text = strip_html(content[pos : m.start()])
            if text:
                out.append(HtmlBlock(text))
            pos = m.end()
            chunk = m.group()
            if chunk[:4].lower() == "<img":
                attrs = _html_attrs(chunk)
                out.append(Image(attrs.get("src", ""), attrs.get("alt", ""), attrs.get("title")))
                continue
            img = _IMG_RE.search(chunk)
            cap = _FIGCAPTION_RE.search(chunk)
            if img is None and cap is None:  # e.g. a lone "<figure>" line: just text
                text = strip_html(chunk)
                if text:
                    out.append(HtmlBlock(text))
                continue
            attrs = _html_attrs(img.group()) if img else {}
            caption = self._html_fragment_spans(cap.group(1)) if cap is not None else ()
            out.append(Figure(attrs.get("src", ""), attrs.get("alt", ""), caption))
            # text in the figure outside <img>/<figcaption> is kept too
            rest = chunk
            if cap is not None:
                rest = rest[: cap.start()] + rest[cap.end() :]
            text = strip_html(_IMG_RE.sub("", rest))
            if text:
                out.append(HtmlBlock(text))
        text = strip_html(content[pos:])
        if text:
            out.append(HtmlBlock(text))

    def _html_fragment_spans(self, fragment: str) -> Spans:
        """Spans of a small HTML/markdown fragment (a figure caption)."""
        fragment = _LINE_BREAK_TAG_RE.sub(" ", fragment).strip()
        if not fragment:
            return ()
        tokens = _MD.parseInline(fragment, {})
        spans = self.spans(tokens[0]) if tokens else ()
        return _trim_spans(spans)

    # -- GitBook tags -----------------------------------------------------

    def _tag(self, info: TagInfo, children: list[_Item], links_before: int) -> list[_Item]:
        name = info.name
        if name == "hint":
            style = _HINT_STYLES.get(info.attrs.get("style", "info").strip().lower(), "info")
            return [Hint(style, self.finish(children))]
        if name == "tabs":
            tabs = self._group(children, Tab, lambda blocks: Tab("", blocks))
            return [Tabs(tuple(tabs))]
        if name == "tab":
            return [Tab(_first(info, "title"), self.finish(children))]
        if name == "stepper":
            steps = self._group(children, Step, lambda blocks: Step(None, blocks))
            return [Stepper(tuple(steps))]
        if name == "step":
            return [Step(info.attrs.get("title") or None, self.finish(children))]
        if name == "columns":
            columns = self._group(children, _Column, _Column)
            return [Columns(tuple(column.blocks for column in columns))]
        if name == "column":
            return [_Column(self.finish(children))]
        if name == "updates":
            updates = self._group(children, Update, lambda blocks: Update("", blocks))
            return [Updates(tuple(updates))]
        if name == "update":
            return [Update(_first(info, "date"), self.finish(children))]
        if name == "code":
            return self._code(info, children)
        if name in _OPENAPI_TAGS:
            kind: Literal["openapi", "swagger"] = "swagger" if name == "swagger" else "openapi"
            return [
                OpenAPICard(
                    src=_first(info, "src", "spec", "baseUrl"),
                    path=info.attrs.get("path") or info.attrs.get("name") or "",
                    method=info.attrs.get("method", ""),
                    blocks=self.finish(children),
                    kind=kind,
                )
            ]
        if name == "embed":
            url = _first(info, "url", "src")
            caption, rest = self._caption(children)
            self.links.insert(links_before, (plain_text(caption).strip() or url, url))
            return [EmbedCard(url, caption), *rest]
        if name == "file":
            caption, rest = self._caption(children)
            return [FileBlock(_first(info, "src", "url"), caption), *rest]
        if name == "content-ref":
            url = _first(info, "url", "src")
            caption, rest = self._caption(children)
            title = plain_text(caption).strip() or url
            if len(self.links) == links_before:
                self.links.append((title, url))
            return [ContentRef(url, title), *rest]
        if name == "include":
            return [Include(_first(info, "path", "src", "file"))]
        if name == "html:details":
            summary: Spans = ()
            blocks: list[_Item] = []
            found = False
            for child in children:
                if isinstance(child, _Summary) and not found:
                    summary, found = child.spans, True
                    blocks.extend(child.extra)
                else:
                    blocks.append(child)
            return [Details(summary, self.finish(blocks), "open" in info.attrs)]
        if name == "html:summary":
            spans, rest = self._caption(children, everything=True)
            return [_Summary(spans, self.finish(rest))]
        attrs = dict(info.attrs)
        for k, arg in enumerate(info.args):
            attrs.setdefault(f"arg{k}", arg)
        return [UnknownBlock(name, attrs, self.finish(children))]

    def _code(self, info: TagInfo, children: list[_Item]) -> list[_Item]:
        title = info.attrs.get("title") or None
        line_numbers = _is_true(info.attrs.get("lineNumbers"))
        out: list[_Item] = []
        for child in children:
            if isinstance(child, CodeBlock):
                child = replace(
                    child,
                    title=title or child.title,
                    line_numbers=line_numbers or child.line_numbers,
                )
            out.append(child)
        return out

    def _caption(
        self, children: list[_Item], everything: bool = False
    ) -> tuple[Spans, list[_Item]]:
        """Caption spans from leading text blocks; the other children are returned."""
        spans: list[Span] = []
        rest: list[_Item] = []
        taking = True
        for child in children:
            if taking and isinstance(child, Paragraph | Heading):
                if spans:
                    spans.append(Span(" "))
                spans.extend(child.spans)
                taking = everything
            elif taking and isinstance(child, HtmlBlock):
                if spans:
                    spans.append(Span(" "))
                spans.append(Span(child.text))
                taking = everything
            else:
                taking = False
                rest.append(child)
        return tuple(spans), rest

    def _group(
        self, children: list[_Item], part: type[_P], make: Callable[[Blocks], _P]
    ) -> list[_P]:
        parts: list[_P] = []
        stray: list[_Item] = []
        for child in children:
            if isinstance(child, part):
                if stray:
                    parts.append(make(self.finish(stray)))
                    stray = []
                parts.append(child)
            else:
                stray.append(child)
        if stray:
            parts.append(make(self.finish(stray)))
        return parts

    def finish(self, items: Sequence[_Item]) -> Blocks:
        """Blocks from converted items; orphan parts are grouped into their container."""
        blocks: list[Block] = []
        k = 0
        n = len(items)
        while k < n:
            item = items[k]
            if not isinstance(item, _PART_TYPES):
                blocks.append(item)
                k += 1
                continue
            kind = type(item)
            j = k
            while j < n and type(items[j]) is kind:
                j += 1
            run: Any = items[k:j]
            if kind is Tab:
                blocks.append(Tabs(tuple(run)))
            elif kind is Step:
                blocks.append(Stepper(tuple(run)))
            elif kind is _Column:
                blocks.append(Columns(tuple(c.blocks for c in run)))
            elif kind is Update:
                blocks.append(Updates(tuple(run)))
            elif kind is ListItem:
                blocks.append(ListBlock(False, 1, tuple(run)))
            else:  # a <summary> outside <details>
                for summary in run:
                    if summary.spans:
                        blocks.append(Paragraph(summary.spans))
                    blocks.extend(summary.extra)
            k = j
        return tuple(blocks)

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


def _strip_final_newline(code: str) -> str:
    return code[:-1] if code.endswith("\n") else code


def _trim_spans(spans: Spans) -> Spans:
    if not spans:
        return spans
    out = list(spans)
    out[0] = replace(out[0], text=out[0].text.lstrip())
    out[-1] = replace(out[-1], text=out[-1].text.rstrip())
    return tuple(span for span in out if span.text)


# ---------------------------------------------------------------------------
# Entry point


def _parse(markdown: str) -> Document:
    src, table = preprocess(markdown)
    env: dict[str, Any] = {_ENV_KEY: table}
    tokens = _MD.parse(src, env)
    conv = _Converter()
    items: list[_Item] = []
    i = 0
    while i < len(tokens):
        chunk, i = conv.items(tokens, i)
        items.extend(chunk)
    blocks = conv.finish(items)
    footnotes = conv.footnotes(env)
    if footnotes is not None:
        blocks = (*blocks, footnotes)
    return Document(blocks, tuple(conv.headings), tuple(conv.links))


_GC_PAUSE_THRESHOLD = 64 * 1024
"""Inputs at least this long are parsed with the cyclic GC paused (see :func:`parse`)."""


def parse(markdown: str) -> Document:
    """Parse GitBook-flavoured markdown into a :class:`Document`. Never raises.

    Large inputs allocate hundreds of thousands of short-lived, acyclic token
    objects, which makes CPython's cyclic collector run over and over for no
    gain (it doubles the parse time of a 1 MB page), so it is paused meanwhile
    and restored afterwards; reference counting still frees everything.

    Should the parser itself fail on some input (a bug), the text comes back as
    one plain paragraph instead, so the page stays readable.
    """
    pause_gc = len(markdown) >= _GC_PAUSE_THRESHOLD and gc.isenabled()
    if pause_gc:
        gc.disable()
    try:
        return _parse(markdown)
    except Exception:  # pragma: no cover - defensive; the tests exercise _parse directly
        _log.exception("markdown parse failed; showing the page as plain text")
        return Document((Paragraph((Span(markdown),)),) if markdown else ())
    finally:
        if pause_gc:
            gc.enable()
