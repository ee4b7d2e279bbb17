"""DiffView: a page's block diff (from :mod:`gitbook_tui.markdown.diff`), inline or split.

Only the folded rows are laid out (unchanged runs become one "·· 42 unchanged ··" line),
with the shared renderer's wrapping helpers, and only the visible lines are painted (Line
API). Every changed line has a ``−``/``+`` gutter mark besides its colour (colour-blind
readers, monochrome terminals); changed pairs get word highlights, computed lazily by the
engine for the rows laid out. ``n``/``N`` go to the next/previous change, ``{``/``}`` show
less/more context, ``|`` toggles inline/split, ``enter`` on a fold opens it.

A large page's diff comes in two stages (:class:`~gitbook_tui.markdown.diff.StagedDiff`):
its first changes are shown at once ("change 1 of …", a last line saying the rest is
being read), the whole page's diff is made and laid out in worker threads once they are
painted (:func:`.diff_layout.lay_out`: the UI thread only swaps the result in, so keys are
answered meanwhile), and then replaces them where the reader is (the lines showing the same
blocks of the page, the rest below, the change total known). A key or a resize that changes
a large diff's layout lays it out again the same way (:mod:`.diff_relayout`): the old layout
stays shown, keys answered on it, until the new one is swapped in on the same blocks.
"""

from __future__ import annotations

import asyncio
import logging
from bisect import bisect_right
from collections.abc import Collection, Sequence
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
    ChangeIndex,
    InlineLine,
    SplitLine,
    StagedDiff,
    narrower,
    same_change,
    same_line,
    wider,
)
from ...markdown.sanitize import clean_text
from ..common.text import count_of
from .diff_layout import DiffLayout, LayoutSettings, lay_out
from .diff_lines import DiffLines
from .diff_relayout import Relayouts

__all__ = ["SPLIT_FROM_WIDTH", "DiffView"]

SPLIT_FROM_WIDTH = 120
"""Split mode is the default from this many terminal columns (inline below)."""
READING_THE_REST = "⋯ Reading the rest of the page (the changes below, the change total)…"

_log = logging.getLogger(__name__)


class DiffView(DiffLines, ScrollView, can_focus=True):
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
        # The pager keys of common/pager.py (space, b, d, u are the review pane's own here).
        Binding("pagedown,ctrl+f", "page(1)", "Page down", show=False, id="diff.page_down"),
        Binding("pageup,ctrl+b", "page(-1)", "Page up", show=False, id="diff.page_up"),
        Binding("ctrl+d", "half(1)", "Half page down", show=False, id="diff.half_down"),
        Binding("ctrl+u", "half(-1)", "Half page up", show=False, id="diff.half_up"),
        Binding("g,home", "edge(0)", "Top", show=False, id="diff.top"),
        Binding("G,end", "edge(1)", "Bottom", show=False, id="diff.bottom"),
    ]

    class ModeChosen(Message):
        """The reader chose inline or split (``|``): the choice persists (per account)."""

        def __init__(self, mode: Literal["inline", "split"]) -> None:
            super().__init__()
            self.mode = mode

    class Moved(Message):
        """The current change changed: "change 3 of 12" (``total``: ``None`` while the rest
        of a large page is being read)."""

        def __init__(self, ordinal: int, total: int | None) -> None:
            super().__init__()
            self.ordinal = ordinal
            self.total = total

    class Completed(Message):
        """The whole page's diff replaced its first part (a large page's: see the module)."""

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
        self.partial = False
        """What is shown is a large page's first part: the rest is being read."""
        self._staged: StagedDiff | None = None
        self._tail = ""
        """A line after the diff's (the rest being read, or could not be)."""
        self._strips: list[Strip | Text] = []
        """Each screen line: a wrapped :class:`Text`, made a :class:`Strip` when first painted."""
        self._starts: list[int] = []
        self._width = 0
        self._message = "Loading…"
        self._style_cache: dict[str, Style] | None = None
        self.relayouts = Relayouts(self)

    # -- content ---------------------------------------------------------------------------------
    def show(
        self, diff: BlockDiff | StagedDiff | None, header: Sequence[AttributeChange] = ()
    ) -> None:
        """Show ``diff`` from its top; ``None`` clears the pane (see :meth:`show_message`).
        A staged diff's first part is shown, and the whole page's read once it is painted."""
        self._staged = None
        self.workers.cancel_group(self, "diff-rest")
        self.relayouts.cancel()
        if isinstance(diff, StagedDiff):
            if diff.partial:
                self._staged = diff
                self.call_after_refresh(self._read_the_rest, diff)
            diff = diff.first
        self.partial = self._staged is not None
        self._tail = READING_THE_REST if self.partial else ""
        self.diff, self.header = diff, tuple(header)
        self.expanded.clear()
        self.current = None
        self._rebuild()
        self.scroll_to(y=0, animate=False)
        if diff is not None and self.changes:
            self._go(self.changes.positions[0])

    def show_message(self, message: str) -> None:
        self._staged, self.partial, self._tail = None, False, ""
        self.workers.cancel_group(self, "diff-rest")
        self.relayouts.cancel()
        self.diff, self.header, self._message = None, (), message
        self._rebuild()

    def _read_the_rest(self, staged: StagedDiff) -> None:
        if self._staged is staged:
            self.run_worker(
                self._the_rest(staged), group="diff-rest", exclusive=True, exit_on_error=False
            )

    async def _the_rest(self, staged: StagedDiff) -> None:
        """The whole page's diff, made and laid out in threads, in place of its first part
        (swapped in at once: the UI thread never lays out the whole page's lines)."""
        whole: BlockDiff | None = None
        layout: DiffLayout | None = None
        try:
            made, continues = await asyncio.to_thread(staged.rest)
            whole = made
            # The folds opened in the part are the whole's too if its rows come first.
            while self._staged is staged:
                settings = self._settings(self.expanded if continues else (), "")
                layout = await asyncio.to_thread(lay_out, made, settings)
                if self._settings(self.expanded if continues else (), "") == settings:
                    break  # else the reader changed the width, mode or context meanwhile
        except Exception:  # a bug: say so in place of the rest, keep what is shown
            _log.exception("the whole page's diff failed")
            layout = None
        if self._staged is not staged:
            return  # another page (or message) is shown meanwhile
        self._staged, self.partial, self._tail = None, False, ""
        if whole is None or layout is None:
            self._tail = "The rest of the page could not be compared."
            self._relayout_keeping_place()
        else:
            self._replace(whole, layout)
        self.post_message(self.Completed())

    def swap_in(self, layout: DiffLayout) -> None:
        """Show :attr:`diff` laid out again (a relayout's ``layout``), on the same blocks;
        the current change kept in view."""
        assert self.diff is not None
        self._replace(self.diff, layout)
        if self.current is not None and self.current < len(self._starts):
            start, top = self._starts[self.current], self.scroll_offset.y
            if not top <= start < top + self.scrollable_content_region.height:
                self._go(self.current)

    def layout_settings(self) -> LayoutSettings:
        return self._settings()

    @property
    def laying_out(self) -> bool:
        """A key's relayout is under way (the layout shown is the one before it)."""
        return self.relayouts.running

    def _replace(self, whole: BlockDiff, layout: DiffLayout) -> None:
        """Show ``whole`` (laid out as ``layout``) in place of what is shown, on the same
        lines: those showing the same blocks of the page (:func:`same_line`), the current
        change too; else on the same change (by its ordinal)."""
        part_rows, part_lines = self.diff.rows if self.diff else (), self.lines
        top, at = self.scroll_offset.y, self.top_line
        offset = top - self._starts[at] if at is not None else 0
        current, ordinal = self.current, self._ordinal()
        self.diff = whole
        self.expanded = set(layout.settings.expanded)
        self._apply(layout)

        def same(position: int | None) -> int | None:
            if position is None or not 0 <= position < len(part_lines):
                return None
            return same_line(part_lines[position], part_rows, self.lines, whole.rows)

        change = same_change(same(current), ordinal, self.lines, self.changes)
        line = same(at)
        if line is None:
            if change is not None:
                self._go(change)
            elif at is None:
                self.scroll_to(y=top, animate=False)  # in the header: the same lines
            return
        end = self._starts[line + 1] if line + 1 < len(self._starts) else len(self._strips)
        self.scroll_to(
            y=self._starts[line] + min(offset, end - self._starts[line] - 1), animate=False
        )
        if change is not None:
            self._go(change, scroll=False)

    @property
    def effective_mode(self) -> Literal["inline", "split"]:
        if self.mode is not None:
            return self.mode
        return "split" if self.app.size.width >= SPLIT_FROM_WIDTH else "inline"

    def _settings(
        self, expanded: Collection[int] | None = None, tail: str | None = None
    ) -> LayoutSettings:
        """What the layout of :attr:`diff` depends on, now (``expanded``, ``tail``: others)."""
        return LayoutSettings(
            self.scrollable_content_region.width or self.size.width or 80,
            self.effective_mode,
            self.context,
            frozenset(self.expanded if expanded is None else expanded),
            self.header,
            self._tail if tail is None else tail,
            tuple(self._styles().items()),
        )

    def _rebuild(self) -> None:
        self._style_cache = None  # the theme may have changed
        if self.diff is None:
            self._width = width = self._settings().width
            self.lines, self.changes = (), ChangeIndex(())
            self._strips = [Strip([Segment(clean_text(self._message))])]
            self._starts = []
            self.virtual_size = Size(width, 1)
            self.refresh()
            return
        self._apply(lay_out(self.diff, self._settings()))

    def _apply(self, layout: DiffLayout) -> None:
        self.lines, self.changes = layout.lines, layout.changes
        self._strips, self._starts = layout.strips, layout.starts
        self._width = layout.settings.width
        self.virtual_size = Size(self._width, len(self._strips))
        self.refresh()

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

    def on_mount(self) -> None:
        self.app.theme_changed_signal.subscribe(self, self._theme_changed)

    def _theme_changed(self, _theme: object = None) -> None:
        """Colours come from the theme: a new theme re-derives them and redraws every line."""
        self._style_cache = None
        self.relayouts.after_change(self._relayout_keeping_place)

    def on_resize(self) -> None:
        width = self.scrollable_content_region.width
        if width and width != self._width:
            self.relayouts.after_change(self._rebuild_keeping_current)

    def _rebuild_keeping_current(self) -> None:
        keep = self.current
        self._rebuild()
        if keep is not None and keep < len(self._starts):
            self._go(keep)

    # -- navigation ------------------------------------------------------------------------------
    def visible_text(self) -> list[str]:
        top = self.scroll_offset.y
        end = min(len(self._strips), top + self.scrollable_content_region.height)
        return [self._strip(index).text for index in range(top, end)]

    @property
    def top_line(self) -> int | None:
        """Index in :attr:`lines` of the line at the top of the view (``None``: the header)."""
        at = bisect_right(self._starts, self.scroll_offset.y) - 1
        return at if at >= 0 else None

    def all_text(self) -> list[str]:
        return [self._strip(index).text for index in range(len(self._strips))]

    def go_to(self, position: int) -> None:
        """Make line ``position`` of :attr:`lines` the current one, near the top."""
        if 0 <= position < len(self.lines):
            self._go(position)

    def _go(self, position: int, *, scroll: bool = True) -> None:
        self.current = position
        if scroll and position < len(self._starts):
            self.scroll_to(y=max(0, self._starts[position] - 2), animate=False)
        total = None if self.partial else len(self.changes)
        self.post_message(self.Moved(self.changes.ordinal(position), total))
        self.refresh()

    def action_change(self, step: int) -> None:
        if not self.changes:
            self.notify("No block changes on this page (J/K: other pages)", timeout=2)
            return
        here = self.current if self.current is not None else -1
        target = self.changes.next(here) if step > 0 else self.changes.previous(max(0, here))
        if target is None and step > 0 and self.partial:
            self.notify("Reading the rest of the page…", timeout=2)
            return
        if target is None:
            self.notify(
                "Last change of this page (J: next page)" if step > 0 else "First change", timeout=2
            )
            return
        self._go(target)

    def action_toggle_mode(self) -> None:
        self.mode = "inline" if self.effective_mode == "split" else "split"
        self.relayouts.after_change(self._relayout_keeping_place)
        self.post_message(self.ModeChosen(self.mode))

    def action_context(self, step: int) -> None:
        self.context = wider(self.context) if step > 0 else narrower(self.context)
        self.relayouts.after_change(self._relayout_keeping_place)
        self.notify(
            "All lines shown"
            if self.context is None
            else f"Context: {count_of(self.context, 'block')}",
            timeout=2,
        )

    def _ordinal(self) -> int:
        return self.changes.ordinal(self.current) if self.current is not None else 0

    def _relayout_keeping_place(self) -> None:
        """Rebuild, staying on the same change (by its ordinal: folding keeps the changes)."""
        ordinal = self._ordinal()
        self._rebuild()
        if ordinal and self.changes:
            self._go(self.changes.positions[min(ordinal, len(self.changes)) - 1])

    def action_open_fold(self) -> None:
        top = self.scroll_offset.y
        for position, start in enumerate(self._starts):
            if start >= top and (line_fold := self.lines[position].fold) is not None:
                self.expanded.add(line_fold.start)
                self.relayouts.after_change(self._rebuild)
                return

    def action_scroll_by(self, lines: int) -> None:
        self.scroll_to(y=self.scroll_offset.y + lines, animate=False)

    def action_page(self, pages: int) -> None:
        self.scroll_to(y=self.scroll_offset.y + pages * max(1, self.size.height - 2), animate=False)

    def action_half(self, step: int) -> None:
        half = max(1, (self.size.height - 2) // 2)
        self.scroll_to(y=self.scroll_offset.y + step * half, animate=False)

    def action_edge(self, bottom: int) -> None:
        self.scroll_to(y=len(self._strips) if bottom else 0, animate=False)
