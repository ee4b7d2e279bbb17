"""ConfirmScreen: asks before a destructive or widening action, naming its effect.

``enter`` confirms and ``escape`` cancels (lazygit's confirmation panel). With ``typed``
the user must type that exact text first (merging a change request: "type 5 to merge #5"):
``enter`` does nothing until the input matches. The result is ``True`` only on confirm.
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Input, Static

from .modal import KitModal
from .text import inert

__all__ = ["ConfirmScreen"]


class ConfirmScreen(KitModal[bool]):
    """A confirmation panel: title, what will happen, and the confirm key."""

    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen > #confirm-dialog {
        width: 70; max-width: 95%; height: auto; max-height: 90%;
        border: thick $warning; background: $surface; padding: 0 1;
    }
    ConfirmScreen #confirm-effect { margin: 1 0; }
    ConfirmScreen #confirm-keys { color: $text-muted; }
    ConfirmScreen Input { margin-bottom: 1; }
    ConfirmScreen .-mismatch { color: $error; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "confirm", "Confirm", priority=True, id="confirm.yes"),
        Binding("escape", "cancel", "Cancel", id="confirm.no"),
    ]

    def __init__(
        self,
        title: str,
        effect: str | Content,
        *,
        confirm_label: str = "Confirm",
        typed: str | None = None,
    ) -> None:
        """``title`` and ``effect`` may hold server text: both are shown inert."""
        super().__init__()
        self._title = title
        self._effect = effect if isinstance(effect, Content) else inert(effect)
        self._label = confirm_label
        self.typed = typed

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-dialog") as dialog:
            dialog.border_title = inert(self._title)
            yield Static(self._effect, id="confirm-effect")
            if self.typed is not None:
                yield Static(
                    Content.assemble("Type ", (self.typed, "bold"), " to confirm:"),
                    id="confirm-prompt",
                )
                # a placeholder of the text itself would look typed already
                yield Input(id="confirm-input", placeholder=f"type {self.typed} here")

    def on_mount(self) -> None:
        if self.typed is not None:
            self.query_one("#confirm-input", Input).focus()

    @property
    def matches(self) -> bool:
        """Whether the typed confirmation (if one is asked) has been typed."""
        if self.typed is None:
            return True
        return self.query_one("#confirm-input", Input).value.strip() == self.typed

    @on(Input.Changed, "#confirm-input")
    def _typed(self) -> None:
        self.query_one("#confirm-input", Input).set_class(False, "-mismatch")

    @on(Input.Submitted, "#confirm-input")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_confirm()

    def action_confirm(self) -> None:
        if not self.matches:
            self.query_one("#confirm-input", Input).set_class(True, "-mismatch")
            self.notify(f"Type {self.typed} exactly to confirm.", severity="warning", markup=False)
            return
        self.dismiss(True)

    def action_cancel(self) -> None:
        self.dismiss(False)
