"""HangingIndent: a prefix, then a body whose wrapped lines start under its first line."""

from __future__ import annotations

from textual.content import Content
from textual.css.styles import RulesMap
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual

__all__ = ["HangingIndent"]


class HangingIndent(Visual):
    """``prefix`` then ``body``, the body's wrapped lines indented to start under its first
    line (not at column 0 under the prefix)."""

    def __init__(self, prefix: Content, body: Content) -> None:
        self.prefix = prefix
        self.body = body
        self.indent = prefix.cell_length

    @property
    def plain(self) -> str:
        return self.prefix.plain + self.body.plain

    def _inner(self, width: int) -> int:
        return max(1, width - self.indent)

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return self.indent + self.body.get_optimal_width(rules, self._inner(container_width))

    def get_height(self, rules: RulesMap, width: int) -> int:
        return self.body.get_height(rules, self._inner(width))

    def render_strips(
        self, width: int, height: int | None, style: Style, options: RenderOptions
    ) -> list[Strip]:
        inner = self._inner(width)
        strips = self.body.render_strips(inner, height, style, options)
        head = self.prefix.render_strips(self.indent, 1, style, options)
        lead = head[0] if head else Strip.blank(self.indent, style.rich_style)
        blank = Strip.blank(self.indent, style.rich_style)
        return [
            Strip.join([lead if index == 0 else blank, strip])
            for index, strip in enumerate(strips or [Strip.blank(inner, style.rich_style)])
        ]
