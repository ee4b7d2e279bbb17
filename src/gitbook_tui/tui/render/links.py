"""Inline spans to Rich Text (no markup parsing); links classified by :mod:`..common.link_targets`."""

from __future__ import annotations

from collections.abc import Iterable

from rich.style import Style
from rich.text import Text

from ...markdown.model import Span
from ...markdown.sanitize import clean_text
from ..common.link_targets import classify_href
from .core import Context, Target
from .styles import span_style

__all__ = ["ICON_GLYPHS", "icon_text", "inline_text", "link_target", "safe_text"]


def safe_text(value: str | None, *, single_line: bool = False) -> str:
    """Server text made inert: controls and bidi overrides removed, tabs expanded."""
    text = clean_text(value or "").replace("\t", "    ")
    return text.replace("\n", " ") if single_line else text


def link_target(href: str, label: str) -> Target:
    href = safe_text(href, single_line=True).strip()
    external, safe = classify_href(href)
    return Target("link", label=label, href=href, external=external, safe=safe)


def link_style(ctx: Context, target: Target) -> Style:
    palette = ctx.palette
    return (palette.link if target.safe else palette.unsafe_link) + ctx.register(target)


ICON_GLYPHS: dict[str, str] = {
    "check": "✓",
    "circle-check": "✓",
    "square-check": "✓",
    "xmark": "✗",
    "circle-xmark": "✗",
    "circle-info": "ℹ",
    "info": "ℹ",
    "triangle-exclamation": "⚠",
    "circle-exclamation": "!",
    "arrow-right": "→",
    "arrow-left": "←",
    "arrow-up": "↑",
    "arrow-down": "↓",
    "star": "★",
    "plus": "+",
    "minus": "−",
}
"""Font Awesome icons drawn as one plain character; every other icon shows its name."""


def icon_text(name: str) -> str:
    """How an icon shows everywhere: its glyph when it has a one-cell one, else ``[name]``."""
    name = safe_text(name, single_line=True).strip()
    return ICON_GLYPHS.get(name) or f"[{name}]"


def inline_text(
    ctx: Context, spans: Iterable[Span], base: Style | None = None, *, single_line: bool = False
) -> Text:
    """Spans as one Text; links are styled and registered as targets."""
    text = Text(style=base or "")
    palette = ctx.palette
    for span in spans:
        value = safe_text(span.text, single_line=single_line)
        if not value:
            continue
        style = span_style(palette, span.style)
        if span.style:
            if "footnote_ref" in span.style:
                value = f"[{value}]"
            elif "icon" in span.style:
                value = icon_text(value)
            elif "mention" in span.style:
                title = ctx.title_of(span.href)
                value = safe_text(title, single_line=True) if title else value
            elif "button" in span.style:
                value = f" {value} "
        if span.href is not None:
            style = style + link_style(ctx, link_target(span.href, value))
        text.append(value, style)
    return text
