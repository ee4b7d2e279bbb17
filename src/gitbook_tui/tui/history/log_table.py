"""LogTable: the History view's list of revisions (date, type, what it merged, what changed);
the kit's list motion keys move its cursor."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual.binding import BindingType

from ...markdown.sanitize import clean_text
from ..common.pager import PagerDataTable, list_motion_bindings
from ..common.text import fit
from .history_data import LogEntry

__all__ = ["LogTable", "entry_cells"]

HEADS = ("", "Date", "Type", "Change request / commit", "Changes")
MARK = "◆"
"""The revision marked to compare (a glyph, not only a colour)."""


def _widths(total: int) -> tuple[int, int, int, int, int]:
    """Mark, date, type, what, summary within ``total`` cells (padding left out)."""
    date = 16 if total >= 110 else 10
    summary = max(14, min(30, total // 4))
    what = max(10, total - 1 - date - 8 - summary)
    return (1, date, 8, what, summary)


def entry_cells(entry: LogEntry, width: int, marked: bool) -> tuple[Text, ...]:
    """The row of ``entry`` for a table ``width`` cells wide: server text made inert."""
    widths = _widths(max(40, width - 2 - 2 * len(HEADS)))
    when = ""
    if entry.created_at is not None:
        when = entry.created_at.strftime("%Y-%m-%d %H:%M" if widths[1] > 10 else "%Y-%m-%d")
    style = "" if entry.state == "ok" else "italic"
    texts: Sequence[tuple[str, str]] = (
        (MARK if marked else "", "bold"),
        (when, "dim"),
        (entry.kind if entry.state == "ok" else entry.state, ""),
        (clean_text(entry.what), style or ("bold" if entry.cr_number is not None else "")),
        (entry.summary, "dim" if entry.changes_failed else ""),
    )
    return tuple(
        Text(fit(text, size, ellipsis=True), style=s, no_wrap=True)
        for (text, s), size in zip(texts, widths, strict=True)
    )


class LogTable(PagerDataTable):
    """The revisions of the log, one row each (the row key is the revision id)."""

    BINDINGS: ClassVar[list[BindingType]] = list_motion_bindings("history.log")

    @property
    def fitted_width(self) -> int:
        """The width rows are fitted to: the table's, or — before its first layout (a log
        asked for as its view opens) — the terminal's, which the table spans."""
        return self.size.width or self.app.size.width

    def set_columns(self) -> None:
        widths = _widths(max(40, self.fitted_width - 2 - 2 * len(HEADS)))
        self.clear(columns=True)
        for head, width in zip(HEADS, widths, strict=True):
            self.add_column(head, width=width)
