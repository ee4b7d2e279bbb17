"""BlameView: a page's source lines, each block with a gutter naming the revision that last
changed it (date, change request or commit, author), filled in as the walk settles blocks.

Lines are wrapped once per width (in a thread for a large page) and only the lines on
screen are painted (Line API). The cursor is a block: ``j``/``k`` move it, the pager keys
scroll and bring it along, ``enter`` asks for that block's revision (:class:`Chosen`).
"""

from __future__ import annotations

import asyncio
from bisect import bisect_right
from collections.abc import Iterable
from typing import ClassVar

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ...markdown.sanitize import clean_text
from ..common.text import fit
from .blame_data import BlameWalk
from .blame_lines import LineBlame

__all__ = ["BlameView", "gutter_label", "wrap_lines"]

THREAD_FROM = 2_000
"""Pages of at least this many lines are wrapped in a thread (over ~50 ms of work)."""

Row = tuple[int, int, int]
"""A screen line: (source line, first character, end character)."""


def wrap_lines(lines: list[str], width: int) -> list[Row]:
    """The screen lines of ``lines`` (cleaned of control sequences) at ``width`` cells:
    a line too long is cut at its last space that fits, else where it no longer fits."""
    width = max(8, width)
    rows: list[Row] = []
    for index, line in enumerate(lines):
        if len(line) <= width and (line.isascii() or cell_len(line) <= width):
            rows.append((index, 0, len(line)))
            continue
        start = 0
        while start < len(line):
            end = start + width
            if not line.isascii():  # wide characters: fewer of them fit
                end = start
                used = 0
                while end < len(line) and used + cell_len(line[end]) <= width:
                    used += cell_len(line[end])
                    end += 1
                end = max(end, start + 1)
            if end < len(line):
                space = line.rfind(" ", start + 1, end)
                if space > start:
                    end = space + 1
            rows.append((index, start, min(end, len(line))))
            start = end
    return rows


def gutter_label(walk: BlameWalk, block: int, *, wide: bool = False) -> str:
    """``2025-03-14 #42 Ana Ito``: when (``wide``: to the minute), through what and by whom
    ``block`` last changed ("" while not known; ``≤`` where the history could not be read
    further back)."""
    entry = walk.entry_of(block)
    if entry is None:
        return ""
    when = "????-??-??"
    if entry.created_at is not None:
        when = entry.created_at.strftime("%Y-%m-%d %H:%M" if wide else "%Y-%m-%d")
    if entry.cr_number is not None:
        what = f"#{entry.cr_number}"
    elif entry.git_oid:
        what = entry.git_oid[:7]
    else:
        what = {"edits": "edit"}.get(entry.kind, entry.kind or "revision")
    author = f" {entry.cr_author}" if entry.cr_author else ""
    mark = "≤" if walk.at_or_before(block) else ""
    return clean_text(f"{mark}{when} {what}{author}")


class BlameView(ScrollView, can_focus=True):
    """The blamed page (see the module); :meth:`show` gives it the walk."""

    DEFAULT_CSS = """
    BlameView { scrollbar-gutter: stable; overflow-x: hidden; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "choose", "Diff of this change", id="blame.open"),
        Binding("j,down", "block(1)", "Next block", show=False, id="blame.down"),
        Binding("k,up", "block(-1)", "Prev block", show=False, id="blame.up"),
        Binding("pagedown,ctrl+f,space", "page(1)", "Page down", show=False, id="blame.page_down"),
        Binding("pageup,ctrl+b", "page(-1)", "Page up", show=False, id="blame.page_up"),
        Binding("ctrl+d", "half(1)", "Half page down", show=False, id="blame.half_down"),
        Binding("ctrl+u", "half(-1)", "Half page up", show=False, id="blame.half_up"),
        Binding("g,home", "edge(0)", "Top", show=False, id="blame.top"),
        Binding("G,end", "edge(1)", "Bottom", show=False, id="blame.bottom"),
    ]

    class Chosen(Message):
        """``enter`` on a block: its index in the walk's blame."""

        def __init__(self, block: int) -> None:
            super().__init__()
            self.block = block

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.walk: BlameWalk | None = None
        self.cursor = 0
        self._lines: list[str] = []
        self._rows: list[Row] = []
        self._block_rows: list[int] = []
        """The first screen line of each block."""
        self._row_lines: list[int] = []
        self._width = 0
        self._message = "Loading…"

    @property
    def gutter_width(self) -> int:
        return 34 if self.size.width >= 100 else 24

    @property
    def blame(self) -> LineBlame | None:
        return self.walk.blame if self.walk is not None else None

    # -- content ---------------------------------------------------------------------------
    def show_message(self, message: str) -> None:
        self.walk, self._message, self._rows = None, message, []
        self.virtual_size = Size(self.size.width, 1)
        self.refresh()

    async def show(self, walk: BlameWalk) -> None:
        """Show ``walk``'s page (its blame started) from the top, the cursor on its first
        block."""
        self.walk, self.cursor = walk, 0
        blame = walk.blame
        assert blame is not None
        if len(blame.lines) >= THREAD_FROM:
            self._lines = await asyncio.to_thread(lambda: [clean_text(x) for x in blame.lines])
        else:
            self._lines = [clean_text(x) for x in blame.lines]
        await self._layout()
        self.scroll_to(y=0, animate=False)

    async def _layout(self) -> None:
        blame = self.blame
        width = (
            (self.scrollable_content_region.width or self.size.width or 80) - self.gutter_width - 1
        )
        self._width = self.scrollable_content_region.width
        if blame is None:
            return
        if len(self._lines) >= THREAD_FROM:
            rows = await asyncio.to_thread(wrap_lines, self._lines, width)
        else:
            rows = wrap_lines(self._lines, width)
        self._rows = rows
        self._row_lines = [row[0] for row in rows]
        self._block_rows = [bisect_right(self._row_lines, start - 1) for start, _ in blame.blocks]
        self.virtual_size = Size(self._width, len(rows))
        self.refresh()

    async def on_resize(self) -> None:
        if self.walk is not None and self.scrollable_content_region.width != self._width:
            block = self._block_at(self.scroll_offset.y)
            await self._layout()
            if block is not None:
                self.scroll_to(y=self._block_rows[block], animate=False)

    def settled(self, blocks: Iterable[int] | None = None) -> None:
        """``blocks`` were settled (None: any may have been): the gutters on screen that
        name them are painted again. A block's label is on its first line; one off screen
        is painted when scrolled to (a walk settles a few blocks at a time, mostly off
        screen: repainting the whole view for each was most of a long blame's work)."""
        if blocks is None or self.walk is None:
            self.refresh()
            return
        top, height = int(self.scroll_offset.y), self.scrollable_content_region.height
        for block in blocks:
            row = self._block_rows[block] if block < len(self._block_rows) else -1
            if top <= row < top + height:
                self.refresh_line(row)

    # -- painting ----------------------------------------------------------------------------
    def _block_at(self, row: int) -> int | None:
        blame = self.blame
        if blame is None or not 0 <= row < len(self._rows):
            return None
        return blame.block_at(self._rows[row][0])

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        index = self.scroll_offset.y + y
        if self.walk is None:
            text = clean_text(self._message) if y == 0 else ""
            return Strip([Segment(fit(text, width))], width).apply_style(self.rich_style)
        if index >= len(self._rows):
            return Strip.blank(width, self.rich_style)
        line, start, end = self._rows[index]
        block = self._block_at(index)
        gutter = self._gutter(block, index)
        text = self._lines[line][start:end]
        body = Style(bold=True) if text.startswith("#") and start == 0 else Style()
        segments = [*gutter, Segment(" "), Segment(text, body)]
        strip = Strip(segments).adjust_cell_length(width)
        return strip.apply_style(self.rich_style)

    def _gutter(self, block: int | None, row: int) -> list[Segment]:
        size = self.gutter_width
        dim = Style(dim=True)
        if block is None or self.walk is None:
            return [Segment(" " * size)]
        current = block == self.cursor
        first = self._block_rows[block] == row if block < len(self._block_rows) else False
        mark = "▶" if current and first else "▌" if current else " "
        mark_style = Style(bold=True, color="yellow") if current else dim
        if not first:
            return [Segment(mark, mark_style), Segment(fit("│", size - 1), dim)]
        label = gutter_label(self.walk, block, wide=size > 30)
        if not label:
            return [Segment(mark, mark_style), Segment(fit("…", size - 1), dim)]
        style = Style(bold=True) if current else Style()
        return [Segment(mark, mark_style), Segment(fit(label, size - 1, ellipsis=True), style)]

    def visible_text(self) -> list[str]:
        height = self.scrollable_content_region.height
        return [self.render_line(y).text for y in range(height)]

    # -- moving ------------------------------------------------------------------------------
    def _see_cursor(self) -> None:
        if not self._block_rows:
            return
        row = self._block_rows[self.cursor]
        top, height = self.scroll_offset.y, max(1, self.scrollable_content_region.height)
        if row < top:
            self.scroll_to(y=row, animate=False)
        elif row >= top + height - 1:
            self.scroll_to(y=max(0, row - height + 3), animate=False)
        self.refresh()

    def go_to_block(self, block: int) -> None:
        if self._block_rows:
            self.cursor = max(0, min(len(self._block_rows) - 1, block))
            self._see_cursor()

    def action_block(self, step: int) -> None:
        self.go_to_block(self.cursor + step)

    def _scroll_keeping_cursor(self, y: int) -> None:
        """Scroll to ``y``; the cursor goes to the first block starting on screen."""
        self.scroll_to(y=max(0, y), animate=False, immediate=True)
        top = int(self.scroll_offset.y)
        height = max(1, self.scrollable_content_region.height)
        first = bisect_right(self._block_rows, top - 1)
        if first < len(self._block_rows) and self._block_rows[first] < top + height:
            self.cursor = first
        elif self._block_rows:
            self.cursor = max(0, first - 1)
        self.refresh()

    def action_page(self, pages: int) -> None:
        self._scroll_keeping_cursor(self.scroll_offset.y + pages * max(1, self.size.height - 2))

    def action_half(self, step: int) -> None:
        half = max(1, (self.size.height - 2) // 2)
        self._scroll_keeping_cursor(self.scroll_offset.y + step * half)

    def action_edge(self, bottom: int) -> None:
        self.go_to_block(len(self._block_rows) - 1 if bottom else 0)

    def action_choose(self) -> None:
        if self._block_rows:
            self.post_message(self.Chosen(self.cursor))
