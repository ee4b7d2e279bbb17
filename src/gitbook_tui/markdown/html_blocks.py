"""Raw HTML blocks → blocks: the HTML GitBook writes (tables, card tables, ``<pre>`` code,
figures, lists…) read with an HTML parser into the same blocks as their markdown forms.

Tables live in :mod:`.html_tables`, ``<pre>`` code in :mod:`.html_code`, text helpers
(tidying, flattening, :func:`strip_html`) in :mod:`.html_text`."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from .html_code import code_block
from .html_tables import table_block
from .html_text import BLOCK_TAGS, WHITESPACE_RE, flatten, strip_html, tidy
from .html_tree import Element, Node, parse_fragment, parse_tag
from .inline import SpanBuilder, icon_name
from .model import (
    Block,
    Details,
    Figure,
    Heading,
    HtmlBlock,
    Image,
    ListBlock,
    ListItem,
    Paragraph,
    Quote,
    Rule,
    Span,
    Spans,
    plain_text,
)

__all__ = ["HeadingMaker", "cell_spans", "html_block", "is_img_tag", "strip_html"]

HeadingMaker = Callable[[int, Spans], Heading]
"""Makes a heading with a unique anchor (the converter's, so the outline lists it)."""


def is_img_tag(content: str) -> bool:
    """Whether one inline HTML token is an ``<img>`` tag."""
    if content[:4].lower() != "<img":
        return False
    element = parse_tag(content)
    return element is not None and element.tag == "img"


def _default_heading(level: int, spans: Spans) -> Heading:
    from .anchors import slugify

    return Heading(level, spans, slugify(plain_text(spans)))


class _Converter:
    """One HTML fragment's element tree → blocks."""

    def __init__(self, links: list[tuple[str, str]], heading: HeadingMaker | None) -> None:
        self.links = links
        self.heading = heading or _default_heading

    # -- inline ----------------------------------------------------------------------

    def spans(self, nodes: Iterable[Node]) -> Spans:
        builder = SpanBuilder(self.links)
        self._inline(builder, nodes)
        return tidy(builder.spans())

    def _inline(self, builder: SpanBuilder, nodes: Iterable[Node]) -> None:
        for node in nodes:
            if isinstance(node, str):
                builder.text(WHITESPACE_RE.sub(" ", node))
                continue
            tag = node.tag
            if tag == "br" or tag == "img":
                builder.start(node)
            elif tag == "i" and (icon := icon_name(node)) is not None:
                builder.icon(icon)
            elif tag in BLOCK_TAGS:
                # a block inside inline content (a list in a cell…): its own line(s)
                builder.text("\n")
                for span in flatten(self.blocks([node])):
                    builder.add(span)
                builder.text("\n")
            else:
                builder.start(node)
                self._inline(builder, node.children)
                builder.end(tag)

    # -- blocks ----------------------------------------------------------------------

    def blocks(self, nodes: Sequence[Node]) -> list[Block]:
        out: list[Block] = []
        run: list[Node] = []
        for node in nodes:
            if isinstance(node, str) or node.tag not in BLOCK_TAGS:
                run.append(node)
                continue
            self._flush(run, out)
            run = []
            self._block(node, out)
        self._flush(run, out)
        return out

    def _flush(self, run: list[Node], out: list[Block]) -> None:
        if not run:
            return
        images = [n for n in run if isinstance(n, Element)]
        only_images = images and all(n.tag == "img" for n in images)
        if only_images and all(isinstance(n, Element) or not n.strip() for n in run):
            for image in images:
                attrs = image.attrs
                out.append(Image(attrs.get("src", ""), attrs.get("alt", ""), attrs.get("title")))
            return
        spans = self.spans(run)
        if spans:
            out.append(Paragraph(spans))

    def _block(self, element: Element, out: list[Block]) -> None:
        tag = element.tag
        if tag == "table":
            out.append(table_block(element, self.cell))
        elif tag == "pre":
            out.append(code_block(element))
        elif tag == "figure":
            out.extend(self.figure(element))
        elif tag in ("ul", "ol"):
            out.append(self.list_block(element))
        elif tag == "li":
            out.append(ListBlock(False, 1, (ListItem(tuple(self.blocks(element.children))),)))
        elif len(tag) == 2 and tag[0] == "h" and tag[1].isdigit():
            spans = self.spans(element.children)
            if spans:
                out.append(self.heading(int(tag[1]), spans))
        elif tag == "blockquote":
            out.append(Quote(tuple(self.blocks(element.children))))
        elif tag == "hr":
            out.append(Rule())
        elif tag == "details":
            out.append(self.details(element))
        elif tag == "dt":
            spans = self.spans(element.children)
            if spans:
                out.append(
                    Paragraph(tuple(Span(s.text, s.style | {"bold"}, s.href) for s in spans))
                )
        else:  # p, div, section, summary outside details, dd…: their content
            out.extend(self.blocks(element.children))

    def list_block(self, element: Element) -> ListBlock:
        items: list[ListItem] = []
        stray: list[Node] = []

        def flush_stray() -> None:
            blocks = self.blocks(stray) if stray else []
            if blocks:
                items.append(ListItem(tuple(blocks)))
            stray.clear()

        for child in element.children:
            if isinstance(child, Element) and child.tag == "li":
                flush_stray()
                checkbox = _shallow(child, "input")
                checked: bool | None = None
                if checkbox is not None and checkbox.get("type") == "checkbox":
                    checked = checkbox.has("checked")
                items.append(ListItem(tuple(self.blocks(child.children)), checked))
            elif not isinstance(child, str) or child.strip():
                stray.append(child)
        flush_stray()
        start = 1
        if element.tag == "ol":
            try:
                start = int(element.get("start") or 1)
            except ValueError:
                start = 1
        return ListBlock(element.tag == "ol", start, tuple(items))

    def details(self, element: Element) -> Details:
        summary: Spans = ()
        rest: list[Node] = []
        for child in element.children:
            if isinstance(child, Element) and child.tag == "summary" and not summary:
                summary = self.spans(child.children)
            else:
                rest.append(child)
        return Details(summary, tuple(self.blocks(rest)), element.has("open"))

    def figure(self, element: Element) -> list[Block]:
        image = _shallow(element, "img")
        caption_el = _shallow(element, "figcaption")
        if image is None and caption_el is None:
            return self.blocks(element.children)
        caption = self.spans(caption_el.children) if caption_el is not None else ()
        attrs = image.attrs if image is not None else {}
        out: list[Block] = [Figure(attrs.get("src", ""), attrs.get("alt", ""), caption)]
        rest = [
            child
            for child in element.children
            if not (isinstance(child, Element) and child.tag in ("img", "figcaption", "picture"))
        ]
        out.extend(self.blocks(rest))
        return out

    def cell(self, element: Element) -> Spans:
        return tidy(self.spans(element.children))


def _shallow(element: Element, tag: str) -> Element | None:
    """A child named ``tag``, or a grandchild inside a wrapper (``<picture>``, ``<a>``,
    ``<p>``): figures are shallow, and a deep search would be quadratic on nested ones."""
    for child in element.elements():
        if child.tag == tag:
            return child
    for child in element.elements():
        if child.tag in ("picture", "a", "p", "div", "span"):
            for grandchild in child.elements():
                if grandchild.tag == tag:
                    return grandchild
    return None


def cell_spans(html: str, links: list[tuple[str, str]]) -> Spans:
    """Spans of a small HTML fragment (a caption)."""
    converter = _Converter(links, None)
    return tidy(converter.spans(parse_fragment(html).children))


def html_block(
    content: str, links: list[tuple[str, str]], heading: HeadingMaker | None = None
) -> list[Block]:
    """Blocks of one raw HTML block (links found go to ``links``)."""
    root = parse_fragment(content)
    blocks = _Converter(links, heading).blocks(root.children)
    if not blocks and content.strip() and not content.lstrip().startswith("<!--"):
        text = strip_html(content)
        if text:
            blocks.append(HtmlBlock(text))
    return blocks
