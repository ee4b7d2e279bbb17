"""The kit's pane switching: one key set for every multi-pane screen and one focus marker.

``tab``/``shift+tab``, ``w``, ``ctrl+w`` and ``f6`` move the focus to the other pane in every
screen with more than one pane (a widget that gives ``tab`` a meaning of its own, such as
the page viewer's next link or the composer's completion, keeps it: its binding comes
first). The focused pane is marked by an accent bar down its left edge; the other panes
keep that column blank (``app.tcss``, class :data:`PANE_CLASS`), so the marker never moves
the text.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from textual.binding import Binding

__all__ = ["PANE_CLASS", "PANE_SWITCH_KEYS", "RevealsPanes", "pane_switch_binding"]

PANE_SWITCH_KEYS = "w,tab,shift+tab,ctrl+w,f6"
"""The keys that switch panes, the same in every multi-pane screen."""

PANE_CLASS = "kit-pane"
"""The class of a pane that shows the focus marker while it (or a child) has the focus."""


def pane_switch_binding(binding_id: str, description: str, *, show: bool = True) -> Binding:
    """The pane switch binding of a screen (action ``switch_focus``); ``binding_id`` stays
    the screen's own so keymaps written for it keep working."""
    return Binding(PANE_SWITCH_KEYS, "switch_focus", description, show=show, id=binding_id)


@runtime_checkable
class RevealsPanes(Protocol):
    """A screen that may hide a pane (for room) names the binding ids that bring it back:
    the footer keeps them shown whatever else it has to leave out."""

    def reveal_binding_ids(self) -> tuple[str, ...]:
        """The ids of the bindings that show a pane hidden now (empty: none hidden)."""
        ...
