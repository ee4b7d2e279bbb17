"""SitesTable: the sites list of view 4, one site a row."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import BindingType

from ..common.pager import PagerDataTable, list_motion_bindings

__all__ = ["SitesTable"]


class SitesTable(PagerDataTable):
    """The sites list (a class of its own so the footer can pick its hints); the kit's
    list motion keys move its cursor."""

    BINDINGS: ClassVar[list[BindingType]] = list_motion_bindings("sites.pager")
