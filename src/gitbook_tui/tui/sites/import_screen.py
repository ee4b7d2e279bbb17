"""ImportScreen: the dry run of a redirect import — what would be created, changed or
refused (and why: cut with "…" to fit, in full under the table for the highlighted row);
``enter`` applies the creations and changes, ``escape`` cancels (nothing sent). Its footer
shows those keys."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from ..common.modal import KitModal
from ..common.pager import PagerDataTable
from ..common.text import cell_width, inert
from ..common.theme_style import theme_style
from .redirect_files import PlannedChange
from .redirect_rules import SiteMap
from .site_text import cell, share_widths, table_room

__all__ = ["ImportScreen"]

STYLES = {
    "create": "bold $text-success",
    "change": "bold $text-warning",
    "same": "$text-muted",
    "refuse": "bold $text-error",
}
WORDS = {"create": "create", "change": "change", "same": "unchanged", "refuse": "refused"}


def summary(plan: Sequence[PlannedChange]) -> str:
    counts = Counter(p.action for p in plan)
    return (
        f"{counts['create']} to create · {counts['change']} to change · "
        f"{counts['same']} unchanged · {counts['refuse']} refused"
    )


class ImportScreen(KitModal[bool]):
    DEFAULT_CSS = """
    ImportScreen { align: center middle; }
    ImportScreen > #import-dialog {
        width: 110; max-width: 100%; height: 90%;
        border: thick $primary; background: $surface; padding: 0 1;
    }
    ImportScreen DataTable { height: 1fr; }
    ImportScreen #import-summary { text-style: bold; }
    ImportScreen #import-why { color: $text-muted; height: auto; max-height: 3; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "apply", "Apply", priority=True, id="import.apply"),
        Binding("escape", "cancel", "Cancel (nothing sent)", id="import.cancel"),
    ]

    def __init__(self, name: str, plan: Sequence[PlannedChange], site: SiteMap) -> None:
        super().__init__()
        self.file_name = name
        self.plan = list(plan)
        self.site_map = site

    def compose(self) -> ComposeResult:
        with Vertical(id="import-dialog") as dialog:
            dialog.border_title = inert(f"Import {self.file_name} — dry run")
            yield Static(summary(self.plan), id="import-summary")
            yield PagerDataTable(cursor_type="row", id="import-table")
            yield Static("", id="import-why")

    def _cells(self) -> list[tuple[str, ...]]:
        rows: list[tuple[str, ...]] = []
        for change in self.plan:
            dest = self.site_map.label_of(change.destination) if change.destination else ""
            rows.append(
                (
                    str(change.row.line),
                    WORDS[change.action],
                    change.row.source,
                    dest or change.row.target,
                    change.reason,
                )
            )
        return rows

    def on_mount(self) -> None:
        self.fill()
        self.query_one(DataTable).focus()
        # the cells hold Rich styles in the theme's colours: a theme switch draws them anew
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self.fill())

    def on_resize(self) -> None:
        self.fill()

    def fill(self) -> None:
        """The rows, each column cut with "…" to share the dialog's width."""
        table = self.query_one(DataTable)
        heads = ("Line", "Result", "Source", "Destination", "Why")
        rows = self._cells()
        needs = [max([len(h), *(cell_width(r[i]) for r in rows)]) for i, h in enumerate(heads)]
        room = min(110, self.app.size.width) - 4  # the dialog's border and padding
        widths = share_widths(needs, table_room(room, len(heads)))
        cursor = table.cursor_row
        table.clear(columns=True)
        for head, width in zip(heads, widths, strict=True):
            table.add_column(head, width=width)
        variables = self.app.theme_variables
        for change, row in zip(self.plan, rows, strict=True):
            styles = (
                "",
                theme_style(variables, STYLES[change.action]),
                "",
                "",
                theme_style(variables, "$text-muted"),
            )
            table.add_row(
                *(
                    cell(text, style, width)
                    for text, style, width in zip(row, styles, widths, strict=True)
                )
            )
        if rows:
            table.move_cursor(row=min(cursor, len(rows) - 1))

    @on(DataTable.RowHighlighted)
    def _show_why(self, event: DataTable.RowHighlighted) -> None:
        index = event.cursor_row
        change = self.plan[index] if 0 <= index < len(self.plan) else None
        why = self.query_one("#import-why", Static)
        if change is None or not change.reason or change.action == "same":
            why.update("")
            return
        why.update(inert(f"line {change.row.line} {change.row.source}: {change.reason}"))

    @property
    def applicable(self) -> list[PlannedChange]:
        return [p for p in self.plan if p.action in ("create", "change")]

    def action_apply(self) -> None:
        if not self.applicable:
            self.notify("Nothing to create or change.", timeout=3)
            return
        self.dismiss(True)

    def action_cancel(self) -> None:
        self.dismiss(False)
