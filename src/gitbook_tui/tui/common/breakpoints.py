"""preset_breakpoints: a screen starts with the breakpoint classes of the app's size."""

from __future__ import annotations

from typing import Any

from textual.screen import Screen

__all__ = ["breakpoint_class", "preset_breakpoints"]


def breakpoint_class(dimension: int, breakpoints: list[tuple[int, str]]) -> str | None:
    """The class ``dimension`` takes of ``breakpoints`` (Textual's rule: the class of the
    largest threshold it reaches; none below the first)."""
    for threshold, class_name in sorted(breakpoints, reverse=True):
        if dimension >= threshold:
            return class_name
    return None


def preset_breakpoints(screen: Screen[Any]) -> None:
    """Give ``screen`` (made, not mounted yet) the breakpoint classes its first resize
    would give it: a class added then restyles every widget of the screen once more,
    right after the whole screen was styled at its mount."""
    try:
        app = screen.app
    except RuntimeError:  # made outside a running app: its first resize sets them
        return
    horizontal = screen.HORIZONTAL_BREAKPOINTS
    vertical = screen.VERTICAL_BREAKPOINTS
    horizontal = (app.HORIZONTAL_BREAKPOINTS if horizontal is None else horizontal) or []
    vertical = (app.VERTICAL_BREAKPOINTS if vertical is None else vertical) or []
    classes = dict.fromkeys((name for _, name in horizontal + vertical), False)
    width, height = app.size
    for chosen in (breakpoint_class(width, horizontal), breakpoint_class(height, vertical)):
        if chosen is not None:
            classes[chosen] = True
    for class_name, add in classes.items():
        screen.set_class(add, class_name, update=False)
