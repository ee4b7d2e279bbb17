"""MatchFilter: the kit's filter box over a Sites list, where ``↓``/``↑`` move among the matches."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.message import Message

from ..common.filter_box import FilterBox

__all__ = ["MatchFilter", "no_matches"]


def no_matches(needle: str) -> str:
    """What a list says when its filter keeps nothing, with the next step."""
    return f"No matches for “{needle}” — escape clears the filter"


class MatchFilter(FilterBox):
    """A :class:`FilterBox` whose ``↓``/``↑`` post :class:`Step` (the owner moves its
    cursor): the highlighted match, the one ``enter`` opens, can be chosen without leaving
    the box. Letters stay text; ``enter`` reads "Open match" (it opens, not only goes)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # the box's own id: a keymap entry for the kit's filter applies here too
        Binding("enter", "done", "Open match", id="filter.done"),
        Binding("down", "step(1)", "Next match", show=False, id="sites_filter.next"),
        Binding("up", "step(-1)", "Previous match", show=False, id="sites_filter.previous"),
    ]

    class Step(Message):
        """``↓``/``↑`` in the box: move the list's cursor by ``delta`` matches."""

        def __init__(self, box: MatchFilter, delta: int) -> None:
            super().__init__()
            self.box = box
            self.delta = delta

        @property
        def control(self) -> MatchFilter:
            return self.box

    def action_step(self, delta: int) -> None:
        self.post_message(self.Step(self, delta))
