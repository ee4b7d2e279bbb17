"""OrgPickerScreen: choose one of the organizations the token can see."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from ...models import Organization
from ..common.text import inert

__all__ = ["OrgPickerScreen"]


class OrgPickerScreen(Screen[str | None]):
    """Dismissed with the chosen organization's id (``None`` on escape when cancellable)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down,j", "move(1)", "Down", show=False, id="orgs.down"),
        Binding("up,k", "move(-1)", "Up", show=False, id="orgs.up"),
        Binding("escape", "cancel", "Back", id="orgs.cancel"),
    ]

    def __init__(
        self,
        orgs: Sequence[Organization],
        *,
        current: str | None = None,
        cancellable: bool = False,
    ) -> None:
        super().__init__()
        self.orgs = list(orgs)
        self.current = current
        self.cancellable = cancellable

    def compose(self) -> ComposeResult:
        yield Static("Choose an organization", id="org-picker-title", markup=False)
        yield OptionList(
            *[
                Option(
                    inert(org.title or org.id) + inert(f"  ({org.id})", style="$text-muted"),
                    id=org.id,
                )
                for org in self.orgs
            ],
            id="org-picker-list",
        )
        yield Footer()

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        ids = [org.id for org in self.orgs]
        options.highlighted = ids.index(self.current) if self.current in ids else 0
        options.focus()

    def action_move(self, step: int) -> None:
        options = self.query_one(OptionList)
        if step > 0:
            options.action_cursor_down()
        else:
            options.action_cursor_up()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "cancel":
            return self.cancellable
        return True

    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(OptionList.OptionSelected, "#org-picker-list")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)
