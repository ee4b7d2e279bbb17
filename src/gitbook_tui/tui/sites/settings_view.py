"""SettingsView: the settings pane's body, one setting a line."""

from __future__ import annotations

from textual.containers import VerticalScroll

__all__ = ["SettingsView"]


class SettingsView(VerticalScroll, can_focus=True):
    """The settings, one per line (focusable so the pane's keys apply)."""
