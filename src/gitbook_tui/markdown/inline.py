"""Inline tokens → merged :class:`~.model.Span` runs (emphasis, links, inline HTML, images)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from markdown_it.token import Token

from .html_tree import Element, parse_tag
from .model import Span, Spans

__all__ = [
    "CHECKBOX_MARK",
    "SpanBuilder",
    "html_attrs",
    "icon_name",
    "spans_of",
    "token_text",
    "trim_spans",
]

_STYLE_NAMES = ("bold", "italic", "strike", "link", "code", "kbd", "mark", "button", "mention")
_STYLE_CACHE: dict[int, frozenset[str]] = {
    bits: frozenset(name for k, name in enumerate(_STYLE_NAMES) if bits & (1 << k))
    for bits in range(1 << len(_STYLE_NAMES))
}
_BOLD, _ITALIC, _STRIKE, _LINK, _CODE, _KBD, _MARK, _BUTTON, _MENTION = (
    1 << k for k in range(len(_STYLE_NAMES))
)
_FOOTNOTE_STYLE = frozenset({"footnote_ref"})
_ICON_STYLE = frozenset({"icon"})
_MATH_STYLE = frozenset({"math"})

_HTML_STYLE_TAGS = {
    "b": _BOLD,
    "strong": _BOLD,
    "em": _ITALIC,
    "i": _ITALIC,
    "s": _STRIKE,
    "del": _STRIKE,
    "strike": _STRIKE,
    "code": _CODE,
    "kbd": _KBD,
    "mark": _MARK,
    "button": _BUTTON,
}
CHECKBOX_MARK = 'class="task-list-item-checkbox"'
# Font Awesome classes that say how an icon is drawn, not which icon it is.
_ICON_MODIFIERS = frozenset(
    {"fa-solid", "fa-regular", "fa-light", "fa-thin", "fa-duotone", "fa-brands", "fa-sharp"}
    | {"fa-fw", "fa-lg", "fa-xl", "fa-2x", "fa-3x", "fa-xs", "fa-sm", "fa-spin", "fa-border"}
)


def html_attrs(tag: str) -> dict[str, str]:
    """The attributes of one start tag (names lowercased, entities decoded)."""
    element = parse_tag(tag)
    return element.attrs if element is not None else {}


def icon_name(element: Element) -> str | None:
    """The icon an ``<i class="fa-…">`` element names (``"github"``), else ``None``."""
    if element.tag != "i":
        return None
    for name in element.classes:
        if name.startswith("fa-") and name not in _ICON_MODIFIERS and len(name) > 3:
            return name[3:]
    return None


def _tag_name(content: str) -> tuple[bool, str] | None:
    """``(closing, name)`` of an inline HTML tag token, ``None`` if it is no tag."""
    if len(content) < 3 or content[0] != "<":
        return None
    closing = content[1] == "/"
    start = 2 if closing else 1
    end = start
    while end < len(content) and (content[end].isalnum() or content[end] == "-"):
        end += 1
    if end == start or not content[start].isalpha():
        return None
    return closing, content[start:end].lower()


def token_text(tokens: Sequence[Token] | None) -> str:
    """Plain text of inline tokens (for image alt text)."""
    if not tokens:
        return ""
    parts: list[str] = []
    for tok in tokens:
        if tok.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif tok.type == "image":
            parts.append(token_text(tok.children))
        elif tok.type != "html_inline":
            parts.append(tok.content)
    return "".join(parts)


class SpanBuilder:
    """Turns one inline token list into merged :class:`Span` runs."""

    __slots__ = ("_bits", "_buf", "_href", "_in_icon", "_link_parts", "_links", "_out", "_stack")

    def __init__(self, links: list[tuple[str, str]]) -> None:
        self._links = links
        self._out: list[Span] = []
        self._buf: list[str] = []
        self._bits = 0
        self._href: str | None = None
        # (href, bits before, text parts, previous link parts) for every open link
        self._stack: list[tuple[str | None, int, list[str], list[str] | None]] = []
        self._link_parts: list[str] | None = None
        self._in_icon = False

    def _flush(self) -> None:
        if self._buf:
            text = "".join(self._buf)
            self._buf.clear()
            if text:
                self._out.append(Span(text, _STYLE_CACHE[self._bits], self._href))

    def _text(self, text: str) -> None:
        if text and not self._in_icon:
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

    def _open_link(self, href: str | None, extra: int = 0) -> None:
        self._flush()
        self._stack.append((self._href, self._bits, [], self._link_parts))
        self._link_parts = self._stack[-1][2]
        self._href = href
        self._bits |= _LINK | extra

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
        link_bits = _LINK | _MENTION | _BUTTON
        self._bits = (self._bits & ~link_bits) | (prev_bits & link_bits)

    def icon(self, name: str) -> None:
        """A Font Awesome icon: one span holding its name."""
        self._flush()
        self._out.append(Span(name, _ICON_STYLE | _STYLE_CACHE[self._bits], self._href))

    def math(self, tex: str) -> None:
        self._flush()
        if tex.strip():
            self._out.append(Span(tex.strip(), _MATH_STYLE, None))
            if self._link_parts is not None:
                self._link_parts.append(tex)

    def text(self, text: str) -> None:
        """Plain text (from an HTML element tree)."""
        self._text(text)

    def add(self, span: Span) -> None:
        """A finished span (e.g. a list flattened into a table cell)."""
        self._flush()
        self._out.append(span)

    def start(self, element: Element) -> None:
        """An element opens (inline HTML, from a token or an element tree)."""
        name = element.tag
        if name == "br":
            self._text("\n")
        elif name == "img":
            attrs = element.attrs
            self._image(attrs.get("src", ""), attrs.get("alt", ""))
        elif name == "a":
            extra = _MENTION if element.has("data-mention") else 0
            if "button" in element.classes:
                extra |= _BUTTON
            self._open_link(element.get("href"), extra)
        elif name == "i" and (icon := icon_name(element)) is not None:
            self.icon(icon)
            self._in_icon = True  # its text (":github:") is the icon's fallback: dropped
        elif name in _HTML_STYLE_TAGS:
            self._toggle(_HTML_STYLE_TAGS[name], True)
        # any other tag: dropped, its text content is kept

    def end(self, name: str) -> None:
        """An element named ``name`` closes."""
        if name == "a":
            self._close_link()
        elif name == "i" and self._in_icon:
            self._in_icon = False
        elif name in _HTML_STYLE_TAGS:
            self._toggle(_HTML_STYLE_TAGS[name], False)

    def spans(self) -> Spans:
        """The spans built so far (open links are closed)."""
        while self._stack:
            self._close_link()
        self._flush()
        return tuple(self._out)

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
        tag = _tag_name(content)
        if tag is None:
            self._text(content)  # not a tag after all (e.g. a declaration): keep it
            return
        closing, name = tag
        if closing:
            self.end(name)
            return
        if name in _HTML_STYLE_TAGS and name != "i":
            self.start(Element(name))  # their attributes (e.g. a mark's colour) do not matter
            return
        element = parse_tag(content)
        if element is not None:
            self.start(element)
            if content.endswith("/>") and name not in ("br", "img"):
                self.end(name)

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
                self._image("" if src is None else str(src), token_text(tok.children))
            elif t == "html_inline":
                if CHECKBOX_MARK in tok.content:
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
            elif t == "math_inline" or t == "math_inline_double":
                self.math(tok.content)
            elif tok.content:
                self._text(tok.content)
        return self.spans()


def spans_of(inline: Token, links: list[tuple[str, str]]) -> Spans:
    """Spans of one ``inline`` token; the links found are appended to ``links``."""
    children = inline.children
    if not children:
        return (Span(inline.content),) if inline.content else ()
    if len(children) == 1 and children[0].type == "text":
        text = children[0].content
        return (Span(text),) if text else ()
    return SpanBuilder(links).build(children)


def trim_spans(spans: Spans) -> Spans:
    if not spans:
        return spans
    out = list(spans)
    out[0] = replace(out[0], text=out[0].text.lstrip())
    out[-1] = replace(out[-1], text=out[-1].text.rstrip())
    return tuple(span for span in out if span.text)
