"""FilterBox: the views' one-line filter (``/`` opens it); typing is text, never commands."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import Input

__all__ = ["FilterBox", "matches"]


def matches(needle: str, *fields: str | None) -> bool:
    """Whether every word of ``needle`` is in one of ``fields`` (case-insensitive)."""
    hay = " ".join(f for f in fields if f).lower()
    return all(word in hay for word in needle.lower().split())


class FilterBox(Input):
    """A filter input, hidden until :meth:`open`. While it has the focus every printable key
    is text (``q`` never quits, ``m`` never merges); ``enter`` posts :class:`Done`,
    ``escape`` clears the filter, hides the box and posts :class:`Cleared`."""

    HELP_TITLE: ClassVar[str] = "Filter"
    OWNS_CTRL_P: ClassVar[bool] = True
    """The app's palette key (ctrl+p) is this box's "previous match" while it has the focus."""

    DEFAULT_CSS = """
    FilterBox { display: none; height: 1; border: none; padding: 0 1; }
    /* Input's focused style draws a tall border: on one row it would hide the text */
    FilterBox:focus { border: none; }
    FilterBox.-open { display: block; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "done", "Go to match", id="filter.done"),
        Binding("escape", "clear", "Clear filter", id="filter.clear"),
        Binding("down,ctrl+n", "move(1)", "Next match", show=False, id="filter.next"),
        Binding("up,ctrl+p", "move(-1)", "Previous match", show=False, id="filter.previous"),
    ]

    class Move(Message):
        """``↓``/``↑``/``ctrl+n``/``ctrl+p``: move among the matches (the owner's list)."""

        def __init__(self, box: FilterBox, step: int) -> None:
            super().__init__()
            self.box = box
            self.step = step

        @property
        def control(self) -> FilterBox:
            return self.box

    class Done(Message):
        """``enter``: leave the box (the owner decides what the match opens)."""

        def __init__(self, box: FilterBox) -> None:
            super().__init__()
            self.box = box

        @property
        def control(self) -> FilterBox:
            return self.box

    class Cleared(Done):
        """``escape``: the filter is gone and the box hidden."""

    @property
    def needle(self) -> str:
        return self.value.strip()

    @property
    def is_open(self) -> bool:
        return self.has_class("-open")

    def open(self) -> None:
        self.add_class("-open")
        self.focus()

    def close(self) -> None:
        """Clear and hide (posts no :class:`Cleared`)."""
        self.value = ""
        self.remove_class("-open")

    def action_done(self) -> None:
        self.post_message(self.Done(self))

    def action_move(self, step: int) -> None:
        self.post_message(self.Move(self, step))

    def action_clear(self) -> None:
        self.close()
        self.post_message(self.Cleared(self))
