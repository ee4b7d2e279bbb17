"""ImportScreen: the dry run of a redirect import — what would be created, changed or
refused (and why); ``enter`` applies the creations and changes, ``escape`` cancels."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from ..common.text import inert
from .redirect_files import PlannedChange
from .redirect_rules import SiteMap
from .site_text import cell

__all__ = ["ImportScreen"]

STYLES = {"create": "bold green", "change": "bold yellow", "same": "dim", "refuse": "bold red"}
WORDS = {"create": "create", "change": "change", "same": "unchanged", "refuse": "refused"}


def summary(plan: Sequence[PlannedChange]) -> str:
    counts = Counter(p.action for p in plan)
    return (
        f"{counts['create']} to create · {counts['change']} to change · "
        f"{counts['same']} unchanged · {counts['refuse']} refused"
    )


class ImportScreen(ModalScreen[bool]):
    DEFAULT_CSS = """
    ImportScreen { align: center middle; }
    ImportScreen > #import-dialog {
        width: 110; max-width: 100%; height: 90%;
        border: thick $primary; background: $surface; padding: 0 1;
    }
    ImportScreen DataTable { height: 1fr; }
    ImportScreen #import-summary { text-style: bold; }
    ImportScreen #import-keys { color: $text-muted; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "apply", "Apply", priority=True, id="import.apply"),
        Binding("escape", "cancel", "Cancel", id="import.cancel"),
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
            yield DataTable(cursor_type="row", id="import-table")
            yield Static(
                "enter apply the creations and changes · escape cancel (nothing sent)",
                id="import-keys",
            )

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("Line", "Result", "Source", "Destination", "Why")
        for change in self.plan:
            dest = self.site_map.label_of(change.destination) if change.destination else ""
            table.add_row(
                str(change.row.line),
                cell(WORDS[change.action], STYLES[change.action]),
                cell(change.row.source),
                cell(dest or change.row.target),
                cell(change.reason, "dim"),
            )
        table.focus()

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
