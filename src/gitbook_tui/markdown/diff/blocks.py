"""Display blocks: a parsed page flattened into the units a diff aligns (rows, lines, items)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TypeAlias

from .. import model as m

__all__ = ["PATH_SEPARATOR", "BlockKind", "DisplayBlock", "flatten", "flatten_run"]

PATH_SEPARATOR = " › "
"""Joins the parts of a :attr:`DisplayBlock.path` ("Hint › Tab 'Python' › Step 2")."""


class BlockKind(StrEnum):
    """What a display block is; only blocks of the same kind are ever paired as "changed"."""

    HEADING = "heading"
    PARAGRAPH = "paragraph"
    CODE_TITLE = "code_title"
    CODE_LINE = "code_line"
    LIST_ITEM = "list_item"
    TABLE_HEADER = "table_header"
    TABLE_ROW = "table_row"
    RULE = "rule"
    QUOTE = "quote"
    HINT = "hint"
    TAB = "tab"
    STEP = "step"
    COLUMN = "column"
    DETAILS = "details"
    UPDATE = "update"
    OPENAPI = "openapi"
    FOOTNOTE = "footnote"
    TAG = "tag"
    FIGURE = "figure"
    IMAGE = "image"
    FILE = "file"
    EMBED = "embed"
    CONTENT_REF = "content_ref"
    INCLUDE = "include"
    HTML = "html"


CONTAINER_KINDS: frozenset[BlockKind] = frozenset(
    {
        BlockKind.QUOTE,
        BlockKind.HINT,
        BlockKind.TAB,
        BlockKind.STEP,
        BlockKind.COLUMN,
        BlockKind.DETAILS,
        BlockKind.UPDATE,
        BlockKind.OPENAPI,
        BlockKind.FOOTNOTE,
        BlockKind.TAG,
    }
)
"""Kinds that open a container: the blocks after them (deeper ``depth``) are its content."""


@dataclass(frozen=True, slots=True)
class DisplayBlock:
    """One unit of a flattened page: a heading, a paragraph, a code line, a table row, a list
    item, or the opening row of a container (hint, tab, step, details, …).

    Equality and hash are the *equality key* — ``kind``, ``variant``, ``text`` and
    ``markup`` — so the same content in two revisions compares equal wherever it sits;
    ``path``, ``depth``, ``section`` and the source references are context only.
    Text is exactly as parsed: nothing here sanitises it (the renderer does, once).
    """

    kind: BlockKind
    text: str
    """Plain text, used for similarity and the word diff ("" for a rule or an empty line)."""
    variant: str = ""
    """What else distinguishes blocks of one kind: a code line's language, a heading's
    ``h2``, a hint's style, a list item's ``ordered``/``bullet``/``task``/``done``."""
    markup: str = field(default="", repr=False)
    """A signature of whatever else of the source counts as content (where styles and link
    targets sit, image URLs…), so a change of formatting alone still makes blocks differ."""
    path: str = field(default="", compare=False)
    """Where the block sits, outermost first: "Hint › Tab 'Python' › Step 2" ("" at top level)."""
    depth: int = field(default=0, compare=False)
    """Nesting depth (0 at top level), for indentation."""
    section: str = field(default="", compare=False)
    """Title of the nearest heading above the block ("" before the first one)."""
    source: m.Block | None = field(default=None, compare=False, repr=False)
    """The model block this comes from (the whole table, code block or list for a row,
    line or item; the container itself for its opening row)."""
    part: int | None = field(default=None, compare=False)
    """Index of the row, line or item inside :attr:`source`, else ``None``."""
    top: int = field(default=0, compare=False)
    """Index in ``Document.blocks`` of the top-level block this belongs to."""

    @property
    def key(self) -> tuple[str, str, str, str]:
        """The equality key as a tuple of strings (cheap to hash: they cache their hashes)."""
        return (self.kind, self.variant, self.text, self.markup)

    @property
    def is_container(self) -> bool:
        """Whether this is the opening row of a container (hint, tab, step, …)."""
        return self.kind in CONTAINER_KINDS

    def renderable(self) -> m.Block | None:
        """A stand-alone model block showing just this unit, for the page renderer.

        A table row comes back as a one-row table under the original header, a code line
        as a one-line code block, a list item as a one-item list (its first paragraph;
        nested blocks have rows of their own), a container as itself with no content.
        """
        src = self.source
        part = self.part
        if isinstance(src, m.Table):
            rows = () if part is None else (src.rows[part],)
            return m.Table(src.header, rows, src.aligns)
        if isinstance(src, m.CodeBlock):
            if self.kind is BlockKind.CODE_TITLE:
                return m.CodeBlock("", src.language, src.title, src.line_numbers)
            return m.CodeBlock(self.text, src.language)
        if isinstance(src, m.ListBlock) and part is not None:
            item = src.items[part]
            lead = (
                item.blocks[:1] if item.blocks and isinstance(item.blocks[0], m.Paragraph) else ()
            )
            start = src.start + part if src.ordered else src.start
            return m.ListBlock(src.ordered, start, (m.ListItem(lead, item.checked),), src.tight)
        if isinstance(src, m.Hint):
            return m.Hint(src.style, ())
        if isinstance(src, m.Quote):
            return m.Quote(())
        if isinstance(src, m.Tabs) and part is not None:
            return m.Tabs((m.Tab(src.tabs[part].title, ()),))
        if isinstance(src, m.Stepper) and part is not None:
            return m.Stepper((m.Step(src.steps[part].title, ()),))
        if isinstance(src, m.Details):
            return m.Details(src.summary, (), src.open)
        if isinstance(src, m.Updates) and part is not None:
            return m.Updates((m.Update(src.updates[part].date, ()),))
        if isinstance(src, m.OpenAPICard):
            return m.OpenAPICard(src.src, src.path, src.method, (), src.kind)
        if isinstance(src, m.UnknownBlock):
            return m.UnknownBlock(src.tag, src.attrs, ())
        if isinstance(src, m.Columns | m.Footnotes):
            return None
        return src


_STYLE_CODES: dict[frozenset[str], str] = {}


def _style_code(style: frozenset[str]) -> str:
    code = _STYLE_CODES.get(style)
    if code is None:
        code = _STYLE_CODES[style] = "+".join(sorted(style))
    return code


def _spans(spans: m.Spans) -> tuple[str, str]:
    """The spans' plain text and a signature of where styles and links sit in it ("" if
    none), cheap to hash and compare (unlike the spans themselves)."""
    if len(spans) == 1 and not spans[0].style and spans[0].href is None:
        return spans[0].text, ""
    marks: list[str] = []
    position = 0
    for span in spans:
        length = len(span.text)
        if span.style or span.href is not None:
            marks.append(f"{position},{length},{_style_code(span.style)},{span.href!r};")
        position += length
    return "".join(span.text for span in spans), "".join(marks)


def _cells(cells: Iterable[m.Cell]) -> tuple[str, str]:
    """A table row's text (cells joined by " | ") and its markup signature."""
    texts: list[str] = []
    marks: list[str] = []
    for cell in cells:
        text, markup = _spans(cell)
        texts.append(text)
        marks.append(markup)
    return " | ".join(texts), "|".join(marks)


_Path: TypeAlias = tuple[str, int]
"""A block's context: its path label and depth."""
_TOP: _Path = ("", 0)


def _child(path: _Path, label: str) -> _Path:
    return (f"{path[0]}{PATH_SEPARATOR}{label}" if path[0] else label, path[1] + 1)


class _Flattener:
    """Walks a document once, depth first, emitting display blocks in reading order."""

    def __init__(self) -> None:
        self.out: list[DisplayBlock] = []
        self.section = ""
        self.top = 0

    def emit(
        self,
        kind: BlockKind,
        text: str,
        path: _Path,
        source: m.Block,
        *,
        variant: str = "",
        markup: str = "",
        part: int | None = None,
    ) -> None:
        self.out.append(
            DisplayBlock(
                kind,
                text,
                variant,
                markup,
                path[0],
                path[1],
                self.section,
                source,
                part,
                self.top,
            )
        )

    def blocks(self, blocks: Iterable[m.Block], path: _Path) -> None:
        for block in blocks:
            self.block(block, path)

    def block(self, b: m.Block, path: _Path) -> None:
        emit = self.emit
        if isinstance(b, m.Heading):
            self.section = b.text
            text, markup = _spans(b.spans)
            emit(BlockKind.HEADING, text, path, b, variant=f"h{b.level}", markup=markup)
        elif isinstance(b, m.Paragraph):
            text, markup = _spans(b.spans)
            emit(BlockKind.PARAGRAPH, text, path, b, markup=markup)
        elif isinstance(b, m.CodeBlock):
            language = b.language or ""
            if b.title:
                emit(BlockKind.CODE_TITLE, b.title, path, b, variant=language)
            for index, line in enumerate(b.code.split("\n")):
                emit(BlockKind.CODE_LINE, line, path, b, variant=language, part=index)
        elif isinstance(b, m.ListBlock):
            self.list(b, path)
        elif isinstance(b, m.Table):
            text, markup = _cells(b.header)
            emit(BlockKind.TABLE_HEADER, text, path, b, markup=markup + repr(b.aligns))
            for index, row in enumerate(b.rows):
                text, markup = _cells(row)
                emit(BlockKind.TABLE_ROW, text, path, b, markup=markup, part=index)
        elif isinstance(b, m.Rule):
            emit(BlockKind.RULE, "", path, b)
        elif isinstance(b, m.Quote):
            emit(BlockKind.QUOTE, "", path, b)
            self.blocks(b.blocks, _child(path, "Quote"))
        elif isinstance(b, m.Hint):
            emit(BlockKind.HINT, b.style, path, b, variant=b.style)
            self.blocks(b.blocks, _child(path, "Hint"))
        elif isinstance(b, m.Tabs):
            for index, tab in enumerate(b.tabs):
                emit(BlockKind.TAB, tab.title, path, b, part=index)
                self.blocks(tab.blocks, _child(path, f"Tab '{tab.title}'"))
        elif isinstance(b, m.Stepper):
            for index, step in enumerate(b.steps):
                emit(BlockKind.STEP, step.title or "", path, b, part=index)
                self.blocks(step.blocks, _child(path, f"Step {index + 1}"))
        elif isinstance(b, m.Columns):
            for index, column in enumerate(b.columns):
                emit(BlockKind.COLUMN, "", path, b, part=index)
                self.blocks(column, _child(path, f"Column {index + 1}"))
        elif isinstance(b, m.Details):
            summary, markup = _spans(b.summary)
            emit(BlockKind.DETAILS, summary, path, b, markup=markup)
            self.blocks(b.blocks, _child(path, "Details"))
        elif isinstance(b, m.Updates):
            for index, update in enumerate(b.updates):
                emit(BlockKind.UPDATE, update.date, path, b, part=index)
                self.blocks(update.blocks, _child(path, f"Update {update.date}"))
        elif isinstance(b, m.OpenAPICard):
            emit(
                BlockKind.OPENAPI,
                f"{b.method.upper()} {b.path}",
                path,
                b,
                markup=repr((b.src, b.kind)),
            )
            self.blocks(b.blocks, _child(path, "OpenAPI"))
        elif isinstance(b, m.Footnotes):
            for index, (label, blocks) in enumerate(b.items):
                emit(BlockKind.FOOTNOTE, label, path, b, part=index)
                self.blocks(blocks, _child(path, f"Footnote {label}"))
        elif isinstance(b, m.UnknownBlock):
            emit(BlockKind.TAG, b.tag, path, b, markup=repr(sorted(b.attrs.items())))
            self.blocks(b.blocks, _child(path, b.tag))
        elif isinstance(b, m.Figure):
            caption, markup = _spans(b.caption)
            markup += repr((b.src, b.alt))
            emit(BlockKind.FIGURE, caption or b.alt, path, b, markup=markup)
        elif isinstance(b, m.Image):
            emit(BlockKind.IMAGE, b.alt, path, b, markup=repr((b.src, b.title)))
        elif isinstance(b, m.FileBlock):
            caption, markup = _spans(b.caption)
            emit(BlockKind.FILE, caption or b.src, path, b, markup=markup + repr(b.src))
        elif isinstance(b, m.EmbedCard):
            caption, markup = _spans(b.caption)
            text = f"{caption} {b.url}" if caption else b.url
            emit(BlockKind.EMBED, text, path, b, markup=markup)
        elif isinstance(b, m.ContentRef):
            emit(BlockKind.CONTENT_REF, b.title, path, b, markup=repr(b.url))
        elif isinstance(b, m.Include):
            emit(BlockKind.INCLUDE, b.path, path, b)
        elif isinstance(b, m.HtmlBlock):
            emit(BlockKind.HTML, b.text, path, b)

    def list(self, b: m.ListBlock, path: _Path) -> None:
        bullet = "ordered" if b.ordered else "bullet"
        for index, item in enumerate(b.items):
            blocks = item.blocks
            lead = blocks[0] if blocks and isinstance(blocks[0], m.Paragraph) else None
            variant = bullet if item.checked is None else ("done" if item.checked else "task")
            text, markup = _spans(lead.spans) if lead is not None else ("", "")
            self.emit(
                BlockKind.LIST_ITEM, text, path, b, variant=variant, markup=markup, part=index
            )
            rest = blocks[1:] if lead is not None else blocks
            if rest:
                self.blocks(rest, _child(path, f"Item {index + 1}"))


def flatten(document: m.Document | None) -> tuple[DisplayBlock, ...]:
    """The page's display blocks in reading order (none for a missing page)."""
    if document is None:
        return ()
    return flatten_run(document.blocks)[0]


def flatten_run(
    blocks: Iterable[m.Block], first_top: int = 0, section: str = ""
) -> tuple[tuple[DisplayBlock, ...], str]:
    """Display blocks of a run of a page's top-level blocks, the first of which is
    ``Document.blocks[first_top]``, below the heading titled ``section``; and the section
    after the run (what :func:`flatten` gives for these blocks inside the whole page)."""
    flattener = _Flattener()
    flattener.section = section
    for top, block in enumerate(blocks, first_top):
        flattener.top = top
        flattener.block(block, _TOP)
    return tuple(flattener.out), flattener.section
