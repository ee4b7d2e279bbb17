"""EditTargetScreen: where a suggested edit goes — a new change request, or one already open.

"+ New change request" is first and highlighted: the default is always a change request of
the reader's own. The reader's open and draft change requests of the space follow; another
author's (the one under review) comes last, marked "by <author>" (choosing it asks first:
:func:`.edit_consent.ask_consent`). ``enter`` picks, ``j``/``k`` move, ``escape`` cancels
(nothing is opened or sent).
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...markdown.sanitize import clean_text
from ...models import ChangeRequest
from ..common.modal import KitModal
from ..common.text import inert
from .edit_consent import author_of, is_own

__all__ = ["NEW", "EditTargetScreen"]

NEW = "new"
"""The option id of "a new change request"."""


class EditTargetScreen(KitModal[str | None]):
    """Returns :data:`NEW`, the id of the chosen change request, or ``None``; ``me`` (the
    reader's id) tells their own change requests from another author's."""

    DEFAULT_CSS = """
    EditTargetScreen { align: center middle; }
    EditTargetScreen > #target-dialog {
        width: 72; max-width: 95%; height: auto; max-height: 80%;
        border: thick $primary; background: $surface; padding: 0 1;
    }
    EditTargetScreen OptionList { height: auto; max-height: 16; }
    EditTargetScreen #target-keys { color: $text-muted; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="edit_target.cancel"),
        Binding("j", "move(1)", "Down", show=False, id="edit_target.down"),
        Binding("k", "move(-1)", "Up", show=False, id="edit_target.up"),
    ]

    def __init__(
        self,
        page_title: str,
        candidates: list[ChangeRequest],
        under_review: str | None = None,
        *,
        me: str = "",
    ) -> None:
        super().__init__()
        self.page_title = page_title
        self.candidates = candidates
        self.under_review = under_review
        self.me = me

    def compose(self) -> ComposeResult:
        with Vertical(id="target-dialog") as dialog:
            dialog.border_title = inert(f"Suggest an edit of {self.page_title}")
            options = [
                Option(
                    Text.assemble(
                        ("+ New change request ", "bold"),
                        f"“Edit {clean_text(self.page_title)}”",
                    ),
                    id=NEW,
                )
            ]
            for cr in self.candidates:
                note = "under review · " if cr.id == self.under_review else ""
                head = Content.assemble(
                    (f"#{cr.number} ", "bold"), clean_text(cr.subject or "(no subject)")
                )
                if is_own(cr, self.me):
                    prompt = Content.assemble(head, (f"  {note}{cr.status}", "$text-muted"))
                else:  # whose work it is, on a line of its own: never lost to a wrap
                    prompt = Content.assemble(
                        head,
                        "\n   ",
                        (f"by {author_of(cr)}", "bold $text-warning"),
                        (f" · {note}{cr.status}", "$text-muted"),
                    )
                options.append(Option(prompt, id=cr.id))
            yield OptionList(*options, id="target-list")
            yield Static(
                "enter choose · escape cancel · $EDITOR opens the page as it is there",
                id="target-keys",
            )

    def on_mount(self) -> None:
        # "new" stays highlighted, even with a change request under review: enter at once
        # must never put the edit into existing work (someone else's, its approvals lost)
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_move(self, step: int) -> None:
        options = self.query_one(OptionList)
        (options.action_cursor_down if step > 0 else options.action_cursor_up)()

    def action_cancel(self) -> None:
        self.dismiss(None)
