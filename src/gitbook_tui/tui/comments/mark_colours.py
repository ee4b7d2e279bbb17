"""Colours of the marks in the Comments view ("page changed", my reactions, "● new"),
made readable (:data:`~..render.theme_palette.TEXT_CONTRAST`) on the backgrounds they are
drawn on in the current theme: ``$warning``/``$accent`` fall to 1.2:1 in light themes."""

from __future__ import annotations

from rich.color import Color as RichColor
from textual.color import Color
from textual.widget import Widget

from ..common.contrast import TEXT_CONTRAST, readable

__all__ = ["mark_colours"]


def _colour(value: RichColor | str | None) -> Color | None:
    if value is None:
        return None
    try:
        if isinstance(value, RichColor):
            if value.triplet is None:
                return None
            return Color(*value.triplet)
        return Color.parse(value)
    except Exception:  # an ANSI colour or no colour: the terminal's own
        return None


def mark_colours(widget: Widget, *backgrounds: RichColor | None) -> tuple[str, str] | None:
    """(warning, accent) as hex colours readable on ``widget``'s background and on each of
    ``backgrounds`` (e.g. the highlighted row's); ``None`` when the theme is ANSI."""
    variables = widget.app.theme_variables
    foreground = _colour(variables.get("foreground"))
    base = widget.background_colors[1]
    grounds = [base, *(c for c in map(_colour, backgrounds) if c is not None)]
    if foreground is None:
        return None
    result: list[str] = []
    for name, fallback in (("text-warning", "warning"), ("text-accent", "accent")):
        colour = _colour(variables.get(name)) or _colour(variables.get(fallback))
        if colour is None:
            return None
        for ground in grounds:
            colour = readable(colour, ground, foreground, TEXT_CONTRAST)
        result.append(colour.hex)
    return result[0], result[1]
