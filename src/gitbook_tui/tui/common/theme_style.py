"""theme_style: a Rich style string with the theme's colours (``$text-error`` …) filled in."""

from __future__ import annotations

from collections.abc import Mapping

from textual.color import Color

from .contrast import DIMMED_CONTRAST, DIMMED_TEXT, TEXT_CONTRAST, readable

__all__ = ["theme_style"]

FALLBACKS = {
    "text-error": "red",
    "text-success": "green",
    "text-warning": "yellow",
    "error": "red",
    "success": "green",
    "warning": "yellow",
}
"""Colours for an ANSI theme (no hex values): the terminal's own."""


def theme_style(variables: Mapping[str, str], style: str) -> str:
    """``style`` (e.g. ``"bold $text-error"``) with each ``$name`` replaced by the theme's
    colour, made readable on the theme's background (body-text contrast; dimmed text's
    for ``$text-muted`` and ``$text-disabled``): for Rich Text
    (tables, tree labels), which cannot resolve Textual's variables itself."""
    words = style.split()
    if not any(word.startswith("$") for word in words):
        return style
    background: Color | None
    foreground: Color | None
    try:
        background = Color.parse(variables.get("background", "#000000"))
        foreground = Color.parse(variables.get("foreground", "#ffffff"))
    except Exception:  # an ANSI theme
        background = foreground = None
    out: list[str] = []
    for word in words:
        if not word.startswith("$"):
            out.append(word)
            continue
        name = word[1:]
        fallback = FALLBACKS.get(name, "")
        value = variables.get(name) or ""
        try:
            colour = Color.parse(value)
        except Exception:
            colour = None
        if colour is None or background is None or foreground is None:
            if fallback:
                out.append(fallback)
            continue
        colour = background.blend(colour, colour.a) if colour.a < 1 else colour
        floor = DIMMED_CONTRAST if name in DIMMED_TEXT else TEXT_CONTRAST
        out.append(readable(colour, background, foreground, floor).hex)
    return " ".join(out)
