"""PickScreen: choose one item of a list (a space to add, a visibility), or escape."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ..common.modal import KitModal
from ..common.pager import PagerOptionList
from ..common.text import inert

__all__ = ["PickScreen"]


class PickScreen(KitModal[Any]):
    """A titled list; ``enter`` picks the highlighted item (its value is the result)."""

    DEFAULT_CSS = """
    PickScreen { align: center middle; }
    PickScreen > #pick-dialog {
        width: 70; max-width: 100%; height: auto; max-height: 90%;
        border: thick $primary; background: $surface; padding: 0 1;
    }
    PickScreen PagerOptionList, PickScreen PagerOptionList:focus {
        height: auto; max-height: 20; border: none;
    }
    PickScreen #pick-note { color: $text-muted; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="pick.cancel"),
    ]

    def __init__(
        self,
        title: str,
        options: Sequence[tuple[str | Content, Any]],
        *,
        note: str = "",
        highlighted: Any = None,
    ) -> None:
        super().__init__()
        self.pick_title = title
        self.choices = list(options)
        self.note = note
        self.initial = highlighted

    def compose(self) -> ComposeResult:
        with Vertical(id="pick-dialog") as dialog:
            dialog.border_title = inert(self.pick_title)
            if self.note:
                yield Static(inert(self.note), id="pick-note")
            yield PagerOptionList(
                *(
                    Option(label if isinstance(label, Content) else inert(label), id=str(i))
                    for i, (label, _) in enumerate(self.choices)
                ),
                id="pick-list",
            )

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        for i, (_, value) in enumerate(self.choices):
            if value == self.initial:
                options.highlighted = i
        options.focus()

    @on(OptionList.OptionSelected)
    def _picked(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.choices[int(event.option.id or 0)][1])

    def action_cancel(self) -> None:
        self.dismiss(None)
