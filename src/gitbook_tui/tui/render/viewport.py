"""The reader's position in a document layout: top line, focused item, tabs and details."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from time import monotonic

from .core import PlacedTarget, Target
from .find import FindResults, Match, Pending
from .layout import DocumentLayout
from .navigation import Position, nearest_tabs, next_target, tab_count, target_at

__all__ = ["ReadingPosition", "Viewport"]


@dataclass(frozen=True)
class ReadingPosition:
    """Where a reader is in a page: the block at the top of the screen, the line of it
    there, and the focused item (a link) if any. Kept by block, not by document line: a
    new layout of the page estimates the heights of blocks it has not laid out yet."""

    block: int
    offset: int
    focus: Position | None = None


class Viewport:
    """Everything the page viewer does except drawing, as plain testable logic.

    ``top`` is the first document line on screen. Every method that moves it lays out
    the blocks that will show (and keeps what is on screen steady when blocks above
    turn out taller or shorter than estimated); the widget then mirrors ``top`` into
    its scroll offset and ``layout.total_height`` into its virtual size.
    """

    def __init__(self, layout: DocumentLayout, height: int) -> None:
        self.layout = layout
        self.height = max(1, height)
        self.top = 0
        self.focus: Position | None = None

    @property
    def bottom(self) -> int:
        """The last document line on screen."""
        return self.top + self.height - 1

    # -- moving --------------------------------------------------------------------

    def go(self, top: int) -> int:
        """Put document line ``top`` first on screen (clamped to the document)."""
        self.top = self.layout.ensure(max(0, top), self.height)
        return self.top

    def go_bottom(self) -> int:
        self.top = self.layout.ensure_bottom(self.height)
        return self.top

    @contextmanager
    def keep(self) -> Iterator[None]:
        """Keep the lines on screen in place while blocks above them get laid out."""
        index = self.layout.block_at(self.top)
        offset = self.top - self.layout.start(index)
        yield
        self.top = self.layout.start(index) + offset

    def resize(self, width: int, height: int) -> None:
        """Re-wrap for a new size, keeping the block at the top (and the relative
        position inside it) on screen. Only what becomes visible is laid out."""
        self.height = max(1, height)
        layout = self.layout
        if width != layout.width and not len(layout):
            layout.set_width(width)  # an empty page: nothing to keep in place
        elif width != layout.width:
            index = layout.block_at(self.top)
            fraction = (self.top - layout.start(index)) / max(1, layout.height(index))
            layout.set_width(width)
            layout.get(index)
            self.top = layout.start(index) + int(fraction * layout.height(index))
        self.go(self.top)

    @property
    def position(self) -> ReadingPosition:
        index = self.layout.block_at(self.top)
        return ReadingPosition(index, self.top - self.layout.start(index), self.focus)

    def restore(self, position: ReadingPosition) -> None:
        """Go back to ``position`` (a block that no longer exists: the end)."""
        layout = self.layout
        if not len(layout):
            return
        index = min(position.block, len(layout) - 1)
        layout.get(index)
        self.go(layout.start(index) + position.offset)
        self.focus = position.focus if target_at(layout, position.focus) is not None else None

    def scroll_to_anchor(self, anchor: str) -> bool:
        line = self.layout.anchor_line(anchor)
        if line is None:
            return False
        self.go(line)
        return True

    def reveal(self, first: int, last: int | None = None) -> None:
        """Scroll just enough for lines ``first..last`` to show, with a little context."""
        last = first if last is None else last
        context = min(2, self.height // 4)
        if first < self.top:
            self.go(first - context)
        elif last > self.bottom:
            self.go(last - self.height + 1 + context)

    def center(self, line: int) -> None:
        """Bring ``line`` on screen a third of the way down, unless it already shows."""
        if not self.top <= line <= self.bottom:
            self.go(line - self.height // 3)

    def line_of(self, match: Match) -> int:
        return self.layout.start(match.block) + match.line

    def show_match(self, match: Match) -> None:
        """Bring ``match`` on screen, all its lines when it runs past a soft wrap (its
        first a third of the way down), unless it already shows."""
        first = self.line_of(match)
        last = self.layout.start(match.block) + match.segments[-1][0]
        if not self.top <= first <= last <= self.bottom:
            self.go(first - self.height // 3)

    def visible_text(self) -> list[str]:
        out: list[str] = []
        for y in range(self.top, self.top + self.height):
            where = self.layout.locate(y)
            if where is not None:
                out.append(self.layout.text(where[0])[where[1]])
        return out

    def search(
        self, results: FindResults, matches: Iterator[list[Match] | Pending | None], budget: float
    ) -> bool:
        """Feed ``results`` from ``matches`` for about ``budget`` seconds; once a match at
        or below the screen top is known, make it current and show it. True when done
        (never while the document is still being parsed: ``results.waiting`` then)."""
        deadline = monotonic() + budget
        results.waiting = False
        with self.keep():  # searching lays out blocks above the screen too
            for found in matches:
                if found is None:
                    results.waiting = True
                    break
                results.add(found)
                if monotonic() > deadline:
                    break
            else:
                results.done = True
        if results.pick_first(self.line_of, self.top) and results.current_match is not None:
            self.show_match(results.current_match)
        return results.done

    # -- focusable items -----------------------------------------------------------

    @property
    def focused(self) -> PlacedTarget | None:
        return target_at(self.layout, self.focus)

    def focus_spans(self, index: int, line: int) -> Iterator[tuple[int, int]]:
        """Cell ranges of the focused item on line ``line`` of block ``index``."""
        placed = self.focused
        if placed is not None and self.focus is not None and self.focus[0] == index:
            for region_line, x0, x1 in placed.regions:
                if region_line == line:
                    yield x0, x1

    def is_visible(self, position: Position | None) -> bool:
        placed = target_at(self.layout, position)
        if placed is None or position is None:
            return False
        return self.top <= self.layout.start(position[0]) + placed.line <= self.bottom

    def cycle(self, forward: bool) -> bool:
        """Focus the next (previous) item in reading order; from the screen top when the
        focused item is off screen. Returns False when the page has none."""
        current = self.focus if self.is_visible(self.focus) else None
        with self.keep():
            position = next_target(self.layout, current, self.top, self.bottom, forward)
        if position is None:
            return False
        self.focus = position
        placed = target_at(self.layout, position)
        if placed is not None:
            start = self.layout.start(position[0])
            self.reveal(start + placed.regions[0][0], start + placed.regions[-1][0])
        return True

    def activate(self) -> Target | None:
        """Enter on the focused item: toggles details, switches tabs; returns the target
        (links are left to the caller, which reports them)."""
        placed = self.focused
        if placed is None or self.focus is None:
            return None
        target = placed.target
        if target.kind == "details":
            self.layout.state.toggle(target.path)
            self.relayout(self.focus[0])
        elif target.kind == "tab":
            self.layout.state.active_tabs[target.path] = target.tab
            self.relayout(self.focus[0])
        return target

    def switch_tab(self, step: int) -> bool:
        """``[``/``]``: the previous/next tab of the tabs block nearest the focus or top."""
        found = nearest_tabs(self.layout, self.focus, self.top, self.bottom)
        if found is None:
            return False
        index, path = found
        count = tab_count(self.layout, index, path)
        if count == 0:
            return False
        focused = self.focused
        moves_focus = focused is not None and focused.target.tabs == path
        active = (self.layout.state.active_tabs.get(path, 0) + step) % count
        self.layout.state.active_tabs[path] = active
        self.relayout(index)
        if moves_focus:
            # Focus was on this tabs block: follow it to the newly active title.
            for k, placed in enumerate(self.layout.get(index).targets):
                target = placed.target
                if target.kind == "tab" and target.path == path and target.tab == active:
                    self.focus = (index, k)
        return True

    def relayout(self, index: int) -> None:
        """Lay block ``index`` out again after a state change; lines above it stay put."""
        self.layout.invalidate(index)
        self.layout.get(index)
        targets = self.layout.get(index).targets
        if self.focus is not None and self.focus[0] == index and self.focus[1] >= len(targets):
            self.focus = None
        self.go(self.top)
