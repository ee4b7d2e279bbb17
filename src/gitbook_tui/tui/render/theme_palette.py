"""The page palette of a Textual theme: every colour from the theme's variables, each
text colour made readable on the theme's background (WCAG contrast, see :func:`contrast`).

``palette_from_theme(app.theme_variables, dark=app.current_theme.dark)`` gives body-size
text (links, headings, inline code, hints) at least :data:`TEXT_CONTRAST` against the
background, secondary text (labels, dates, footnote marks) at least
:data:`MUTED_CONTRAST`; a theme colour that falls short is moved towards the theme's
foreground until it does not.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from rich.style import Style
from textual.color import Color

from .styles import Palette

__all__ = ["MUTED_CONTRAST", "TEXT_CONTRAST", "contrast", "palette_from_theme", "readable"]

TEXT_CONTRAST = 4.5
"""WCAG AA for body text."""
MUTED_CONTRAST = 3.0
"""Secondary text (dimmed on purpose), still legible."""


def _luminance(color: Color) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(color.r) + 0.7152 * channel(color.g) + 0.0722 * channel(color.b)


def contrast(one: Color, other: Color) -> float:
    """The WCAG contrast ratio of two opaque colours (1 to 21)."""
    a, b = _luminance(one), _luminance(other)
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)


def readable(color: Color, background: Color, towards: Color, minimum: float) -> Color:
    """``color`` blended towards ``towards`` (the theme's foreground) just enough to reach
    ``minimum`` contrast on ``background`` (or to become ``towards``)."""
    color = background.blend(color, color.a) if color.a < 1 else color
    if contrast(color, background) >= minimum:
        return color
    for step in range(1, 11):
        candidate = color.blend(towards, step / 10)
        if contrast(candidate, background) >= minimum:
            return candidate
    extreme = Color(255, 255, 255) if _luminance(background) < 0.2 else Color(0, 0, 0)
    return extreme


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
    return _palette(tuple((k, variables.get(k, "")) for k in keys), dark)


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
    panel = tint(0.14)
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
