"""MemberPickerScreen: choose members from the organization's member list (space toggles,
``enter`` takes the choice, ``escape`` cancels)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import SelectionList, Static
from textual.widgets.selection_list import Selection

from ..common.modal import KitModal
from ..common.text import inert
from .admin_data import MemberRow

__all__ = ["MemberPickerScreen"]


class MemberPickerScreen(KitModal[list[str] | None]):
    """The members to put in a team (their user ids), those ``chosen`` ticked."""

    DEFAULT_CSS = """
    MemberPickerScreen { align: center middle; }
    MemberPickerScreen > #picker-dialog {
        width: 70; max-width: 100%; height: 80%; border: thick $primary;
        background: $surface; padding: 0 1;
    }
    MemberPickerScreen SelectionList { height: 1fr; }
    MemberPickerScreen #picker-keys { color: $text-muted; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "done", "Take these members", priority=True, id="picker.done"),
        Binding("escape", "cancel", "Cancel", id="picker.cancel"),
    ]

    def __init__(self, title: str, members: list[MemberRow], chosen: set[str]) -> None:
        super().__init__()
        self.picker_title = title
        self.members = [m for m in members if not m.disabled]
        self.chosen = chosen

    def compose(self) -> ComposeResult:
        with Vertical(id="picker-dialog") as dialog:
            dialog.border_title = inert(self.picker_title)
            yield SelectionList[str](
                *(
                    Selection(inert(f"{m.name} · {m.email}"), m.id, m.id in self.chosen)
                    for m in self.members
                ),
                id="picker-list",
            )
            yield Static(
                "space tick/untick · j/k move · enter take · escape cancel", id="picker-keys"
            )

    def on_mount(self) -> None:
        self.query_one(SelectionList).focus()

    def action_done(self) -> None:
        self.dismiss(list(self.query_one(SelectionList).selected))

    def action_cancel(self) -> None:
        self.dismiss(None)
