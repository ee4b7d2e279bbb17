"""Text colours derived from the theme's background with a contrast floor (WCAG ratios)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from textual.color import Color

__all__ = [
    "DIMMED_CONTRAST",
    "DIMMED_TEXT",
    "DISTINCT",
    "PANEL_TINT",
    "TEXT_CONTRAST",
    "contrast",
    "dimmed_colours",
    "floored_css_variables",
    "opaque",
    "readable",
    "readable_on",
]

TEXT_CONTRAST = 4.5
"""WCAG AA for body text: every text cell reaches it on the background it is drawn on."""
DIMMED_CONTRAST = 3.0
"""Dimmed or disabled text (secondary on purpose), still legible."""

WHITE = Color(255, 255, 255)
BLACK = Color(0, 0, 0)

NORMAL_TEXT = (
    "foreground",
    "text-primary",
    "text-secondary",
    "text-accent",
    "text-success",
    "text-warning",
    "text-error",
    "block-cursor-blurred-foreground",
)
"""CSS variables of body-size text: at least :data:`TEXT_CONTRAST` on every background."""
FOOTER_TEXT = ("footer-key-foreground", "footer-description-foreground")
"""CSS variables of the footer's text, floored on the footer's backgrounds."""
DIMMED_TEXT = ("text-muted", "text-disabled", "foreground-muted", "foreground-disabled")
"""CSS variables of dimmed or disabled text: at least :data:`DIMMED_CONTRAST`.
``text-disabled`` is floored on the footer (its denied keys: ``app.tcss``), the others on
the body's backgrounds."""
SURFACES = ("background", "surface", "panel", "boost")
"""The backgrounds text is drawn on (``boost`` over the background)."""
FOOTER_SURFACES = (
    "footer-background",
    "footer-item-background",
    "footer-key-background",
    "footer-description-background",
)
DISTINCT = 1.4
"""The contrast of dimmed text with enabled text: visibly apart, not only by a shade."""
PANEL_TINT = 0.14
"""How far a page's panels (code titles, inactive tabs) move from the background to the
foreground: dimmed text is floored on them too."""


def _luminance(color: Color) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(color.r) + 0.7152 * channel(color.g) + 0.0722 * channel(color.b)


def contrast(one: Color, other: Color) -> float:
    """The WCAG contrast ratio of two opaque colours (1 to 21)."""
    a, b = _luminance(one), _luminance(other)
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)


def opaque(color: Color, background: Color) -> Color:
    """``color`` as drawn on ``background``: its alpha blended the way Textual does."""
    return background.blend(color, color.a, alpha=1.0) if color.a < 1 else color


def readable(color: Color, background: Color, towards: Color, minimum: float) -> Color:
    """``color`` blended towards ``towards`` (the theme's foreground) just enough to reach
    ``minimum`` contrast on ``background``; failing that, towards white or black."""
    return readable_on(color, [background], towards, minimum)


def readable_on(
    color: Color, backgrounds: Iterable[Color], towards: Color, minimum: float
) -> Color:
    """``color`` moved (towards ``towards``, then black or white) just enough to reach
    ``minimum`` on each of ``backgrounds`` (opaque)."""
    grounds = list(backgrounds)
    color = opaque(color, grounds[0])

    def worst(candidate: Color) -> float:
        return min(contrast(candidate, ground) for ground in grounds)

    if worst(color) >= minimum:
        return color
    dark_ground = sum(_luminance(g) for g in grounds) / len(grounds) < 0.2
    extreme = WHITE if dark_ground else BLACK
    for target in (towards, extreme):
        for step in range(1, 21):
            candidate = color.blend(target, step / 20, alpha=1.0)
            if worst(candidate) >= minimum:
                return candidate
        color = target if worst(target) > worst(color) else color
    return extreme


def _parse(value: str | None) -> Color | None:
    if not value or "ansi" in value or value.startswith("auto"):
        return None
    try:
        return Color.parse(value)
    except Exception:  # a variable that is no colour (a text style, "transparent" …)
        return None


def floored_css_variables(variables: Mapping[str, str]) -> dict[str, str]:
    """The theme's CSS variables with every text colour made readable: body text at least
    :data:`TEXT_CONTRAST` and dimmed text at least :data:`DIMMED_CONTRAST` on each of the
    backgrounds it is drawn on, and the cursor row's text on the cursor. ANSI themes (the
    terminal's own colours) are returned as they are."""
    out = dict(variables)
    background = _parse(variables.get("background"))
    foreground = _parse(variables.get("foreground"))
    if background is None or foreground is None:
        return out
    background = opaque(background, BLACK)
    grounds = [background]
    for name in SURFACES[1:]:
        ground = _parse(variables.get(name))
        if ground is not None and ground.a > 0:
            grounds.append(opaque(ground, background))
    foreground = readable_on(foreground, grounds, foreground, TEXT_CONTRAST)
    foreground, muted = distinct_foreground(
        foreground, [*grounds, background.blend(foreground, PANEL_TINT)]
    )
    for name in NORMAL_TEXT:
        colour = _parse(variables.get(name))
        if colour is not None:
            out[name] = readable_on(colour, grounds, foreground, TEXT_CONTRAST).hex
    out["foreground"] = foreground.hex
    for name in DIMMED_TEXT:
        out[name] = muted.hex
    out.update(_footer(variables, background, foreground))
    out.update(_cursor(variables, background, foreground))
    return out


def _footer(variables: Mapping[str, str], background: Color, foreground: Color) -> dict[str, str]:
    """The footer's text on the footer's own backgrounds (a theme may paint it blue)."""
    grounds = [background]
    for name in FOOTER_SURFACES:
        ground = _parse(variables.get(name))
        if ground is not None and ground.a > 0:
            grounds.append(opaque(ground, grounds[0] if len(grounds) == 1 else grounds[1]))
    if len(grounds) > 1:
        grounds = grounds[1:]
    text = readable_on(
        _parse(variables.get("footer-foreground")) or foreground, grounds, foreground, 4.5
    )
    text, disabled = distinct_foreground(text, grounds)
    out = {"footer-foreground": text.hex, "text-disabled": disabled.hex}
    for name in FOOTER_TEXT:
        colour = _parse(variables.get(name)) or text
        if name == "footer-description-foreground":
            colour = text  # apart from the denied keys' colour, like the text it is
        out[name] = readable_on(colour, grounds, text, TEXT_CONTRAST).hex
    return out


def dimmed_colour(foreground: Color, grounds: list[Color]) -> Color:
    """The dimmed text colour: the foreground moved towards the background as far as it
    goes while it keeps :data:`DIMMED_CONTRAST` (with a margin) on every ground."""
    background = grounds[0]
    best = foreground
    for step in range(1, 21):
        candidate = foreground.blend(background, step / 20, alpha=1.0)
        if min(contrast(candidate, g) for g in grounds) < DIMMED_CONTRAST + 0.3:
            break
        best = candidate
    return best


def distinct_foreground(foreground: Color, grounds: list[Color]) -> tuple[Color, Color]:
    """The foreground and the dimmed colour, the foreground moved towards white or black
    (away from the background) until dimmed text stands apart from it (:data:`DISTINCT`)."""
    background = grounds[0]
    extreme = WHITE if _luminance(background) < _luminance(foreground) else BLACK
    candidate, muted = foreground, dimmed_colour(foreground, grounds)
    for step in range(1, 11):
        if contrast(candidate, muted) >= DISTINCT:
            break
        candidate = foreground.blend(extreme, step / 10, alpha=1.0)
        muted = dimmed_colour(candidate, grounds)
    return candidate, muted


def _cursor(variables: Mapping[str, str], background: Color, foreground: Color) -> dict[str, str]:
    """The cursor row: its text keeps the side Textual gives it (light on a dark cursor,
    dark on a light one: the theme's foreground or background, whichever is on that side),
    and the cursor colour moves away from it until the text reads."""
    cursor = _parse(variables.get("block-cursor-background"))
    if cursor is None:
        return {}
    cursor = opaque(cursor, background)
    light = cursor.get_contrast_text(1.0) == WHITE
    text = foreground if (_luminance(foreground) > _luminance(background)) == light else background
    away = BLACK if light else WHITE
    for step in range(0, 21):
        candidate = cursor.blend(away, step / 20, alpha=1.0)
        if contrast(text, candidate) >= TEXT_CONTRAST + 0.2:
            cursor = candidate
            break
    return {"block-cursor-background": cursor.hex, "block-cursor-foreground": text.hex}


def dimmed_colours(variables: Mapping[str, str]) -> set[str]:
    """The hex values dimmed text is drawn in (the floored ``$text-muted``), for a test to
    hold them to :data:`DIMMED_CONTRAST` rather than :data:`TEXT_CONTRAST`."""
    return {
        colour.hex
        for name in DIMMED_TEXT
        if (colour := _parse(variables.get(name))) is not None and colour.a == 1
    }
