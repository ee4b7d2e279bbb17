"""RowTable: the admin tabs' table, drawing only the rows on screen (5,000 members open and
filter at once), with the kit's list motion keys and a fixed header."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Generic, TypeVar, overload

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ..common.pager import ListMotion, list_motion_bindings
from ..common.text import fit

__all__ = ["Cell", "Column", "LazyRows", "RowTable"]

T = TypeVar("T")

Cell = tuple[str, str]
"""A cell: its (already cleaned) text and a Rich style ("" for none, "dim", "bold"…)."""


class LazyRows(Sequence[Sequence[Cell]], Generic[T]):
    """Rows made from ``items`` only when drawn: listing 5,000 members builds no cells."""

    def __init__(self, items: Sequence[T], make: Callable[[T], Sequence[Cell]]) -> None:
        self.items = items
        self.make = make

    def __len__(self) -> int:
        return len(self.items)

    @overload
    def __getitem__(self, index: int) -> Sequence[Cell]: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Sequence[Cell]]: ...

    def __getitem__(self, index: int | slice) -> Sequence[Cell] | Sequence[Sequence[Cell]]:
        if isinstance(index, slice):
            return [self.make(item) for item in self.items[index]]
        return self.make(self.items[index])


@dataclass(frozen=True)
class Column:
    """A column: its title, the cells it wants, and whether it takes the room left over."""

    title: str
    width: int
    grow: bool = False


class RowTable(ListMotion, ScrollView, can_focus=True):
    """Rows of cells under a header; only the visible rows are cut to width and drawn
    (a DataTable lays every row out: 1.2 s for 5,000). ``enter`` posts :class:`Selected`."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "row-table--header",
        "row-table--cursor",
        "row-table--cursor-blurred",
    }

    DEFAULT_CSS = """
    RowTable { height: 1fr; background: $surface; }
    RowTable > .row-table--header { text-style: bold; background: $panel; }
    RowTable > .row-table--cursor { background: $block-cursor-background; color: $block-cursor-foreground; }
    RowTable > .row-table--cursor-blurred { background: $block-cursor-blurred-background; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        *list_motion_bindings("admin.table"),
        Binding("enter", "select", "Open", show=False, id="admin.table.select"),
    ]

    class Highlighted(Message):
        """The cursor moved to ``index`` (of the rows listed)."""

        def __init__(self, table: RowTable, index: int) -> None:
            super().__init__()
            self.table = table
            self.index = index

        @property
        def control(self) -> RowTable:
            return self.table

    class Selected(Highlighted):
        """``enter`` (or a click) on row ``index``."""

    def __init__(self, columns: Sequence[Column], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.columns = list(columns)
        self.rows: Sequence[Sequence[Cell]] = []
        self.cursor = 0
        self._widths: list[int] = [c.width for c in self.columns]
        self._styles: dict[str, Style] = {}
        self._fitted = 0
        """The width the columns were fitted to."""

    # -- rows and cursor ----------------------------------------------------------------------
    def set_rows(self, rows: Sequence[Sequence[Cell]], *, cursor: int | None = None) -> None:
        """Show ``rows`` (the cursor kept where it was, or put at ``cursor``)."""
        self.rows = rows
        self.cursor = max(0, min(self.cursor if cursor is None else cursor, len(rows) - 1))
        self.virtual_size = Size(self.size.width, len(rows) + 1)
        self._scroll_to_cursor()
        self.refresh()
        self.post_message(self.Highlighted(self, self.cursor))

    def set_columns(self, columns: Sequence[Column]) -> None:
        self.columns = list(columns)
        self._fit_columns()
        self.refresh()

    def _row_count(self) -> int:
        return len(self.rows)

    def _cursor_index(self) -> int | None:
        return self.cursor if self.rows else None

    def _set_cursor(self, index: int) -> None:
        self.cursor = index
        self._scroll_to_cursor()
        self.refresh()
        self.post_message(self.Highlighted(self, index))

    def _visible_rows(self) -> int:
        return max(1, self.scrollable_content_region.height - 1)

    def _scroll_to_cursor(self) -> None:
        """Scroll so the cursor's row shows below the header (line 0 of the view)."""
        top, shown = self.scroll_offset.y, self._visible_rows()
        if self.cursor < top:
            self.scroll_to(y=self.cursor, animate=False, immediate=True)
        elif self.cursor > top + shown - 1:
            self.scroll_to(y=self.cursor - shown + 1, animate=False, immediate=True)

    def action_select(self) -> None:
        if self.rows:
            self.post_message(self.Selected(self, self.cursor))

    def on_click(self, event: events.Click) -> None:
        if event.y <= 0:
            return
        index = self.scroll_offset.y + event.y - 1
        if 0 <= index < len(self.rows):
            self._set_cursor(index)
            if event.chain >= 2:
                self.action_select()

    # -- drawing ------------------------------------------------------------------------------
    def on_resize(self) -> None:
        self._fit_columns()
        self.virtual_size = Size(self.size.width, len(self.rows) + 1)

    def _fit_columns(self) -> None:
        """Each column its width; the growing ones share what is left (or lose it first)."""
        room = max(1, self.scrollable_content_region.width or self.size.width or 80)
        gaps = len(self.columns)
        fixed = sum(c.width for c in self.columns if not c.grow)
        growing = [c for c in self.columns if c.grow]
        spare = room - fixed - gaps
        widths = []
        for c in self.columns:
            if c.grow:
                widths.append(max(4, spare // max(1, len(growing))))
            else:
                widths.append(c.width)
        while sum(widths) + gaps > room and max(widths) > 4:  # too narrow: cut the widest
            widest = widths.index(max(widths))
            widths[widest] -= 1
        self._widths = widths
        self._fitted = room

    def _style(self, name: str) -> Style:
        style = self._styles.get(name)
        if style is None:
            style = self._styles[name] = Style.parse(name) if name else Style()
        return style

    def _line(self, cells: Sequence[Cell], base: Style) -> list[Segment]:
        segments = []
        for (text, style), width in zip(cells, self._widths, strict=False):
            segments.append(
                Segment(" " + fit(text, width, ellipsis=True), base + self._style(style))
            )
        return segments

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        if width != self._fitted:  # a scrollbar came or went after the last resize
            self._fit_columns()
        base = self.rich_style
        if y == 0:
            header = self.get_component_rich_style("row-table--header")
            cells = [(c.title, "") for c in self.columns]
            return Strip(self._line(cells, base + header)).adjust_cell_length(width, base + header)
        index = self.scroll_offset.y + y - 1
        if index >= len(self.rows):
            return Strip.blank(width, base)
        style = base
        if index == self.cursor:
            name = "row-table--cursor" if self.has_focus else "row-table--cursor-blurred"
            style = base + self.get_component_rich_style(name)
        return Strip(self._line(self.rows[index], style)).adjust_cell_length(width, style)

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()
