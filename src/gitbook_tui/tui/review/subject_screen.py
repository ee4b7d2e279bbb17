"""SubjectScreen: edit a change request's subject and description (markdown).

``ctrl+s`` saves (returns ``(subject, description)``), ``escape`` cancels. The subject is
limited to the API's 100 characters; the description is counted as typed against the one
body limit (the count shows near it, the composer's way) and one over it is not saved: the
dialog stays open with the text and says by how much it is over.
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Input, Static, TextArea

from ...models import ChangeRequest
from ...models.limits import MAX_BODY_CHARS
from ..common.composer import length_note, too_long
from ..common.modal import KitModal
from ..common.text import form_value
from .review_data import description_markdown

__all__ = ["SubjectScreen"]


class SubjectScreen(KitModal[tuple[str, str] | None]):
    DEFAULT_CSS = """
    SubjectScreen { align: center middle; }
    SubjectScreen > #subject-dialog {
        width: 80; max-width: 95%; height: 18; max-height: 90%;
        border: thick $primary; background: $surface; padding: 0 1;
    }
    SubjectScreen TextArea { height: 1fr; }
    SubjectScreen #subject-keys { color: $text-muted; height: 1; }
    SubjectScreen #subject-count { height: auto; color: $text-warning; display: none; }
    SubjectScreen #subject-count.-shown { display: block; }
    SubjectScreen #subject-count.-over { color: $text-error; text-style: bold; }
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
            yield Static(id="subject-count", markup=False)
            yield Static("ctrl+s save · escape cancel", id="subject-keys")

    def on_mount(self) -> None:
        self.query_one(Input).focus()
        self._count(self.query_one(TextArea).text)

    @on(TextArea.Changed)
    def _typed(self, event: TextArea.Changed) -> None:
        self._count(event.text_area.text)

    def _count(self, text: str, refused: str | None = None) -> None:
        count = self.query_one("#subject-count", Static)
        note = refused or length_note(len(text))
        count.update(note)
        count.set_class(bool(note), "-shown")
        count.set_class(too_long(len(text)) is not None, "-over")

    def action_save(self) -> None:
        subject = self.query_one(Input).value.strip()
        if not subject:
            self.notify("The subject can't be empty.", severity="warning")
            return
        description = self.query_one(TextArea).text
        if too_long(len(description)) is not None:  # the server would refuse it: keep it here
            over = len(description) - MAX_BODY_CHARS
            self._count(
                description,
                f"Not saved: the description is {over:,} character{'' if over == 1 else 's'} "
                f"over the {MAX_BODY_CHARS:,} limit; your text is kept.",
            )
            return
        self.dismiss((subject, description))

    def action_cancel(self) -> None:
        self.dismiss(None)
