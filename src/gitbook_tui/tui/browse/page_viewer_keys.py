"""PageViewerKeys: the page viewer's moving keys (scrolling, pages, top/bottom, links, tabs).

A mixin for :class:`.page_viewer.PageViewer`, which declares the bindings; this module
holds their actions (apart from ``enter`` and ``h``, which post the viewer's own messages).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from textual.widget import Widget

from .find_bar import FindBar

if TYPE_CHECKING:
    from ..render.viewport import Viewport

__all__ = ["PageViewerKeys"]


class PageViewerKeys(Widget):
    """Scrolling, link cycling and tab switching of the page viewer."""

    _view: Viewport | None
    _find_bar: FindBar | None
    _follow_bottom: bool

    if TYPE_CHECKING:  # provided by the viewer and its mixins

        def _sync(self) -> None: ...
        def refind(self, *, same_text: bool = False) -> None: ...
        @property
        def complete(self) -> bool: ...

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "cycle":
            # Nothing focusable: let tab move focus to the next widget instead.
            return self._view is not None and bool(self._view.layout.focusable_blocks())
        if action == "close_find":
            # Only while the find bar shows, so escape still reaches the screen otherwise.
            return self._find_bar is not None and self._find_bar.display
        return True

    def _apply(self, change: Callable[[Viewport], object]) -> None:
        self._follow_bottom = False
        if self._view is not None:
            change(self._view)
            self._sync()

    def action_scroll_lines(self, lines: int) -> None:
        self._apply(lambda view: view.go(view.top + lines))

    def action_scroll_pages(self, pages: int) -> None:
        self._apply(lambda view: view.go(view.top + pages * view.height))

    def action_scroll_half(self, step: int) -> None:
        self._apply(lambda view: view.go(view.top + step * max(1, view.height // 2)))

    def action_top(self) -> None:
        self._apply(lambda view: view.go(0))

    def action_bottom(self) -> None:
        """The end of the page; while it is still being parsed, the end of what has been
        parsed, following the end as the rest arrives until the real end is on screen."""
        self._apply(lambda view: view.go_bottom())
        self._follow_bottom = not self.complete

    def action_cycle(self, step: int) -> None:
        self._apply(lambda view: view.cycle(step > 0))

    def action_switch_tab(self, step: int) -> None:
        view = self._view
        if view is not None and view.switch_tab(step):
            self._sync()
            self.refind()
