"""ReportScreen: a read-only result (where a path lands, what an import did); escape closes."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static

from ..common.modal import KitModal
from ..common.text import inert

__all__ = ["ReportScreen"]


class ReportScreen(KitModal[None]):
    DEFAULT_CSS = """
    ReportScreen { align: center middle; }
    ReportScreen > #report-dialog {
        width: 90; max-width: 100%; height: auto; max-height: 90%;
        border: thick $primary; background: $surface; padding: 0 1;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,q", "close", "Close", id="report.close"),
    ]

    def __init__(self, title: str, body: Content) -> None:
        super().__init__()
        self.report_title = title
        self.body = body

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="report-dialog") as dialog:
            dialog.border_title = inert(self.report_title)
            yield Static(self.body, id="report-body")

    def action_close(self) -> None:
        self.dismiss(None)
