"""The review inbox's table: columns fitted to the width, one row's cells, empty texts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.text import Text
from textual.color import Color
from textual.widgets import DataTable

from ...markdown.sanitize import clean_text
from ..common.contrast import TEXT_CONTRAST, readable
from .inbox_data import CONFLICT, InboxRow, age

__all__ = ["empty_text", "fit_columns", "review_colors", "row_cells"]


def _cell(text: str | None, style: str = "") -> Text:
    return Text(clean_text(text or ""), style=style, no_wrap=True, overflow="ellipsis")


def fit_columns(table: DataTable[Any], width: int) -> tuple[int, int]:
    """(Re)make the columns for ``width``: the subject takes what is left. Returns
    ``(width, subject width)`` (the caller skips the work when it did not change)."""
    narrow = width < 100
    fixed = [
        ("number", "#", 4),
        ("space", "Space", 9 if narrow else 16),
        ("subject", "Subject", 0),
        ("author", "Author", 8 if narrow else 14),
        ("reviews", "✓ ✗", 6),
        ("comments", "💬", 3),
        ("outdated", "⟳", 1),
        ("updated", "Upd", 3),
    ]
    # each column has one cell of padding either side; a cell for the scrollbar
    used = sum(w for _, _, w in fixed) + 2 * len(fixed) + 2
    subject = max(12, width - used)
    table.clear(columns=True)
    for key, label, size in fixed:
        table.add_column(label, key=key, width=size or subject)
    return width, subject


def row_cells(row: InboxRow, good: str = "green", bad: str = "red") -> tuple[Text, ...]:
    """The cells of a row; ``good``/``bad``: the colours of approvals and of changes
    requested or conflicts (the theme's, made readable: :func:`review_colors`)."""
    cr = row.cr
    reviews = Text.assemble(
        (f"✓{row.approvals}" if row.approvals is not None else "✓·", good),
        " ",
        (f"✗{row.changes_requested}" if row.changes_requested is not None else "✗·", bad),
    )
    if CONFLICT in row.tags:
        state = Text("⚠", style=f"bold {bad}")
    else:
        state = Text("⟳" if cr.outdated else "")
    return (
        Text(f"#{row.number}"),
        _cell(row.space_title),
        _cell(cr.subject or "(no subject)", "" if cr.status == "open" else "italic"),
        _cell(cr.createdBy.displayName if cr.createdBy else ""),
        reviews,
        Text(str(cr.comments or "")),
        state,
        Text(age(cr.updatedAt)),
    )


def empty_text(section: str, *, filtered: bool, space_only: bool) -> str:
    if filtered:
        return "Nothing matches the filter. escape clears it."
    if space_only:
        return "No change requests with this status here. f changes the status, a shows all spaces."
    return {
        "requested": "Nobody is waiting for your review. l shows your own change requests.",
        "mine": "You have no open change requests.",
        "outdated": "Nothing is outdated or conflicting.",
        "drafts": "No drafts.",
    }.get(section, "No change requests. f changes the status filter.")


def review_colors(variables: Mapping[str, str]) -> tuple[str, str]:
    """The theme's success and error colours, each made readable (body-text contrast) on
    the theme's background: the inbox's approval and changes-requested marks."""
    background = Color.parse(variables.get("background", "#000000"))
    foreground = Color.parse(variables.get("foreground", "#ffffff"))

    def pick(name: str, fallback: str) -> str:
        color = Color.parse(variables.get(name) or fallback)
        return readable(color, background, foreground, TEXT_CONTRAST).hex

    return pick("success", "#008000"), pick("error", "#ff0000")
