"""Raw HTML blocks → blocks: ``<figure>``/``<img>`` become images, the rest readable text."""

from __future__ import annotations

import html
import re

from .inline import html_attrs, spans_of, trim_spans
from .model import Block, Figure, HtmlBlock, Image, Spans
from .rules import MD

__all__ = ["IMG_RE", "html_block", "strip_html"]

_FIGURE_OR_IMG_RE = re.compile(
    r"<figure\b.*?(?:</figure\s*>|\Z)|<img\b[^<>]*>?", re.IGNORECASE | re.DOTALL
)
_FIGCAPTION_RE = re.compile(
    r"<figcaption\b[^<>]*>(.*?)(?:</figcaption\s*>|\Z)", re.IGNORECASE | re.DOTALL
)
IMG_RE = re.compile(r"<img\b[^<>]*>?", re.IGNORECASE)
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


def _add_text(html_text: str, out: list[Block]) -> None:
    """Append the readable text of ``html_text`` (if any) as an :class:`HtmlBlock`."""
    text = strip_html(html_text)
    if text:
        out.append(HtmlBlock(text))


def html_block(content: str, links: list[tuple[str, str]]) -> list[Block]:
    """Blocks of one raw HTML block (the links of a figure caption go to ``links``)."""
    out: list[Block] = []
    lowered = content.lower()
    if "<img" not in lowered and "<figure" not in lowered:
        _add_text(content, out)
        return out
    pos = 0
    for m in _FIGURE_OR_IMG_RE.finditer(content):
        _add_text(content[pos : m.start()], out)
        pos = m.end()
        chunk = m.group()
        if chunk[:4].lower() == "<img":
            attrs = html_attrs(chunk)
            out.append(Image(attrs.get("src", ""), attrs.get("alt", ""), attrs.get("title")))
            continue
        img = IMG_RE.search(chunk)
        cap = _FIGCAPTION_RE.search(chunk)
        if img is None and cap is None:  # e.g. a lone "<figure>" line: just text
            _add_text(chunk, out)
            continue
        attrs = html_attrs(img.group()) if img else {}
        caption = _fragment_spans(cap.group(1), links) if cap is not None else ()
        out.append(Figure(attrs.get("src", ""), attrs.get("alt", ""), caption))
        # text in the figure outside <img>/<figcaption> is kept too
        rest = chunk
        if cap is not None:
            rest = rest[: cap.start()] + rest[cap.end() :]
        _add_text(IMG_RE.sub("", rest), out)
    _add_text(content[pos:], out)
    return out


def _fragment_spans(fragment: str, links: list[tuple[str, str]]) -> Spans:
    """Spans of a small HTML/markdown fragment (a figure caption)."""
    fragment = _LINE_BREAK_TAG_RE.sub(" ", fragment).strip()
    if not fragment:
        return ()
    tokens = MD.parseInline(fragment, {})
    spans = spans_of(tokens[0], links) if tokens else ()
    return trim_spans(spans)
