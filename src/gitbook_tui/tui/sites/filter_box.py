"""FilterBox: the sites views' filter input (``/`` opens it); typing is text, never commands."""

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
    """A one-line filter, hidden until :meth:`open`. While it has the focus every printable
    key is text (``q`` never quits); ``enter`` posts :class:`Done` (back to the list, on a
    match), ``escape`` clears the filter, closes the box and posts :class:`Cleared`."""

    HELP_TITLE: ClassVar[str] = "Filter"

    DEFAULT_CSS = """
    FilterBox { display: none; height: 1; border: none; padding: 0 1; }
    FilterBox.-open { display: block; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "done", "Go to match", id="site_filter.done"),
        Binding("escape", "clear", "Clear filter", id="site_filter.clear"),
    ]

    class Done(Message):
        """``enter``: leave the box, keeping the filter."""

        def __init__(self, box: FilterBox) -> None:
            super().__init__()
            self.box = box

        @property
        def control(self) -> FilterBox:
            return self.box

    class Cleared(Done):
        """``escape``: the filter is gone."""

    @property
    def needle(self) -> str:
        return self.value.strip()

    def open(self) -> None:
        self.add_class("-open")
        self.focus()

    def close(self) -> None:
        """Clear and hide (no :class:`Cleared` message)."""
        self.value = ""
        self.remove_class("-open")

    def action_done(self) -> None:
        self.post_message(self.Done(self))

    def action_clear(self) -> None:
        self.close()
        self.post_message(self.Cleared(self))
