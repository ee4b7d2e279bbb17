"""AuthorPicker: pick whose threads to show, from the space's commenters (or anyone)."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...models import User
from ..common.modal import KitModal
from ..common.pager import PagerOptionList
from ..common.text import inert
from .thread_data import author_name

__all__ = ["ANYONE", "AuthorPicker"]

ANYONE = ""
"""The result meaning "every author" (``None`` is cancel)."""


class AuthorPicker(KitModal[str | None]):
    """Returns a user id, :data:`ANYONE`, or ``None`` when cancelled."""

    DEFAULT_CSS = """
    AuthorPicker { align: center middle; }
    AuthorPicker > #authors { width: 50; height: auto; max-height: 80%;
                              border: round $accent; background: $surface; }
    AuthorPicker OptionList { height: auto; max-height: 20; border: none; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="authors.cancel"),
    ]

    def __init__(self, users: list[User], current: str | None) -> None:
        super().__init__()
        self.users = users
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical(id="authors"):
            yield Static(inert("Show threads by", style="bold"))
            options = [Option(inert("anyone"), id="-anyone")]
            options += [Option(inert(author_name(u)), id=f"u-{u.id}") for u in self.users]
            # the kit's list motion keys (j/k, ctrl+d/u, ctrl+f/b, g/G) move the cursor
            yield PagerOptionList(*options, id="author-options")

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        ids = [u.id for u in self.users]
        options.highlighted = ids.index(self.current) + 1 if self.current in ids else 0
        options.focus()

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        option_id = event.option.id or ""
        self.dismiss(option_id[2:] if option_id.startswith("u-") else ANYONE)

    def action_cancel(self) -> None:
        self.dismiss(None)
