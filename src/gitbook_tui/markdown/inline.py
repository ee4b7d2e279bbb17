"""Inline tokens → merged :class:`~.model.Span` runs (emphasis, links, inline HTML, images)."""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import replace

from markdown_it.token import Token

from .model import Span, Spans

__all__ = ["CHECKBOX_MARK", "SpanBuilder", "html_attrs", "spans_of", "token_text", "trim_spans"]

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
CHECKBOX_MARK = 'class="task-list-item-checkbox"'


def html_attrs(tag: str) -> dict[str, str]:
    attrs: dict[str, str] = {}
    for m in _HTML_ATTR_RE.finditer(tag):
        name, dq, sq, bare = m.groups()
        value = dq if dq is not None else sq if sq is not None else bare
        attrs.setdefault(name.lower(), html.unescape(value or ""))
    return attrs


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
            attrs = html_attrs(content)
            self._image(attrs.get("src", ""), attrs.get("alt", ""))
        elif name == "a":
            if closing:
                self._close_link()
            else:
                href = html_attrs(content).get("href")
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
            elif tok.content:
                self._text(tok.content)
        while self._stack:
            self._close_link()
        self._flush()
        return tuple(self._out)


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
