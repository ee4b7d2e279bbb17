"""ProgressivePage: the page viewer's side of a page still being parsed (see PageLoader).

A mixin for :class:`.page_viewer.PageViewer`: the first part of the page is shown, the
rest is added as the parse brings it (:meth:`ProgressivePage.extend`), the scrollbar is
estimated meanwhile and a "Loading…" line ends what is there. ``G`` pressed meanwhile
goes to the end of what is there and follows the end until the real one; an anchor
not found yet is looked for again as blocks arrive; find waits for the rest.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Mapping
from functools import partial
from typing import TYPE_CHECKING

from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip
from textual.widget import Widget
from textual.worker import Worker

if TYPE_CHECKING:
    from ...markdown import Document
    from ..render import FileInfo
    from ..render.viewport import Viewport
    from .page_loader import PageRest

__all__ = ["PREPARE_DELAY", "ProgressivePage"]

_PAINT_WAIT = 0.3
"""The rest of a page's parse starts once its first screen is painted (or after this)."""
PREPARE_DELAY = 0.3
"""Seconds after a page is complete before find's pre-check is made (in the background)."""


class ProgressivePage(Widget):
    """Adds the rest of a progressively parsed page to the viewer (see the module)."""

    _document: Document | None
    _view: Viewport | None
    _files: Mapping[str, FileInfo] | None
    _titles: Callable[[str], str | None] | None
    _pending_anchor: str | None

    def _init_progressive(self) -> None:
        self._share = 1.0  # how much of the page the document covers
        self._rest_worker: Worker[None] | None = None
        self._follow_bottom = False  # G pressed while the page is still being parsed
        self._first_paint = asyncio.Event()

    if TYPE_CHECKING:  # provided by the viewer and its FindInPage mixin

        def _build_view(self) -> None: ...
        def _sync(self) -> None: ...
        def refind(self, *, same_text: bool = False) -> None: ...
        def prepare_find(self, delay: float = 0.0) -> None: ...

    def _stop_rest(self) -> None:
        if self._rest_worker is not None:
            self._rest_worker.cancel()
            self._rest_worker = None

    def _follow_rest(self, document: Document, rest: PageRest) -> None:
        self._rest_worker = self.run_worker(
            partial(self._add_rest, document, rest), group="page_viewer.parse", exit_on_error=False
        )

    @property
    def complete(self) -> bool:
        """False while the page shown is still being parsed (see :meth:`show`)."""
        return self._share >= 1.0

    def extend(self, document: Document, share: float = 1.0) -> None:
        """Show ``document``, the current one with more blocks at its end, covering
        ``share`` of the page. What is on screen stays put; find carries on into the new
        blocks; ``G`` pressed meanwhile goes on to the new end; an anchor not found
        yet is looked for again."""
        old = self._document
        self._document, self._share = document, share
        view = self._view
        if view is None:
            self._build_view()
            return
        count = 0 if old is None else len(old.blocks)
        if (
            old is not None
            and count <= len(document.blocks)
            and all(a is b for a, b in zip(old.blocks, document.blocks, strict=False))
        ):
            with view.keep():
                view.layout.extend(document, share)
        else:  # not an extension after all: start over where the reader is
            from ..render.layout import DocumentLayout

            top = view.top
            view.layout = DocumentLayout(
                document, view.layout.width, files=self._files, titles=self._titles
            )
            view.layout.set_share(share)
            view.focus = None
            view.go(top)
            self.refind()
        anchor = self._pending_anchor
        if anchor is not None and (view.scroll_to_anchor(anchor) or share >= 1.0):
            self._pending_anchor = None
        if self._follow_bottom:
            view.go_bottom()
            self._follow_bottom = share < 1.0
        else:
            view.go(view.top)
        self._sync()
        if share >= 1.0:
            self.prepare_find(PREPARE_DELAY)

    async def _add_rest(self, shown: Document, rest: PageRest) -> None:
        # Let the first screen paint before the parse competes with it for the CPU.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._first_paint.wait(), _PAINT_WAIT)
        async for document, share in rest:
            if self._document is not shown:
                return  # another page is shown now
            self.extend(document, share)
            shown = document

    def _loading_line(self, width: int, base: Style) -> Strip:
        style = base + self.get_component_rich_style("page-viewer--loading", partial=True)
        text = f"Loading the rest of the page… {int(self._share * 100)} %"
        return Strip([Segment(text[:width], style)]).crop_extend(0, width, base)
