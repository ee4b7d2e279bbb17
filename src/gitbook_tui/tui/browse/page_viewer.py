"""PageViewer: a windowed, keyboard-driven reader for one parsed GitBook page.

Its lines are drawn by :class:`.page_lines.PageLines`, its moving keys are
:class:`.page_viewer_keys.PageViewerKeys`, find is :class:`.find_bar.FindInPage` and a
page still being parsed :class:`.progressive_page.ProgressivePage` (mixins).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView

from ...markdown.sanitize import clean_text
from .find_bar import FindBar, FindInPage
from .page_lines import PageLines
from .page_viewer_keys import PageViewerKeys
from .progressive_page import PREPARE_DELAY, ProgressivePage

if TYPE_CHECKING:  # the layout engine is imported once a page is shown (not for the tree)
    from ...markdown import Document
    from ..render import DocumentLayout, FileInfo, Palette, PlacedTarget
    from ..render.viewport import ReadingPosition, Viewport
    from .page_loader import PageRest
__all__ = ["PageViewer"]


def _binding(keys: str, action: str, description: str, name: str, *, show: bool = False) -> Binding:
    return Binding(keys, action, description, show=show, id=f"page_viewer.{name}")


class PageViewer(
    PageViewerKeys, PageLines, ProgressivePage, FindInPage, ScrollView, can_focus=True
):
    """Shows a :class:`Document`, laying out only the blocks near the viewport."""

    DEFAULT_CSS = """
    PageViewer {
        overflow-x: hidden;
        overflow-y: auto;
        scrollbar-gutter: stable;
        scrollbar-size-vertical: 1;
        padding: 0 1;
    }
    PageViewer > .page-viewer--match {
        background: $warning-muted;
        color: $text-warning;
    }
    PageViewer > .page-viewer--loading {
        color: $text-muted;
        text-style: italic;
    }
    PageViewer > .page-viewer--current-match {
        background: $warning;
        color: $background;
        text-style: bold underline;
    }
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "page-viewer--match",
        "page-viewer--current-match",
        "page-viewer--loading",
    }

    # Every binding has an id ("page_viewer.<name>") so users can remap it in a keymap.
    BINDINGS: ClassVar[list[BindingType]] = [
        _binding("j,down", "scroll_lines(1)", "Down", "down"),
        _binding("k,up", "scroll_lines(-1)", "Up", "up"),
        _binding("space,pagedown,ctrl+f", "scroll_pages(1)", "Page down", "page_down"),
        _binding("b,pageup,ctrl+b", "scroll_pages(-1)", "Page up", "page_up"),
        _binding("ctrl+d,d", "scroll_half(1)", "Half page down", "half_down"),
        _binding("ctrl+u,u", "scroll_half(-1)", "Half page up", "half_up"),
        _binding("g,home", "top", "Top", "top"),
        _binding("G,end", "bottom", "Bottom", "bottom"),
        _binding("tab", "cycle(1)", "Next link", "next_item", show=True),
        _binding("shift+tab", "cycle(-1)", "Previous link", "previous_item"),
        _binding("enter", "activate", "Open", "activate", show=True),
        _binding("right_square_bracket", "switch_tab(1)", "Next tab", "next_tab"),
        _binding("left_square_bracket", "switch_tab(-1)", "Previous tab", "previous_tab"),
        _binding("slash", "find", "Find", "find", show=True),
        _binding("n", "find_step(1)", "Next match", "find_next"),
        _binding("N", "find_step(-1)", "Previous match", "find_previous"),
        _binding("escape", "close_find", "Close find", "close_find"),
        _binding("h,left", "leave", "To the tree", "leave"),
    ]

    class LinkActivated(Message):
        """Enter on a link. The viewer never opens anything: the screen decides.

        ``external`` is True only for http(s); ``safe`` is False for any other scheme
        (``javascript:``, ``file:``…), which the screen must refuse.
        """

        def __init__(
            self, viewer: PageViewer, href: str, *, external: bool, safe: bool, text: str
        ) -> None:
            super().__init__()
            self.viewer = viewer
            self.href = href
            self.external = external
            self.safe = safe
            self.text = text

        @property
        def control(self) -> PageViewer:
            return self.viewer

    class LeaveRequested(Message):
        """``h``/``left`` at the page's left edge: the screen moves the focus out."""

    def __init__(
        self, *, name: str | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._document: Document | None = None
        self._files: Mapping[str, FileInfo] | None = None
        self._titles: Callable[[str], str | None] | None = None
        self._pending_anchor: str | None = None
        self._pending_position: ReadingPosition | None = None
        self._view: Viewport | None = None
        self._adjusting = False
        self._painted = False
        self._find_bar: FindBar | None = None
        self._init_progressive()  # see ProgressivePage

    # -- public API ----------------------------------------------------------------

    @property
    def document(self) -> Document | None:
        return self._document

    @property
    def document_layout(self) -> DocumentLayout | None:
        """The windowed layout of the current document (None until shown and sized)."""
        return None if self._view is None else self._view.layout

    @property
    def viewport(self) -> Viewport | None:
        """Scroll position, focus and tab/details state (None until shown and sized)."""
        return self._view

    @property
    def has_painted(self) -> bool:
        """True once a line of the current document has been rendered."""
        return self._painted

    def show(
        self,
        document: Document,
        *,
        files: Mapping[str, FileInfo] | None = None,
        anchor: str | None = None,
        titles: Callable[[str], str | None] | None = None,
        rest: PageRest | None = None,
        share: float = 1.0,
    ) -> None:
        """Display ``document`` (at heading ``anchor`` if given). Only the blocks on the
        first screen are laid out; ``files`` adds sizes/dimensions to placeholders and
        ``titles`` gives the title of the page a link leads to (mentions, content refs).

        ``document`` may be the first part (``share`` of the page) of a page still being
        parsed: ``rest`` then brings the rest, which is added as it comes (see
        :meth:`extend`), starting once the first screen has been painted."""
        self._stop_rest()
        self._document, self._files, self._titles = document, files, titles
        self._view, self._painted = None, False
        self._share, self._follow_bottom = (1.0, False) if rest is None else (share, False)
        self._first_paint.clear()
        self._pending_anchor = anchor
        self._pending_position = None
        self._reset_find()
        self._build_view()
        if rest is not None:
            self._follow_rest(document, rest)

    @property
    def position(self) -> ReadingPosition | None:
        """The reader's place (top block and line, focused link); None until shown."""
        if self._view is None:
            return self._pending_position
        return self._view.position

    def restore_position(self, position: ReadingPosition) -> None:
        """Go back to a place :attr:`position` returned (once shown and sized)."""
        if self._view is None:
            self._pending_position = position
            return
        self._view.restore(position)
        self._sync()

    def headings(self) -> list[tuple[int, str, str]]:
        """``(level, title, anchor)`` of every heading, for an outline."""
        if self._document is None:
            return []
        return [
            (level, clean_text(title), anchor) for level, title, anchor in self._document.headings
        ]

    def current_heading(self) -> str | None:
        """The anchor of the last heading at or above the top of the screen (the section
        being read), else None."""
        view = self._view
        if view is None or self._document is None:
            return None
        current = None
        for _level, _title, anchor in self._document.headings:
            line = view.layout.anchor_line(anchor)
            if line is None:
                continue
            if line > view.top:
                break
            current = anchor
        return current

    def scroll_to_anchor(self, anchor: str) -> bool:
        """Put heading ``anchor`` at the top of the screen; False if there is none."""
        if self._view is None:
            self._pending_anchor = anchor
            return self._document is not None
        found = self._view.scroll_to_anchor(anchor)
        self._sync()
        if not found and not self.complete:
            self._pending_anchor = anchor  # looked for again as the rest arrives
            return True
        return found

    @property
    def focused_target(self) -> PlacedTarget | None:
        return None if self._view is None else self._view.focused

    def visible_text(self) -> list[str]:
        """The plain text of the lines on screen (for tests and screens)."""
        return [] if self._view is None else self._view.visible_text()

    # -- colours -------------------------------------------------------------------

    def theme_palette(self) -> Palette:
        """The page colours of the app's theme (readable on its background)."""
        from ..render.theme_palette import palette_from_theme

        app = self.app
        return palette_from_theme(app.theme_variables, dark=app.current_theme.dark)

    def on_mount(self) -> None:
        self.app.theme_changed_signal.subscribe(self, self._theme_changed)

    def _theme_changed(self, _theme: object) -> None:
        """Lay the page out again in the new colours, where the reader is."""
        view = self._view
        if view is None or self._document is None:
            return
        from ..render.layout import DocumentLayout
        from ..render.viewport import Viewport

        position = view.position
        state = view.layout.state
        width, height = self._content_size()
        layout = DocumentLayout(
            self._document,
            width,
            files=self._files,
            titles=self._titles,
            palette=self.theme_palette(),
            state=state,
        )
        self._view = Viewport(layout, height)
        self._view.restore(position)
        self._sync()
        self.refind(same_text=True)

    # -- geometry and scrolling ----------------------------------------------------

    def _content_size(self) -> tuple[int, int]:
        region = self.scrollable_content_region
        return region.width, max(1, region.height)

    def _build_view(self) -> None:
        width, height = self._content_size()
        if self._document is None or width <= 0:
            return  # Not sized yet: on_resize builds it.
        from ..render.layout import DocumentLayout
        from ..render.viewport import Viewport

        layout = DocumentLayout(
            self._document,
            width,
            files=self._files,
            titles=self._titles,
            palette=self.theme_palette(),
        )
        layout.set_share(self._share)
        self._view = Viewport(layout, height)
        anchor, self._pending_anchor = self._pending_anchor, None
        position, self._pending_position = self._pending_position, None
        if position is not None:
            self._view.restore(position)
        elif anchor is None or not self._view.scroll_to_anchor(anchor):
            if anchor is not None and not self.complete:
                self._pending_anchor = anchor  # maybe in the part still being parsed
            self._view.go(0)
        self._sync()
        if self.complete:
            self.prepare_find(PREPARE_DELAY)

    def _sync(self) -> None:
        """Mirror the viewport into Textual: virtual size, scroll offset, repaint."""
        view = self._view
        if view is None:
            return
        size = Size(self._content_size()[0], view.layout.total_height)
        if size != self.virtual_size:
            self.virtual_size = size
        if int(self.scroll_y) != view.top:
            self._adjusting = True
            try:
                # force: right after a new virtual size the scrollbar (and so Textual's
                # "may scroll" flag) has not been updated yet.
                self.scroll_to(y=view.top, animate=False, immediate=True, force=True)
            finally:
                self._adjusting = False
        self.refresh()

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        if not self._adjusting and self._view is not None:
            # Mouse wheel, scrollbar or any other scroll: lay out what is now visible.
            self._follow_bottom, self._pending_anchor = False, None
            self._view.go(int(new_value))
            self._sync()

    def on_resize(self, event: events.Resize) -> None:
        if self._view is None:
            self._build_view()
            return
        old_width = self._view.layout.width
        self._view.resize(*self._content_size())
        self._sync()
        if old_width != self._view.layout.width:
            self.refind(same_text=True)

    # -- key actions (the others: .page_viewer_keys) ---------------------------------

    def action_activate(self) -> None:
        view = self._view
        if view is None:
            return
        target = view.activate()
        self._sync()
        if target is None:
            return
        if target.kind == "link":
            href, label = target.href or "", target.label
            self.post_message(
                self.LinkActivated(
                    self, href, external=target.external, safe=target.safe, text=label
                )
            )
        else:
            self.refind()  # the text on screen changed

    def action_leave(self) -> None:
        # the page never scrolls sideways: its left edge is always in view
        self.post_message(self.LeaveRequested())
