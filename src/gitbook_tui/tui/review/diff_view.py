"""DiffView: a page's block diff (from :mod:`gitbook_tui.markdown.diff`), inline or split.

Only the folded rows are laid out (unchanged runs become one "·· 42 unchanged ··" line),
with the shared renderer's wrapping helpers, and only the visible lines are painted (Line
API). Every changed line has a ``−``/``+`` gutter mark besides its colour (colour-blind
readers, monochrome terminals); changed pairs get word highlights, computed lazily by the
engine for the rows laid out. ``n``/``N`` go to the next/previous change, ``{``/``}`` show
less/more context, ``|`` toggles inline/split, ``enter`` on a fold opens it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Literal

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ...markdown.diff import (
    DEFAULT_CONTEXT,
    AttributeChange,
    BlockDiff,
    BlockKind,
    ChangeIndex,
    DisplayBlock,
    Fold,
    InlineLine,
    SplitLine,
    WordSpan,
    WordTag,
    fold,
    inline_lines,
    narrower,
    split_lines,
    wider,
)
from ...markdown.sanitize import clean_text
from ..common.text import count_of
from ..render.core import pad, wrap

__all__ = ["SPLIT_FROM_WIDTH", "DiffView"]

SPLIT_FROM_WIDTH = 120
"""Split mode is the default from this many terminal columns (inline below)."""

_PREFIX = {
    BlockKind.HEADING: "# ",
    BlockKind.LIST_ITEM: "• ",
    BlockKind.CODE_LINE: "│ ",
    BlockKind.CODE_TITLE: "▤ ",
    BlockKind.QUOTE: "▎ ",
    BlockKind.TABLE_HEADER: "┃ ",
    BlockKind.TABLE_ROW: "│ ",
    BlockKind.RULE: "──────",
}


class DiffView(ScrollView, can_focus=True):
    """The diff of one page; :meth:`show` gives it the engine's result."""

    # Lines are laid out to the width: keep the scrollbar's room so it never changes.
    DEFAULT_CSS = """
    DiffView { scrollbar-gutter: stable; overflow-x: hidden; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "change(1)", "Next change", id="diff.next"),
        Binding("N", "change(-1)", "Prev change", id="diff.prev"),
        Binding("vertical_line", "toggle_mode", "Inline/split", id="diff.mode"),
        Binding("left_curly_bracket", "context(-1)", "Less context", id="diff.less"),
        Binding("right_curly_bracket", "context(1)", "More context", id="diff.more"),
        Binding("enter", "open_fold", "Open fold", show=False, id="diff.open_fold"),
        Binding("j,down", "scroll_by(1)", "Down", show=False, id="diff.down"),
        Binding("k,up", "scroll_by(-1)", "Up", show=False, id="diff.up"),
        Binding("ctrl+d,pagedown", "page(1)", "Page down", show=False, id="diff.page_down"),
        Binding("ctrl+u,pageup", "page(-1)", "Page up", show=False, id="diff.page_up"),
        Binding("g,home", "edge(0)", "Top", show=False, id="diff.top"),
        Binding("G,end", "edge(1)", "Bottom", show=False, id="diff.bottom"),
    ]

    class Moved(Message):
        """The current change changed: "change 3 of 12"."""

        def __init__(self, ordinal: int, total: int) -> None:
            super().__init__()
            self.ordinal = ordinal
            self.total = total

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.diff: BlockDiff | None = None
        self.header: tuple[AttributeChange, ...] = ()
        self.mode: Literal["inline", "split"] | None = None
        """``None``: automatic (split from :data:`SPLIT_FROM_WIDTH` columns)."""
        self.context: int | None = DEFAULT_CONTEXT
        self.expanded: set[int] = set()
        self.lines: Sequence[InlineLine | SplitLine] = ()
        self.changes = ChangeIndex(())
        self.current: int | None = None
        """Index in :attr:`lines` of the current change."""
        self._strips: list[Strip | Text] = []
        """Each screen line: a wrapped :class:`Text`, made a :class:`Strip` when first painted."""
        self._starts: list[int] = []
        self._width = 0
        self._message = "Loading…"
        self._style_cache: dict[str, Style] | None = None

    # -- content ---------------------------------------------------------------------------------
    def show(self, diff: BlockDiff | None, header: Sequence[AttributeChange] = ()) -> None:
        """Show ``diff`` from its top; ``None`` clears the pane (see :meth:`show_message`)."""
        self.diff, self.header = diff, tuple(header)
        self.expanded.clear()
        self.current = None
        self._rebuild()
        self.scroll_to(y=0, animate=False)
        if diff is not None and self.changes:
            self._go(self.changes.positions[0])

    def show_message(self, message: str) -> None:
        self.diff, self.header, self._message = None, (), message
        self._rebuild()

    @property
    def effective_mode(self) -> Literal["inline", "split"]:
        if self.mode is not None:
            return self.mode
        return "split" if self.app.size.width >= SPLIT_FROM_WIDTH else "inline"

    def _rebuild(self) -> None:
        self._style_cache = None  # the theme may have changed
        width = self.scrollable_content_region.width or self.size.width or 80
        self._width = width
        if self.diff is None:
            self.lines, self.changes = (), ChangeIndex(())
            self._strips = [Strip([Segment(clean_text(self._message))])]
            self._starts = []
            self.virtual_size = Size(width, 1)
            self.refresh()
            return
        rows = fold(self.diff.rows, self.context, expanded=self.expanded)
        if self.effective_mode == "split":
            self.lines = split_lines(rows)
        else:
            self.lines = inline_lines(rows)
        self.changes = ChangeIndex.of(self.lines)
        strips: list[Strip | Text] = [
            Strip(list(t.render(self.app.console))) for t in self._header_lines(width)
        ]
        starts: list[int] = []
        for line in self.lines:
            starts.append(len(strips))
            strips.extend(
                self._split(line, width)
                if isinstance(line, SplitLine)
                else self._inline(line, width)
            )
        if not self.lines:
            strips.append(Strip([Segment("No differences in the page's content.")]))
        self._strips, self._starts = strips, starts
        self.virtual_size = Size(width, len(strips))
        self.refresh()

    # -- layout ----------------------------------------------------------------------------------
    def _styles(self) -> dict[str, Style]:
        """Styles from the theme (computed once per layout: blocks ask for them often)."""
        if self._style_cache is None:
            v = self.app.theme_variables

            def colour(name: str, fallback: str) -> str:
                value = v.get(name, fallback)
                return value if value.startswith("#") else fallback

            self._style_cache = {
                "add": Style.parse(colour("text-success", "green")),
                "del": Style.parse(colour("text-error", "red")),
                "ins_word": Style.parse(f"bold on {colour('success-muted', 'dark_green')}"),
                "del_word": Style.parse(f"strike on {colour('error-muted', 'dark_red')}"),
                "dim": Style(dim=True),
                "current": Style.parse(f"bold {colour('text-warning', 'yellow')}"),
            }
        return self._style_cache

    def _header_lines(self, width: int) -> list[Text]:
        styles = self._styles()
        out: list[Text] = []
        for change in self.header:
            old = "" if change.old is None else clean_text(str(change.old))
            new = "" if change.new is None else clean_text(str(change.new))
            line = Text.assemble(
                ("± ", styles["current"]),
                (f"{change.name}: ", "bold"),
                (old or "(none)", styles["del_word"]),
                " → ",
                (new or "(none)", styles["ins_word"]),
            )
            out.extend(wrap(line, width))
        if out:
            out.append(Text("─" * width, style=styles["dim"]))
        return out

    def _block_text(
        self, block: DisplayBlock, spans: Sequence[WordSpan] | None, removed: bool
    ) -> Text:
        styles = self._styles()
        prefix = "  " * block.depth + _PREFIX.get(block.kind, "")
        if block.is_container:
            prefix += f"[{block.kind.value}{' ' + block.variant if block.variant else ''}] "
        text = Text(clean_text(prefix), style=styles["dim"])
        if spans is None:
            text.append(clean_text(block.text))
            return text
        for span in spans:
            if span.tag is WordTag.EQUAL:
                text.append(clean_text(span.text))
            elif span.tag is WordTag.DELETE:
                text.append(clean_text(span.text), styles["del_word"])
            else:
                text.append(clean_text(span.text), styles["ins_word"])
        return text

    def _fold_text(self, line_fold: Fold) -> Text:
        where = f" · {clean_text(line_fold.section)}" if line_fold.section else ""
        return Text(
            f"·· {line_fold.count} unchanged{where} ··  (enter opens, }} more context)",
            style=self._styles()["dim"],
        )

    def _gutter(self, marker: str, current: bool) -> Text:
        styles = self._styles()
        style = (
            styles["current"]
            if current
            else styles["add"]
            if marker == "+"
            else styles["del"]
            if marker == "−"
            else styles["dim"]
        )
        return Text(("▶" if current else "▌" if marker.strip() else " ") + marker, style=style)

    def _inline(self, line: InlineLine, width: int) -> list[Text]:
        if line.fold is not None:
            return wrap(Text.assemble("  ", self._fold_text(line.fold)), width)
        assert line.block is not None
        body = self._block_text(line.block, line.spans(), line.marker == "−")
        gutter = self._gutter(line.marker, False)
        lines = wrap(body, max(1, width - 3))
        return [
            Text.assemble(gutter if i == 0 else Text("  "), " ", part)
            for i, part in enumerate(lines)
        ]

    def _split(self, line: SplitLine, width: int) -> list[Text]:
        if line.fold is not None:
            return wrap(Text.assemble("  ", self._fold_text(line.fold)), width)
        half = max(10, (width - 1) // 2)
        sides: list[list[Text]] = []
        for block, marker, spans in (
            (line.left, line.left_marker, line.left_spans()),
            (line.right, line.right_marker, line.right_spans()),
        ):
            if block is None:
                sides.append([])
                continue
            body = wrap(self._block_text(block, spans, marker == "−"), max(1, half - 3))
            gutter = self._gutter(marker, False)
            sides.append(
                [
                    Text.assemble(gutter if i == 0 else Text("  "), " ", part)
                    for i, part in enumerate(body)
                ]
            )
        height = max(len(sides[0]), len(sides[1]), 1)
        filler = Text("╱" * half, style=self._styles()["dim"])
        out = []
        for i in range(height):
            left = (
                pad(sides[0][i], half)
                if i < len(sides[0])
                else (filler if not sides[0] else Text(" " * half))
            )
            right = (
                pad(sides[1][i], half)
                if i < len(sides[1])
                else (filler if not sides[1] else Text(" " * half))
            )
            out.append(Text.assemble(left, Text("│", style=self._styles()["dim"]), right))
        return out

    # -- painting --------------------------------------------------------------------------------
    def _strip(self, index: int) -> Strip:
        """Screen line ``index``, rendered on first use (a long diff is laid out whole, but
        only what is painted is rendered)."""
        line = self._strips[index]
        if isinstance(line, Text):
            line = Strip(list(line.render(self.app.console))).adjust_cell_length(self._width)
            self._strips[index] = line
        return line

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        index = scroll_y + y
        width = self.scrollable_content_region.width
        if index >= len(self._strips):
            return Strip.blank(width, self.rich_style)
        strip = self._strip(index)
        if self.current is not None and self._starts and index == self._starts[self.current]:
            strip = Strip.join([Strip([Segment("▶", self._styles()["current"])]), strip.crop(1)])
        strip = strip.crop(scroll_x, scroll_x + width).adjust_cell_length(width)
        return strip.apply_style(self.rich_style)

    def on_resize(self) -> None:
        width = self.scrollable_content_region.width
        if width and width != self._width:
            keep = self.current
            self._rebuild()
            if keep is not None and keep < len(self._starts):
                self._go(keep)

    # -- navigation ------------------------------------------------------------------------------
    def visible_text(self) -> list[str]:
        top = self.scroll_offset.y
        end = min(len(self._strips), top + self.scrollable_content_region.height)
        return [self._strip(index).text for index in range(top, end)]

    def all_text(self) -> list[str]:
        return [self._strip(index).text for index in range(len(self._strips))]

    def _go(self, position: int) -> None:
        self.current = position
        if position < len(self._starts):
            self.scroll_to(y=max(0, self._starts[position] - 2), animate=False)
        self.post_message(self.Moved(self.changes.ordinal(position), len(self.changes)))
        self.refresh()

    def action_change(self, step: int) -> None:
        if not self.changes:
            return
        here = self.current if self.current is not None else -1
        target = self.changes.next(here) if step > 0 else self.changes.previous(max(0, here))
        if target is None:
            self.notify(
                "Last change of this page (J: next page)" if step > 0 else "First change", timeout=2
            )
            return
        self._go(target)

    def action_toggle_mode(self) -> None:
        self.mode = "inline" if self.effective_mode == "split" else "split"
        self._relayout_keeping_place()

    def action_context(self, step: int) -> None:
        self.context = wider(self.context) if step > 0 else narrower(self.context)
        self._relayout_keeping_place()
        self.notify(
            "All lines shown"
            if self.context is None
            else f"Context: {count_of(self.context, 'block')}",
            timeout=2,
        )

    def _relayout_keeping_place(self) -> None:
        """Rebuild, staying on the same change (by its ordinal: folding keeps the changes)."""
        ordinal = self.changes.ordinal(self.current) if self.current is not None else 0
        self._rebuild()
        if ordinal and self.changes:
            self._go(self.changes.positions[min(ordinal, len(self.changes)) - 1])

    def action_open_fold(self) -> None:
        top = self.scroll_offset.y
        for position, start in enumerate(self._starts):
            if start >= top and (line_fold := self.lines[position].fold) is not None:
                self.expanded.add(line_fold.start)
                self._rebuild()
                return

    def action_scroll_by(self, lines: int) -> None:
        self.scroll_to(y=self.scroll_offset.y + lines, animate=False)

    def action_page(self, pages: int) -> None:
        self.scroll_to(y=self.scroll_offset.y + pages * max(1, self.size.height - 2), animate=False)

    def action_edge(self, bottom: int) -> None:
        self.scroll_to(y=len(self._strips) if bottom else 0, animate=False)
