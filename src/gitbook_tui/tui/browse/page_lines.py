"""PageLines: the page viewer's lines — the laid-out page's strips with find matches and
the focused link drawn over them, and "Loading…" under a page still being parsed.

A mixin for :class:`.page_viewer.PageViewer` (a ScrollView drawing its own lines).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import TYPE_CHECKING

from rich.style import Style
from textual.strip import Strip
from textual.widget import Widget

if TYPE_CHECKING:
    from ..render import FindResults
    from ..render.viewport import Viewport

__all__ = ["PageLines"]


class PageLines(Widget):
    """``render_line`` of the page viewer (see the module)."""

    _view: Viewport | None
    _find: FindResults
    _painted: bool
    _first_paint: asyncio.Event

    if TYPE_CHECKING:  # provided by the viewer and its mixins

        def _content_size(self) -> tuple[int, int]: ...
        def _sync(self) -> None: ...
        def _loading_line(self, width: int, base: Style) -> Strip: ...

    def render_line(self, y: int) -> Strip:
        width, base = self._content_size()[0], self.rich_style
        view = self._view
        where = None if view is None else view.layout.locate(int(self.scroll_y) + y)
        if view is None or where is None:
            line = int(self.scroll_y) + y
            if view is not None and not view.layout.complete and line == view.layout.content_height:
                return self._loading_line(width, base)
            return Strip.blank(width, base)
        index, line = where
        layout = view.layout
        if not layout.is_exact(index):
            # Scrolled without the viewport knowing (should not happen): fix next turn.
            self.call_after_refresh(self._rescue)
            return Strip.blank(width, base)
        block = layout.get(index)
        if line >= block.height:
            return Strip.blank(width, base)
        strip = block.strip(line)
        spans = list(self._decorations(index, line))
        if spans:
            from ..render.core import overlay  # (a page is shown: the engine is imported)

            strip = overlay(strip, spans)
        if not self._painted:
            self._painted = True
            # the rest of the parse starts once this frame is on screen, not during it
            self.call_after_refresh(self._first_paint.set)
        return strip.apply_style(base).crop_extend(0, width, base)

    def _rescue(self) -> None:
        if self._view is not None:
            self._view.go(int(self.scroll_y))
            self._sync()

    def _decorations(self, index: int, line: int) -> Iterator[tuple[int, int, Style]]:
        for x0, x1, current in self._find.on_line(index, line):
            name = "page-viewer--current-match" if current else "page-viewer--match"
            yield x0, x1, self.get_component_rich_style(name, partial=True)
        if self._view is not None:
            style = self._view.layout.palette.link_focus  # link colour reversed: readable
            for x0, x1 in self._view.focus_spans(index, line):
                yield x0, x1, style
