"""Raw HTML blocks → blocks: the HTML GitBook writes (tables, card tables, ``<pre>`` code,
figures, lists…) read with an HTML parser into the same blocks as their markdown forms."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from .html_tree import Element, Node, parse_fragment, parse_tag, text_of
from .inline import SpanBuilder, icon_name
from .model import (
    Align,
    Block,
    Card,
    Cards,
    CodeBlock,
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
    Table,
    child_blocks,
    plain_text,
)

__all__ = ["HeadingMaker", "cell_spans", "html_block", "is_img_tag", "strip_html"]

HeadingMaker = Callable[[int, Spans], Heading]
"""Makes a heading with a unique anchor (the converter's, so the outline lists it)."""

_WHITESPACE_RE = re.compile(r"[ \t\r\n\f\v]+")
_BREAK_RE = re.compile(r" *\n[ \n]*")
_BLOCK_TAGS = frozenset(
    {"p", "div", "section", "article", "main", "header", "footer", "aside", "nav", "table"}
    | {"pre", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "hr", "figure"}
    | {"details", "summary", "dl", "dt", "dd", "li", "tr", "thead", "tbody", "picture"}
    | {"center", "form", "fieldset", "address", "figcaption"}
)
_ALIGNS: dict[str, Align] = {"left": "left", "center": "center", "right": "right"}
_TRUE = frozenset({"", "true", "yes", "1"})


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
        return _tidy(builder.spans())

    def _inline(self, builder: SpanBuilder, nodes: Iterable[Node]) -> None:
        for node in nodes:
            if isinstance(node, str):
                builder.text(_WHITESPACE_RE.sub(" ", node))
                continue
            tag = node.tag
            if tag == "br" or tag == "img":
                builder.start(node)
            elif tag == "i" and (icon := icon_name(node)) is not None:
                builder.icon(icon)
            elif tag in _BLOCK_TAGS:
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
            if isinstance(node, str) or node.tag not in _BLOCK_TAGS:
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
            out.append(self.table(element))
        elif tag == "pre":
            out.append(self.pre(element))
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

    # -- <pre> -----------------------------------------------------------------------

    def pre(self, element: Element) -> CodeBlock:
        code = element.find("code")
        language = _language(element.classes) or (_language(code.classes) if code else None)
        parts: list[str] = []
        marked: list[tuple[int, int]] = []  # character ranges inside <strong>/<mark>
        _code_text(
            code if code is not None and _only_child(element, code) else element,
            parts,
            marked,
            False,
        )
        text = "".join(parts)
        if text.endswith("\n"):
            text = text[:-1]
        highlighted: set[int] = set()
        for start, end in marked:
            chunk = text[start:end].rstrip("\n")
            if chunk:
                first = text.count("\n", 0, start) + 1
                highlighted.update(range(first, first + chunk.count("\n") + 1))
        numbers = element.get("data-line-numbers")
        return CodeBlock(
            text,
            language,
            (element.get("data-title") or "").strip() or None,
            numbers is not None and numbers.strip().lower() in _TRUE,
            (element.get("data-full-width") or "").strip().lower() == "true",
            frozenset(highlighted),
        )

    # -- tables ----------------------------------------------------------------------

    def table(self, element: Element) -> Table | Cards:
        head: list[Element] = []
        body: list[Element] = []
        for child in element.elements():
            if child.tag == "thead":
                head.extend(tr for tr in child.elements() if tr.tag == "tr")
            elif child.tag in ("tbody", "tfoot"):
                body.extend(tr for tr in child.elements() if tr.tag == "tr")
            elif child.tag == "tr":
                body.append(child)
        if not head and body and all(c.tag == "th" for c in _cells(body[0])):
            head, body = body[:1], body[1:]
        header_cells = _cells(head[0]) if head else []
        if element.get("data-view") == "cards":
            return self.cards(header_cells, body)
        hidden = {k for k, cell in enumerate(header_cells) if cell.has("data-hidden")}
        header = tuple(self.cell(cell) for k, cell in enumerate(header_cells) if k not in hidden)
        aligns = tuple(_align(cell) for k, cell in enumerate(header_cells) if k not in hidden)
        rows = tuple(
            tuple(self.cell(cell) for k, cell in enumerate(_cells(tr)) if k not in hidden)
            for tr in body
        )
        if not any(header):
            header, aligns = (), tuple(_align(cell) for cell in _cells(body[0])) if body else ()
        return Table(header, rows, aligns)

    def cell(self, element: Element) -> Spans:
        return _tidy(self.spans(element.children))

    def cards(self, header: list[Element], body: list[Element]) -> Cards:
        target_col = next((k for k, c in enumerate(header) if c.has("data-card-target")), None)
        cover_col = next((k for k, c in enumerate(header) if c.has("data-card-cover")), None)
        skip = {
            k for k, c in enumerate(header) if c.has("data-hidden") or c.has("data-card-cover-dark")
        }
        cards: list[Card] = []
        for tr in body:
            cells = _cells(tr)
            texts: list[Spans] = []
            target = cover = None
            for k, cell in enumerate(cells):
                if k == target_col:
                    target = _reference(cell)
                elif k == cover_col:
                    cover = _reference(cell)
                elif k not in skip:
                    spans = self.cell(cell)
                    if spans:
                        texts.append(spans)
            title = texts[0] if texts else ()
            cards.append(Card(title, tuple(texts[1:]), target, cover))
        return Cards(tuple(cards))


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


def _cells(tr: Element) -> list[Element]:
    return [cell for cell in tr.elements() if cell.tag in ("td", "th")]


def _align(cell: Element) -> Align:
    value = (cell.get("align") or "").strip().lower()
    if not value:
        style = (cell.get("style") or "").replace(" ", "").lower()
        if "text-align:" in style:
            value = style.split("text-align:", 1)[1].split(";", 1)[0]
    return _ALIGNS.get(value)


def _reference(cell: Element) -> str | None:
    """A card's target or cover: the cell's link, image or text."""
    link = cell.find("a")
    if link is not None and link.get("href"):
        return link.get("href")
    image = cell.find("img")
    if image is not None and image.get("src"):
        return image.get("src")
    text = text_of(cell).strip()
    return text or None


def _language(classes: list[str]) -> str | None:
    for name in classes:
        for prefix in ("language-", "lang-"):
            if name.startswith(prefix) and len(name) > len(prefix):
                return name[len(prefix) :]
    return None


def _only_child(parent: Element, child: Element) -> bool:
    """Whether ``child`` holds all of ``parent``'s text (``<pre><code>…</code></pre>``)."""
    return all(
        node is child or (isinstance(node, str) and not node.strip()) for node in parent.children
    )


def _code_text(
    node: Element, parts: list[str], marked: list[tuple[int, int]], inside: bool
) -> None:
    """The text of code, as written; ranges inside ``<strong>``/``<mark>`` (GitBook's
    highlighted lines) go to ``marked``."""
    for child in node.children:
        if isinstance(child, str):
            if inside:
                start = sum(len(p) for p in parts)
                marked.append((start, start + len(child)))
            parts.append(child)
        elif child.tag == "br":
            parts.append("\n")
        else:
            _code_text(child, parts, marked, inside or child.tag in ("strong", "mark", "b"))


def _tidy(spans: Spans) -> Spans:
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


def cell_spans(html: str, links: list[tuple[str, str]]) -> Spans:
    """Spans of a small HTML fragment (a caption)."""
    converter = _Converter(links, None)
    return _tidy(converter.spans(parse_fragment(html).children))


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


def strip_html(text: str) -> str:
    """Reduce HTML to readable plain text: tags and comments removed, entities decoded,
    block elements on lines of their own."""
    parts: list[str] = []

    def walk(node: Node) -> None:
        if isinstance(node, str):
            parts.append(node)
            return
        block = node.tag in _BLOCK_TAGS or node.tag == "br"
        if block:
            parts.append("\n")
        if node.tag in ("td", "th"):
            parts.append(" ")
        for child in node.children:
            walk(child)
        if block:
            parts.append("\n")

    walk(parse_fragment(text))
    lines = (_WHITESPACE_RE.sub(" ", line).strip() for line in "".join(parts).split("\n"))
    return "\n".join(line for line in lines if line)
