"""Parse two revisions of a page together, once for what they share: :func:`parse_pair`.

Most of a large page is the same on both sides of a change request. The base side is
tokenized by markdown-it's own block tokenizer and cut into its top-level blocks
(*chunks*: a block's source lines and the blank lines after it). The other side is
tokenized only where it differs: at the start of each of its top-level blocks, if the
text ahead is the text of a base chunk (and of what the tokenizer may look at after it:
the next chunk and a few lines more, with the same GitBook tags), that chunk is taken
over as it is and the tokenizer resumes after it; otherwise one block is tokenized (the
:mod:`..progressive` pause rule stops markdown-it at the next top-level block). A chunk
taken over is converted to blocks once, for both sides.

The documents have exactly the blocks :func:`~gitbook_tui.markdown.parse` makes (tests
compare them); their heading/link lists are left empty (a diff needs the blocks only).
Pages that define link references or footnotes (a definition may be used anywhere) are
parsed whole, as are pages the chunks cannot be read from.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from markdown_it.rules_block import StateBlock
from markdown_it.token import Token

from ...collector_pause import collector_paused
from ..blocks import Converter, finish
from ..model import Document
from ..parser import parse
from ..progressive import DEFINITION_RE, block_state, inline_tokens
from ..rules import MD, PAUSE_ENV_KEY, TAGS_ENV_KEY, PauseParse
from ..tag_blocks import Item
from ..tags import TagTable
from .outline import OUTLINE

__all__ = [
    "BlockReader",
    "Chunk",
    "Follower",
    "Side",
    "chunked_pair",
    "cut_base",
    "cut_chunks",
    "parse_pair",
    "paused_gc",
]

_LOOKAHEAD_LINES = 3
"""Lines past a chunk (and at least the whole next chunk) that must match too before it is
taken over: markdown-it decides where a block ends by looking at the line after it (a
table, at the one after that)."""
_MAX_CANDIDATES = 8
_GC_PAUSE_THRESHOLD = 64 * 1024


@dataclass(slots=True, eq=False)
class Chunk:
    """One top-level block of a side: source lines ``[start, end)`` (blank lines after it
    included), its block tokens, and the items it converts to (once)."""

    start: int
    end: int
    tokens: list[Token] | None
    """Its block tokens (``None`` once dropped: :meth:`block_tokens` makes them again)."""
    reader: BlockReader = field(repr=False)
    """Its side's block state (tokenizes it again) and ``env`` (for inline parsing); not the
    side itself, which holds the chunks: no reference cycle for the GC to find."""
    key: str = ""
    """The block's own source text (without the blank lines after it), and the GitBook
    tags the pre-pass found in it if any: equal keys, equal blocks."""
    shared: Chunk | None = None
    """The base chunk this one is a copy of (its tokens and items serve both sides)."""
    items: list[Item] | None = field(default=None, repr=False)
    outlined: bool = False
    """Its tokens are :mod:`.outline`'s (a top-level table without its cells): good for
    counting rows, not for converting."""

    @property
    def source(self) -> Chunk:
        """The chunk holding the tokens and items (this one, or the one it shares)."""
        return self.shared if self.shared is not None else self

    def block_tokens(self) -> list[Token]:
        """The block tokens of the chunk holding them (tokenized again if dropped or
        outlined)."""
        chunk = self.source
        if chunk.tokens is None or chunk.outlined:
            chunk.tokens = chunk.reader.tokenize(chunk.start)[0]
            chunk.outlined = False
        return chunk.tokens

    def outline_tokens(self) -> list[Token]:
        """Its block tokens, perhaps outlined (:attr:`outlined`): for counting only."""
        chunk = self.source
        return chunk.tokens if chunk.tokens is not None else self.block_tokens()

    def convert(self, converter: Converter | None = None) -> list[Item]:
        """This chunk's items (inline-parsed and converted on first use; then its tokens
        are dropped: a large page's are tens of MB, and slow down every collection)."""
        chunk = self.source
        if chunk.items is None:
            tokens = self.block_tokens()
            inline_tokens(chunk.reader.env, tokens)
            chunk.items = _items(converter or Converter(), tokens)
            chunk.tokens = None
        return chunk.items


class BlockReader:
    """A side's markdown-it block state, which tokenizes one top-level block at a time."""

    def __init__(self, state: StateBlock, env: dict[str, Any]) -> None:
        self.state = state
        self.env = env
        self.line_max: int = state.lineMax

    def tokenize(self, line: int) -> tuple[list[Token], int]:
        """Tokenize the top-level block starting at ``line`` alone: its tokens, and the line
        the next one starts at (markdown-it is paused there, see :mod:`..progressive`).

        The state is at the top level between blocks, so a block tokenized again gives the
        same tokens as the first time."""
        state, env = self.state, self.env
        saved, state.tokens = state.tokens, []
        env[PAUSE_ENV_KEY] = line + 1
        try:
            MD.block.tokenize(state, line, self.line_max)
            after = self.line_max
        except PauseParse:
            after = state.line
        finally:
            env.pop(PAUSE_ENV_KEY, None)
            tokens, state.tokens = state.tokens, saved
        return tokens, after


class Side:
    """A side's block state, tag table and chunks."""

    def __init__(self, state: StateBlock, env: dict[str, Any]) -> None:
        self.state = state
        self.env = env
        self.reader = BlockReader(state, env)
        self.tokenize = self.reader.tokenize
        self.src: str = state.src
        self.marks: list[int] = state.bMarks
        self.line_max: int = state.lineMax
        table: TagTable = env[TAGS_ENV_KEY]
        self.table = table
        self.tag_lines = sorted(table.tags)
        self.chunks: list[Chunk] = []

    def text(self, start: int, end: int) -> str:
        return self.src[self.marks[start] : self.marks[end]]

    def chunk(self, start: int, end: int, tokens: list[Token]) -> Chunk:
        """A chunk of this side's own tokens (its key: the block's lines)."""
        block_end, is_empty = end, self.state.isEmpty
        while block_end > start + 1 and is_empty(block_end - 1):
            block_end -= 1
        key = self.text(start, block_end)
        tags = self.tags(start, block_end)
        if tags:  # the same text reads differently where the pre-pass saw other tags
            key += f"\0{tags!r}{self.closes(start, block_end)!r}"
        return Chunk(start, end, tokens, self.reader, key)

    def tags(self, start: int, end: int) -> list[tuple[int, Any]]:
        """The tags on lines ``[start, end)``, by line relative to ``start``."""
        lines = self.tag_lines
        k = bisect_left(lines, start)
        out: list[tuple[int, Any]] = []
        tags = self.table.tags
        while k < len(lines) and lines[k] < end:
            out.append((lines[k] - start, tags[lines[k]]))
            k += 1
        return out

    def closes(self, start: int, end: int) -> list[int | None]:
        """Where the openers on lines ``[start, end)`` close, relative to ``start``, at most
        ``end - start`` (a close past the chunk means the same to the tokenizer: unclosed)."""
        lines = self.tag_lines
        k = bisect_left(lines, start)
        out: list[int | None] = []
        closes = self.table.closes
        cap = end - start
        while k < len(lines) and lines[k] < end:
            close = closes.get(lines[k])
            out.append(None if close is None else min(close - start, cap))
            k += 1
        return out


def cut_chunks(side: Side) -> bool:
    """Tokenize the whole side (top-level tables outlined: :mod:`.outline`) and cut it
    into chunks; False if some block has no lines."""
    state = side.state
    OUTLINE.tokenize(state, state.line, state.lineMax)
    tokens = state.tokens
    starts: list[int] = []
    lines: list[int] = []
    tables: list[int] = []
    for index, token in enumerate(tokens):
        if token.level == 0 and token.nesting != -1:
            if token.map is None:
                return False
            if token.type == "table_open":
                tables.append(len(starts))
            starts.append(index)
            lines.append(token.map[0])
    lines.append(side.line_max)
    starts.append(len(tokens))
    side.chunks = [
        side.chunk(lines[k], lines[k + 1], tokens[starts[k] : starts[k + 1]])
        for k in range(len(starts) - 1)
    ]
    for k in tables:
        side.chunks[k].outlined = True
    state.tokens = []  # the chunks hold them now (and may drop them)
    return True


class Follower:
    """Tokenizes ``side`` where it differs from ``base``, taking over the chunks it shares."""

    def __init__(self, side: Side, base: Side) -> None:
        self.side, self.base = side, base
        self.by_first_line: dict[str, list[int]] = {}
        src, marks = base.src, base.marks
        e_marks = base.state.eMarks
        for index, chunk in enumerate(base.chunks):
            first = src[marks[chunk.start] : e_marks[chunk.start]]
            self.by_first_line.setdefault(first, []).append(index)

    def run(self) -> None:
        side, base = self.side, self.base
        state = side.state
        cursor = 0
        line = state.skipEmptyLines(0)
        while line < side.line_max:
            taken = self.take(line, cursor)
            if taken is not None:
                chunk = base.chunks[taken]
                size = chunk.end - chunk.start
                side.chunks.append(
                    Chunk(line, line + size, None, side.reader, chunk.key, chunk.source)
                )
                line += size
                cursor = taken + 1
                continue
            line = self.tokenize_one(line)

    def tokenize_one(self, line: int) -> int:
        """Tokenize the top-level block at ``line``; the line the next one starts at."""
        tokens, after = self.side.tokenize(line)
        self.side.chunks.append(self.side.chunk(line, after, tokens))
        return after

    def take(self, line: int, cursor: int) -> int | None:
        """The base chunk that may be taken over at ``line`` (the next one in order first)."""
        base, side = self.base, self.side
        count = len(base.chunks)
        if cursor < count and self.same(cursor, line):
            return cursor
        first = side.src[side.marks[line] : side.state.eMarks[line]]
        candidates = self.by_first_line.get(first)
        if not candidates:
            return None
        k = bisect_left(candidates, cursor + 1)
        for index in candidates[k : k + _MAX_CANDIDATES]:
            if self.same(index, line):
                return index
        return None

    def same(self, index: int, line: int) -> bool:
        """Whether base chunk ``index`` (with its look-ahead) is the text at ``line``."""
        base, side = self.base, self.side
        chunk = base.chunks[index]
        if chunk.start == 0 or line == 0:
            return False  # front matter, read on the first line only, may end anywhere
        ahead = chunk.end + _LOOKAHEAD_LINES
        if index + 1 < len(base.chunks):
            ahead = max(ahead, base.chunks[index + 1].end)
        ahead = min(ahead, base.line_max)
        size = ahead - chunk.start
        if line + size > side.line_max:
            return False
        text = base.text(chunk.start, ahead)
        position = side.marks[line]
        if not side.src.startswith(text, position):
            return False
        if ahead == base.line_max and (
            line + size != side.line_max or len(side.src) - position != len(text)
        ):
            return False  # the base page ends there, this side does not
        return base.tags(chunk.start, ahead) == side.tags(line, line + size) and base.closes(
            chunk.start, chunk.end
        ) == side.closes(line, line + chunk.end - chunk.start)


def _items(converter: Converter, tokens: list[Token]) -> list[Item]:
    items: list[Item] = []
    index = 0
    while index < len(tokens):
        part, index = converter.items(tokens, index)
        items.extend(part)
    return items


def _convert(side: Side, chunks: list[Chunk]) -> None:
    """Inline-parse and convert ``chunks`` (their own tokens) with one converter."""
    tokens = [token for chunk in chunks for token in chunk.block_tokens()]
    inline_tokens(side.env, tokens)
    converter = Converter()
    for chunk in chunks:
        chunk.items = _items(converter, chunk.block_tokens())


def _document(chunks: list[Chunk]) -> Document:
    items: list[Item] = []
    for chunk in chunks:
        items.extend(chunk.source.items or ())
    return Document(finish(items))


def _side(markdown: str) -> Side | None:
    state, env = block_state(markdown)
    return None if state is None else Side(state, env)


@contextmanager
def paused_gc(*texts: str) -> Iterator[None]:
    """The cyclic GC paused while large ``texts`` are worked on (see :func:`parse`), in the
    process-wide pause (``collector_pause``). What was made meanwhile (a large page's
    tokens, blocks and rows: hundreds of thousands of objects) joins the objects frozen
    already where the application freezes its survivors (:mod:`gitbook_tui.tui.common.
    idle_collector`: its next quiet moment collects what of it died), else the oldest
    generation."""
    large = max(map(len, texts), default=0) >= _GC_PAUSE_THRESHOLD
    with collector_paused(large, join_frozen=True):
        yield


_SEARCH_STEP = 64 * 1024
"""Text searched at a time by :func:`_defines` (about a millisecond holding the GIL)."""


def _defines(markdown: str) -> bool:
    """Whether ``markdown`` may define a link reference or a footnote: ``DEFINITION_RE``
    searched a slice of whole lines at a time (one search of a 1 MB page holds the GIL for
    ~16 ms, a stall of the UI thread while a worker diffs)."""
    start, size = 0, len(markdown)
    while start < size:
        end = markdown.find("\n", min(size, start + _SEARCH_STEP))
        end = size if end < 0 else end + 1
        if DEFINITION_RE.search(markdown, start, end):
            return True
        start = end
    return False


def cut_base(old: str) -> Side | None:
    """The base side tokenized and cut into chunks, for :func:`chunked_pair` (it may be made
    while the other side is still on its way; it serves one pair: the pair's work is kept
    on its chunks). ``None`` where the sides must be parsed whole."""
    if _defines(old):
        return None
    with paused_gc(old):
        base = _side(old)
        return base if base is not None and cut_chunks(base) else None


def chunked_pair(old: str, new: str, base: Side | None = None) -> tuple[Side, Side] | None:
    """Both sides cut into chunks, the new one sharing the base's where it can (see the
    module docstring; ``base``: :func:`cut_base` of ``old``, made already); ``None`` where
    that cannot be done (parse them whole)."""
    if base is None:
        base = cut_base(old)
    if base is None or _defines(new):
        return None
    with paused_gc(new):
        side = _side(new)
        if side is None:
            return None
        Follower(side, base).run()
    return base, side


def _pair(old: str, new: str) -> tuple[Document, Document] | None:
    sides = chunked_pair(old, new)
    if sides is None:
        return None
    base, side = sides
    _convert(base, base.chunks)
    _convert(side, [chunk for chunk in side.chunks if chunk.shared is None])
    for chunk in base.chunks:
        chunk.tokens = None  # tens of MB for a large page: not needed any more
    return _document(base.chunks), _document(side.chunks)


def parse_pair(old: str | None, new: str | None) -> tuple[Document | None, Document | None]:
    """``parse(old), parse(new)`` (``None`` stays ``None``), sharing the work on the blocks
    the two have in common; see the module docstring."""
    if old is None or new is None:
        return (None if old is None else parse(old)), (None if new is None else parse(new))
    with paused_gc(old, new):
        pair = _pair(old, new)
    if pair is None:
        return parse(old), parse(new)
    return pair
