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

__all__ = ["inline_text", "link_target", "safe_text"]


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
        if "footnote_ref" in span.style:
            value = f"[{value}]"
        if span.href is not None:
            style = style + link_style(ctx, link_target(span.href, value))
        text.append(value, style)
    return text
