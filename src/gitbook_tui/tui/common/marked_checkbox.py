"""MarkedCheckbox: a Checkbox whose state shows as a glyph (✓ or blank), not by colour alone."""

from __future__ import annotations

from textual.widgets import Checkbox

__all__ = ["MarkedCheckbox"]

CHECKED = "✓"
UNCHECKED = " "


class MarkedCheckbox(Checkbox):
    """Textual's Checkbox draws the same ``X`` on and off, telling them apart by colour only;
    this one draws ``✓`` when checked and a blank when not."""

    @property
    def BUTTON_INNER(self) -> str:  # type: ignore[override]
        return CHECKED if self.value else UNCHECKED
