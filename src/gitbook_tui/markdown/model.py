"""Immutable block model of a parsed GitBook page, ready for a windowed terminal viewer.

Inline text (:class:`Span`, :data:`STYLES`) lives in :mod:`.spans` and is re-exported here."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

from .spans import STYLES, Cell, Span, Spans, plain_text

__all__ = [
    "STYLES",
    "Align",
    "Block",
    "Blocks",
    "Card",
    "Cards",
    "Cell",
    "CodeBlock",
    "Columns",
    "Conditional",
    "ContentRef",
    "Details",
    "Document",
    "EmbedCard",
    "Figure",
    "FileBlock",
    "Footnotes",
    "Heading",
    "Hint",
    "HintStyle",
    "HtmlBlock",
    "Image",
    "Include",
    "ListBlock",
    "ListItem",
    "MathBlock",
    "Notice",
    "OpenAPICard",
    "Paragraph",
    "Quote",
    "Rule",
    "Span",
    "Spans",
    "Step",
    "Stepper",
    "Tab",
    "Table",
    "Tabs",
    "UnknownBlock",
    "Update",
    "Updates",
    "child_blocks",
    "plain_text",
    "walk",
]

HintStyle: TypeAlias = Literal["info", "success", "warning", "danger"]
Align: TypeAlias = Literal["left", "center", "right"] | None


@dataclass(frozen=True, slots=True)
class Heading:
    level: int
    spans: Spans
    anchor: str

    @property
    def text(self) -> str:
        return plain_text(self.spans)


@dataclass(frozen=True, slots=True)
class Paragraph:
    spans: Spans


@dataclass(frozen=True, slots=True)
class CodeBlock:
    code: str
    language: str | None = None
    title: str | None = None
    line_numbers: bool = False
    full_width: bool = False
    highlighted: frozenset[int] = frozenset()
    """1-based numbers of the lines GitBook marks as highlighted (``<pre>`` exports)."""


@dataclass(frozen=True, slots=True)
class MathBlock:
    """A ``$$…$$`` block: TeX source, shown as is (a terminal cannot typeset it)."""

    tex: str


@dataclass(frozen=True, slots=True)
class Card:
    """One card of a card table (``<table data-view="cards">``)."""

    title: Spans
    body: tuple[Spans, ...] = ()
    """Other visible cells, one paragraph each."""
    target: str | None = None
    """``data-card-target`` column: a page path or URL the card leads to."""
    cover: str | None = None
    """``data-card-cover`` column: an image file."""


@dataclass(frozen=True, slots=True)
class Cards:
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Conditional:
    """``{% if expr %}…{% else %}…{% endif %}``: each branch with its condition label."""

    branches: tuple[tuple[str, Blocks], ...]
    """``(label, blocks)``: ``"if visitor.claims.x"``, ``"elif …"``, ``"else"``."""


@dataclass(frozen=True, slots=True)
class Quote:
    blocks: Blocks


@dataclass(frozen=True, slots=True)
class ListItem:
    blocks: Blocks
    checked: bool | None = None
    """``None`` for an ordinary item, ``True``/``False`` for a task-list item."""


@dataclass(frozen=True, slots=True)
class ListBlock:
    ordered: bool
    start: int
    items: tuple[ListItem, ...]
    tight: bool = True
    """Tight lists have no blank lines between items (render without spacing)."""


@dataclass(frozen=True, slots=True)
class Table:
    header: tuple[Cell, ...]
    rows: tuple[tuple[Cell, ...], ...]
    aligns: tuple[Align, ...]


@dataclass(frozen=True, slots=True)
class Rule:
    """A thematic break (``---``)."""


@dataclass(frozen=True, slots=True)
class Hint:
    style: HintStyle
    blocks: Blocks


@dataclass(frozen=True, slots=True)
class Tab:
    title: str
    blocks: Blocks


@dataclass(frozen=True, slots=True)
class Tabs:
    tabs: tuple[Tab, ...]


@dataclass(frozen=True, slots=True)
class Step:
    title: str | None
    blocks: Blocks


@dataclass(frozen=True, slots=True)
class Stepper:
    steps: tuple[Step, ...]


@dataclass(frozen=True, slots=True)
class Columns:
    columns: tuple[Blocks, ...]


@dataclass(frozen=True, slots=True)
class Details:
    summary: Spans
    blocks: Blocks
    open: bool = False


@dataclass(frozen=True, slots=True)
class Figure:
    src: str
    alt: str
    caption: Spans


@dataclass(frozen=True, slots=True)
class Image:
    src: str
    alt: str
    title: str | None = None


@dataclass(frozen=True, slots=True)
class FileBlock:
    src: str
    caption: Spans


@dataclass(frozen=True, slots=True)
class EmbedCard:
    url: str
    caption: Spans


@dataclass(frozen=True, slots=True)
class ContentRef:
    url: str
    title: str


@dataclass(frozen=True, slots=True)
class Include:
    path: str
    blocks: Blocks = ()
    """The included content once the viewer has expanded it (see :func:`expand_includes`)."""
    title: str | None = None
    """The reusable content's title, once resolved."""
    state: Literal["pending", "included", "missing"] = "pending"


@dataclass(frozen=True, slots=True)
class Update:
    date: str
    blocks: Blocks


@dataclass(frozen=True, slots=True)
class Updates:
    updates: tuple[Update, ...]


@dataclass(frozen=True, slots=True)
class OpenAPICard:
    src: str
    path: str
    method: str
    blocks: Blocks
    kind: Literal["openapi", "swagger"] = "openapi"


@dataclass(frozen=True, slots=True)
class Footnotes:
    items: tuple[tuple[str, Blocks], ...]
    """``(label, blocks)`` pairs; a ``footnote_ref`` span's text is its label."""


@dataclass(frozen=True, slots=True)
class UnknownBlock:
    """Any other ``{% tag … %}…{% endtag %}``; its content is kept."""

    tag: str
    attrs: dict[str, str] = field(default_factory=dict, hash=False)
    blocks: Blocks = ()


@dataclass(frozen=True, slots=True)
class Notice:
    """A problem with the page itself the reader should see (e.g. unreadable front matter)."""

    message: str
    detail: str = ""


@dataclass(frozen=True, slots=True)
class HtmlBlock:
    """Raw HTML that is not understood, reduced to its text (never interpreted)."""

    text: str


Block: TypeAlias = (
    Heading
    | Paragraph
    | CodeBlock
    | Quote
    | ListBlock
    | Table
    | Rule
    | Hint
    | Tabs
    | Stepper
    | Columns
    | Details
    | Figure
    | Image
    | FileBlock
    | EmbedCard
    | ContentRef
    | Include
    | Updates
    | OpenAPICard
    | Footnotes
    | UnknownBlock
    | HtmlBlock
    | MathBlock
    | Cards
    | Conditional
    | Notice
)
Blocks: TypeAlias = tuple[Block, ...]


@dataclass(frozen=True, slots=True)
class Document:
    blocks: Blocks
    headings: tuple[tuple[int, str, str], ...] = ()
    """``(level, title, anchor)`` of every heading, in document order (for an outline)."""
    links: tuple[tuple[str, str], ...] = ()
    """``(text, href)`` of every link, content-ref and embed, in document order."""
    front_matter: Mapping[str, Any] = field(default_factory=dict, hash=False, compare=False)
    """The page's YAML front matter when the markdown starts with one (else empty)."""


def child_blocks(block: Block) -> Iterator[Block]:
    """The blocks directly nested in ``block`` (in reading order)."""
    if isinstance(block, Quote | Hint | Details | OpenAPICard | UnknownBlock | Include):
        yield from block.blocks
    elif isinstance(block, ListBlock):
        for item in block.items:
            yield from item.blocks
    elif isinstance(block, Tabs):
        for tab in block.tabs:
            yield from tab.blocks
    elif isinstance(block, Stepper):
        for step in block.steps:
            yield from step.blocks
    elif isinstance(block, Columns):
        for column in block.columns:
            yield from column
    elif isinstance(block, Updates):
        for update in block.updates:
            yield from update.blocks
    elif isinstance(block, Footnotes):
        for _label, blocks in block.items:
            yield from blocks
    elif isinstance(block, Conditional):
        for _label, blocks in block.branches:
            yield from blocks


def walk(blocks: Iterable[Block]) -> Iterator[Block]:
    """Every block, depth first, parents before their children."""
    stack: list[Iterator[Block]] = [iter(blocks)]
    while stack:
        block = next(stack[-1], None)
        if block is None:
            stack.pop()
            continue
        yield block
        stack.append(child_blocks(block))
