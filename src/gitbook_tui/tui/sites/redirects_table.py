"""RedirectsTable: the redirects pane's table, one redirect a row."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import BindingType

from ..common.pager import PagerDataTable, list_motion_bindings

__all__ = ["RedirectsTable"]


class RedirectsTable(PagerDataTable):
    """One redirect a row: source → destination, permanent or temporary, live or draft.
    The cursor moves with the kit's list motion keys."""

    BINDINGS: ClassVar[list[BindingType]] = list_motion_bindings("redirects.pager")
