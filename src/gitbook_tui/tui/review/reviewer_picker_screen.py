"""ReviewerPickerScreen: choose a member to ask for a review, or a requested one to remove.

Candidates that can't be chosen (the author, someone already asked) stay listed, greyed,
with the reason. ``enter`` picks, ``escape`` cancels; typing ``/`` is not needed: the
list is short and ``j``/``k`` move.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...markdown.sanitize import clean_text
from ..common.modal import KitModal
from ..common.text import inert

__all__ = ["Candidate", "ReviewerPickerScreen"]


@dataclass(frozen=True)
class Candidate:
    id: str
    name: str
    note: str = ""
    """Why it can't be chosen ("" when it can)."""


class ReviewerPickerScreen(KitModal[str | None]):
    """Returns the chosen candidate's id, or ``None``."""

    DEFAULT_CSS = """
    ReviewerPickerScreen { align: center middle; }
    ReviewerPickerScreen > #picker-dialog {
        width: 60; max-width: 95%; height: auto; max-height: 80%;
        border: thick $primary; background: $surface; padding: 0 1;
    }
    ReviewerPickerScreen OptionList { height: auto; max-height: 20; }
    ReviewerPickerScreen #picker-keys { color: $text-muted; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="picker.cancel"),
        Binding("j", "move(1)", "Down", show=False, id="picker.down"),
        Binding("k", "move(-1)", "Up", show=False, id="picker.up"),
    ]

    def __init__(self, title: str, candidates: list[Candidate]) -> None:
        super().__init__()
        self._title = title
        self.candidates = candidates

    def compose(self) -> ComposeResult:
        with Vertical(id="picker-dialog") as dialog:
            dialog.border_title = inert(self._title)
            options = [
                Option(
                    Content.assemble(
                        inert(c.name),
                        (f"  {clean_text(c.note)}" if c.note else "", "$text-muted"),
                    ),
                    id=c.id,
                    disabled=bool(c.note),
                )
                for c in self.candidates
            ]
            if options:
                yield OptionList(*options, id="picker-list")
            else:
                yield Static("Nobody to choose.")
            yield Static("enter choose · escape cancel", id="picker-keys")

    def on_mount(self) -> None:
        lists = self.query(OptionList)
        if lists:
            lists.first().focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_move(self, step: int) -> None:
        lists = self.query(OptionList)
        if lists:
            (lists.first().action_cursor_down if step > 0 else lists.first().action_cursor_up)()

    def action_cancel(self) -> None:
        self.dismiss(None)
