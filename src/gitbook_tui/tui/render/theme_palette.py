"""The page palette of a Textual theme: its colours, each text colour floored for contrast."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from rich.style import Style
from textual.color import Color

from ..common.contrast import (
    DIMMED_CONTRAST,
    PANEL_TINT,
    TEXT_CONTRAST,
    floored_css_variables,
    readable,
)
from .styles import Palette

__all__ = ["MUTED_CONTRAST", "palette_from_theme"]

MUTED_CONTRAST = DIMMED_CONTRAST
"""Secondary text (dimmed on purpose), still legible."""


def _parse(value: str | None) -> Color | None:
    if not value or value.startswith("ansi"):
        return None  # (ANSI themes: the terminal's own colours, nothing to measure)
    try:
        return Color.parse(value)
    except Exception:  # a theme variable that is no colour
        return None


def palette_from_theme(variables: Mapping[str, str], *, dark: bool) -> Palette:
    """The page palette for a theme (``App.theme_variables``); cached per theme."""
    keys = (
        "background",
        "foreground",
        "primary",
        "secondary",
        "accent",
        "success",
        "warning",
        "error",
        "text-primary",
        "text-secondary",
        "text-accent",
        "text-success",
        "text-warning",
        "text-error",
        "text-muted",
    )
    floored = floored_css_variables(variables)  # (as GitBookApp's; idempotent)
    return _palette(tuple((k, floored.get(k, "")) for k in keys), dark)


@lru_cache(maxsize=32)
def _palette(items: tuple[tuple[str, str], ...], dark: bool) -> Palette:
    variables = {k: v for k, v in items if v}
    background = _parse(variables.get("background")) or Color.parse(
        "#1e1e1e" if dark else "#ffffff"
    )
    foreground = _parse(variables.get("foreground")) or Color.parse(
        "#e0e0e0" if dark else "#1e1e1e"
    )
    foreground = readable(foreground, background, foreground.inverse, TEXT_CONTRAST)

    def text(
        name: str, fallback: str, minimum: float = TEXT_CONTRAST, on: Color = background
    ) -> str:
        base = _parse(variables.get(name)) or _parse(variables.get(fallback)) or foreground
        return readable(base, on, foreground, minimum).hex

    def tint(amount: float) -> str:
        """The background moved ``amount`` of the way to the foreground (panels, rules)."""
        return background.blend(foreground, amount).hex

    heading = text("text-primary", "primary")
    heading_2 = text("text-accent", "accent")
    link = text("text-accent", "accent")
    muted = text("text-muted", "foreground", MUTED_CONTRAST)
    warning = text("text-warning", "warning")
    success = text("text-success", "success")
    error = text("text-error", "error")
    code_background = tint(0.06)
    panel = tint(PANEL_TINT)
    code_warning = text("text-warning", "warning", on=Color.parse(code_background))
    on_heading = background.hex
    return Palette(
        headings=(
            Style(bold=True, color=heading),
            Style(bold=True, color=heading),
            Style(bold=True, color=heading_2),
            Style(bold=True, italic=True, color=foreground.hex),
            Style(bold=True, italic=True),
            Style(italic=True),
        ),
        heading_rule=Style(color=tint(0.35)),
        link=Style(color=link, underline=True),
        link_focus=Style(color=on_heading, bgcolor=link, bold=True, underline=False),
        unsafe_link=Style(color=error, underline=True, strike=False),
        inline_code=Style(color=code_warning, bgcolor=code_background),
        footnote_ref=Style(color=muted),
        dim=Style(color=muted),
        label=Style(color=muted, italic=True),
        rule=Style(color=tint(0.35)),
        quote_bar=Style(color=tint(0.45)),
        quote_text=Style(italic=True),
        hints=(
            ("info", Style(color=link)),
            ("success", Style(color=success)),
            ("warning", Style(color=warning)),
            ("danger", Style(color=error)),
        ),
        tab_active=Style(bold=True, color=on_heading, bgcolor=heading),
        tab_inactive=Style(color=foreground.hex, bgcolor=panel),
        tab_marker=Style(bold=True, color=heading),
        step_number=Style(bold=True, color=heading_2),
        step_bar=Style(color=tint(0.35)),
        details_marker=Style(bold=True, color=warning),
        code_background=code_background,
        code_title=Style(bold=True, color=foreground.hex, bgcolor=panel),
        code_language=Style(color=muted, bgcolor=panel),
        code_gutter=Style(color=muted, bgcolor=code_background),
        code_text=Style(color=foreground.hex, bgcolor=code_background),
        code_theme="monokai" if dark else "default",
        code_highlight=Style(bgcolor=tint(0.16)),
        box=Style(color=tint(0.35)),
        placeholder=Style(color=foreground.hex),
        table_border=Style(color=tint(0.35)),
        table_header=Style(bold=True),
        update_date=Style(bold=True, color=success),
        method=Style(bold=True, color=on_heading, bgcolor=success),
    )
