"""The colour palette of laid-out pages (plain Rich styles, no markup anywhere)."""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from rich.style import Style

from ...markdown.model import HintStyle

__all__ = ["DEFAULT_PALETTE", "HINT_ICONS", "Palette", "span_style"]

HINT_ICONS: dict[str, str] = {"info": "ℹ", "success": "✓", "warning": "⚠", "danger": "✖"}


class Palette(NamedTuple):
    """Every style the layout engine uses: immutable and hashable, so it can key caches."""

    headings: tuple[Style, ...] = (
        Style(bold=True, color="#7ab8ff"),
        Style(bold=True, color="#7ab8ff"),
        Style(bold=True, color="#9ccfd8"),
        Style(bold=True, italic=True, color="#c0c8d8"),
        Style(bold=True, italic=True),
        Style(italic=True),
    )
    heading_rule: Style = Style(color="#3d5a80")
    link: Style = Style(color="#58c4dc", underline=True)
    link_focus: Style = Style(color="#101216", bgcolor="#58c4dc", bold=True, underline=False)
    unsafe_link: Style = Style(color="#e0787a", underline=True, strike=False)
    inline_code: Style = Style(color="#e6c07b", bgcolor="#2a2d35")
    footnote_ref: Style = Style(color="#8a93a6")
    dim: Style = Style(color="#8a93a6")
    label: Style = Style(color="#8a93a6", italic=True)
    rule: Style = Style(color="#4b5263")
    quote_bar: Style = Style(color="#6b7280")
    quote_text: Style = Style(italic=True)
    hints: tuple[tuple[str, Style], ...] = (
        ("info", Style(color="#4ea1ff")),
        ("success", Style(color="#4fc27d")),
        ("warning", Style(color="#e5b93c")),
        ("danger", Style(color="#f0575a")),
    )
    tab_active: Style = Style(bold=True, color="#101216", bgcolor="#7ab8ff")
    tab_inactive: Style = Style(color="#aab2c0", bgcolor="#2a2d35")
    tab_marker: Style = Style(bold=True, color="#7ab8ff")
    step_number: Style = Style(bold=True, color="#9ccfd8")
    step_bar: Style = Style(color="#4b5263")
    details_marker: Style = Style(bold=True, color="#e5b93c")
    code_background: str = "#1b1d23"
    code_title: Style = Style(bold=True, color="#e6e6e6", bgcolor="#30343d")
    code_language: Style = Style(color="#8a93a6", bgcolor="#30343d")
    code_gutter: Style = Style(color="#5c6370", bgcolor="#1b1d23")
    code_text: Style = Style(color="#d7dae0", bgcolor="#1b1d23")
    code_theme: str = "monokai"
    box: Style = Style(color="#4b5263")
    placeholder: Style = Style(color="#c0c8d8")
    table_border: Style = Style(color="#4b5263")
    table_header: Style = Style(bold=True)
    update_date: Style = Style(bold=True, color="#4fc27d")
    method: Style = Style(bold=True, color="#101216", bgcolor="#4fc27d")
    kbd: Style = Style(bold=True, color="#e6e6e6", bgcolor="#3a3f4b")
    mark: Style = Style(color="#101216", bgcolor="#e5c07b")
    button: Style = Style(bold=True, color="#101216", bgcolor="#7ab8ff")
    icon: Style = Style(color="#9ccfd8")
    math: Style = Style(italic=True, color="#c678dd", bgcolor="#2a2d35")
    code_highlight: Style = Style(bgcolor="#2c3340")
    card_title: Style = Style(bold=True)
    condition: Style = Style(bold=True, color="#c678dd")
    notice: Style = Style(bold=True, color="#e5b93c")

    def heading(self, level: int) -> Style:
        return self.headings[max(1, min(level, len(self.headings))) - 1]

    def hint(self, style: HintStyle | str) -> Style:
        for name, value in self.hints:
            if name == style:
                return value
        return self.hints[0][1]


DEFAULT_PALETTE = Palette()


@lru_cache(maxsize=64)
def span_style(palette: Palette, styles: frozenset[str]) -> Style:
    """The Rich style of an inline span's style set (links are styled by the caller)."""
    style = Style()
    if "bold" in styles:
        style += Style(bold=True)
    if "italic" in styles:
        style += Style(italic=True)
    if "strike" in styles:
        style += Style(strike=True)
    if "code" in styles:
        style += palette.inline_code
    if "footnote_ref" in styles:
        style += palette.footnote_ref
    if "kbd" in styles:
        style += palette.kbd
    if "mark" in styles:
        style += palette.mark
    if "button" in styles:
        style += palette.button
    if "icon" in styles:
        style += palette.icon
    if "math" in styles:
        style += palette.math
    return style
