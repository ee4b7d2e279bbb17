"""MarkdownBody: a comment body rendered by the pages' GitBook markdown renderer (inert)."""

from __future__ import annotations

from textual.geometry import Size
from textual.strip import Strip
from textual.widget import Widget

from ...markdown import Document, clean_text, parse
from ..render import DocumentLayout

__all__ = ["MarkdownBody"]


class MarkdownBody(Widget):
    """A short document laid out whole at the widget's width (comment bodies are small)."""

    DEFAULT_CSS = """
    MarkdownBody { height: auto; width: 1fr; }
    """

    def __init__(self, markdown: str, *, id: str | None = None, classes: str | None = None):
        super().__init__(id=id, classes=classes)
        self._document: Document = parse(clean_text(markdown))
        self._layout: DocumentLayout | None = None
        self._cached: tuple[int, list[Strip]] | None = None

    def update(self, markdown: str) -> None:
        self._document = parse(clean_text(markdown))
        self._layout = None
        self._cached = None
        self.refresh(layout=True)

    def _layout_at(self, width: int) -> DocumentLayout:
        layout = self._layout
        if layout is None or layout.width != max(1, width):
            layout = self._layout = DocumentLayout(self._document, width)
        return layout

    def _strips(self, width: int) -> list[Strip]:
        if self._cached is not None and self._cached[0] == width:
            return self._cached[1]
        layout = self._layout_at(width)
        strips: list[Strip] = []
        for index in range(len(layout)):
            block = layout.get(index)
            if strips:
                strips.append(Strip.blank(width))
            strips.extend(block.strip(line) for line in range(block.height))
        self._cached = (width, strips)
        return strips

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return max(1, len(self._strips(width)))

    def render_line(self, y: int) -> Strip:
        width = self.content_region.width
        strips = self._strips(width)
        base = self.rich_style
        if y >= len(strips):
            return Strip.blank(width, base)
        return strips[y].apply_style(base).crop_extend(0, width, base)
