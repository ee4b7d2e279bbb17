"""SubjectScreen: edit a change request's subject and description (markdown).

``ctrl+s`` saves (returns ``(subject, description)``), ``escape`` cancels. The subject is
limited to the API's 100 characters.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static, TextArea

from ...models import ChangeRequest
from ..common.text import form_value
from .review_data import description_markdown

__all__ = ["SubjectScreen"]


class SubjectScreen(ModalScreen[tuple[str, str] | None]):
    DEFAULT_CSS = """
    SubjectScreen { align: center middle; }
    SubjectScreen > #subject-dialog {
        width: 80; max-width: 95%; height: 18; max-height: 90%;
        border: thick $primary; background: $surface; padding: 0 1;
    }
    SubjectScreen TextArea { height: 1fr; }
    SubjectScreen #subject-keys { color: $text-muted; height: 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "Save", priority=True, id="subject.save"),
        Binding("escape", "cancel", "Cancel", id="subject.cancel"),
    ]

    def __init__(self, cr: ChangeRequest) -> None:
        super().__init__()
        self.cr = cr

    def compose(self) -> ComposeResult:
        with Vertical(id="subject-dialog") as dialog:
            dialog.border_title = f"Edit #{self.cr.number}"
            yield Input(
                form_value(self.cr.subject, one_line=True), max_length=100, id="subject-input"
            )
            yield TextArea(
                form_value(description_markdown(self.cr.description)), id="subject-description"
            )
            yield Static("ctrl+s save · escape cancel", id="subject-keys")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def action_save(self) -> None:
        subject = self.query_one(Input).value.strip()
        if not subject:
            self.notify("The subject can't be empty.", severity="warning")
            return
        self.dismiss((subject, self.query_one(TextArea).text))

    def action_cancel(self) -> None:
        self.dismiss(None)
