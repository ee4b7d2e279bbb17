"""PlacePickerScreen: choose one space or site of the organization (``/`` filters, ``enter``
takes the highlighted one, ``escape`` clears the filter, then cancels)."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ..common.filter_box import FilterBox, matches
from ..common.modal import KitModal
from ..common.pager import PagerOptionList
from ..common.text import inert
from .integrations_data import Place

__all__ = ["PlacePickerScreen"]


class PlacePickerScreen(KitModal[Place | None]):
    """Returns the chosen place, or ``None``. The list moves with the kit's list keys."""

    DEFAULT_CSS = """
    PlacePickerScreen { align: center middle; }
    PlacePickerScreen > #place-dialog {
        width: 64; max-width: 95%; height: auto; max-height: 80%;
        border: thick $primary; background: $surface; padding: 0 1;
    }
    PlacePickerScreen OptionList { height: auto; max-height: 16; }
    PlacePickerScreen #place-keys { color: $text-muted; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "filter", "Filter", id="place.filter"),
        Binding("escape", "cancel", "Cancel", id="place.cancel"),
    ]

    def __init__(self, title: str, places: list[Place]) -> None:
        super().__init__()
        self.picker_title = title
        self.places = places
        self.shown: list[Place] = list(places)

    def compose(self) -> ComposeResult:
        with Vertical(id="place-dialog") as dialog:
            dialog.border_title = inert(self.picker_title)
            yield FilterBox(placeholder="filter spaces and sites", id="place-filter")
            yield PagerOptionList(*self._options(), id="place-list")
            yield Static(self._keys(), id="place-keys")

    def _options(self) -> list[Option]:
        return [
            Option(Content.assemble((f"{p.kind:<5} ", "$text-muted"), inert(p.title)), id=p.key)
            for p in self.shown
        ]

    def _keys(self) -> str:
        count = f"{len(self.shown)} of {len(self.places)}" if self.needle else str(len(self.places))
        return f"{count} · / filter · enter choose · escape cancel"

    @property
    def needle(self) -> str:
        return self.query_one(FilterBox).needle if self.is_mounted else ""

    @property
    def options(self) -> OptionList:
        return self.query_one(OptionList)

    def on_mount(self) -> None:
        self.options.focus()

    def action_filter(self) -> None:
        self.query_one(FilterBox).open()

    @on(FilterBox.Changed)
    def _filtered(self, event: FilterBox.Changed) -> None:
        event.stop()
        needle = self.query_one(FilterBox).needle
        self.shown = [p for p in self.places if matches(needle, p.kind, p.title)]
        self.options.clear_options()
        self.options.add_options(self._options())
        self.options.highlighted = 0 if self.shown else None
        self.query_one("#place-keys", Static).update(self._keys())

    @on(FilterBox.Move)
    def _move(self, event: FilterBox.Move) -> None:
        event.stop()
        self.action_move(event.step)

    @on(FilterBox.Done)
    def _done(self, event: FilterBox.Done) -> None:
        """``enter`` in the filter takes the highlighted place; ``escape`` clears it."""
        event.stop()
        self.query_one(FilterBox).remove_class("-open")
        self.options.focus()
        if not isinstance(event, FilterBox.Cleared):
            self._take(self.options.highlighted)

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._take(event.option_index)

    def _take(self, index: int | None) -> None:
        if index is not None and 0 <= index < len(self.shown):
            self.dismiss(self.shown[index])

    def action_move(self, step: int) -> None:
        (self.options.action_cursor_down if step > 0 else self.options.action_cursor_up)()

    def action_cancel(self) -> None:
        box = self.query_one(FilterBox)
        if box.is_open or box.needle:
            box.action_clear()
            return
        self.dismiss(None)
