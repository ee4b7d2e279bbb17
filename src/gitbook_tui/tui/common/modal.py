"""KitModal: the base of every dialog — its own footer with its own keys, and ``?`` for its help.

A dialog drawn over a view used to leave the view's footer showing beneath it, listing keys
that do nothing while the dialog is open, and ``?`` did not explain the dialog. A
:class:`KitModal` mounts a footer of its own (the dialog's bindings, as in every view; a
dialog that composes one keeps it) and binds ``?``/``f1`` to a help listing the dialog's
keys. ``escape`` cancelling stays each dialog's own binding: what it cancels differs.
"""

from __future__ import annotations

from typing import ClassVar, TypeVar

from textual import events, on
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen
from textual.widgets import Footer

from .help_screen import HelpScreen
from .hint_footer import HintFooter

__all__ = ["KitModal"]

ResultType = TypeVar("ResultType")


class KitModal(ModalScreen[ResultType]):
    """A modal screen with its own footer and ``?`` help (see the module)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark,f1", "dialog_help", "Help", id="dialog.help"),
    ]

    @on(events.Mount)
    def _own_footer(self) -> None:
        if not self.query(Footer):
            self.mount(HintFooter(compact=True))

    def action_dialog_help(self) -> None:
        self.app.push_screen(HelpScreen(self))
