"""HTML ``<table>`` elements → tables, or cards for GitBook's card tables (target and cover
columns)."""

from __future__ import annotations

from collections.abc import Callable

from .html_tree import Element, text_of
from .model import Align, Card, Cards, Spans, Table

CellReader = Callable[[Element], Spans]
"""Reads one cell's content as spans (the converter's inline reader)."""

_ALIGNS: dict[str, Align] = {"left": "left", "center": "center", "right": "right"}


def table_block(element: Element, read_cell: CellReader) -> Table | Cards:
    """A ``<table>`` as a table (hidden columns dropped, alignment kept) or, for GitBook's
    ``data-view="cards"``, as cards."""
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
        return _cards(header_cells, body, read_cell)
    hidden = {k for k, cell in enumerate(header_cells) if cell.has("data-hidden")}
    header = tuple(read_cell(cell) for k, cell in enumerate(header_cells) if k not in hidden)
    aligns = tuple(_align(cell) for k, cell in enumerate(header_cells) if k not in hidden)
    rows = tuple(
        tuple(read_cell(cell) for k, cell in enumerate(_cells(tr)) if k not in hidden)
        for tr in body
    )
    if not any(header):
        header, aligns = (), tuple(_align(cell) for cell in _cells(body[0])) if body else ()
    return Table(header, rows, aligns)


def _cards(header: list[Element], body: list[Element], read_cell: CellReader) -> Cards:
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
                spans = read_cell(cell)
                if spans:
                    texts.append(spans)
        title = texts[0] if texts else ()
        cards.append(Card(title, tuple(texts[1:]), target, cover))
    return Cards(tuple(cards))


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
