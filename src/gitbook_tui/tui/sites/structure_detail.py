"""StructureDetail: the detail of the structure pane's highlighted row, beside the list."""

from __future__ import annotations

from typing import ClassVar, Protocol

from textual.binding import Binding, BindingType

from ..common.pager import PagerScroll, list_motion_bindings
from .structure_order import Row

__all__ = ["DetailHost", "StructureDetail"]


class DetailHost(Protocol):
    """What the detail asks of its pane (:class:`.structure_pane.StructurePane`)."""

    grabbed: Row | None

    def focus_main(self) -> None:
        """Focus the list."""
        ...


class StructureDetail(PagerScroll, inherit_bindings=False):
    """The detail of the highlighted row, beside the list (a pane: it scrolls with the
    kit's list keys, ``escape`` goes back to the list). Not the reader letters
    ``space``/``b``/``d``/``u``: they stay the pane's grab and remove."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *list_motion_bindings("structure_detail"),
        Binding("escape", "back", "To the list", id="structure.detail_back"),
    ]

    def __init__(self, host: DetailHost, *, id: str | None = None, classes: str = "") -> None:
        super().__init__(id=id, classes=classes)
        self.host = host

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "back":  # a move in progress is cancelled first (the pane's escape)
            return self.host.grabbed is None
        return True

    def action_back(self) -> None:
        self.host.focus_main()
