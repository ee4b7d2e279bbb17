"""Pager keys for every scrollable view: ``PagerScroll`` (text), ``PagerOptionList`` and
``PagerDataTable`` (lists and tables).

The interaction kit's motion gestures: ``j``/``k`` a line, ``ctrl+d``/``ctrl+u`` half a page,
``ctrl+f``/``ctrl+b`` and pageup/pagedown a page, ``g``/``G`` (home/end) the top and the
bottom. Readers (``PagerScroll``) also page with ``space``/``b`` and ``d``/``u`` like
``less``; lists and tables leave those letters to their own actions (``d`` deletes).
"""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import DataTable, OptionList

__all__ = [
    "LIST_MOTION_BINDINGS",
    "PAGER_BINDINGS",
    "PagerDataTable",
    "PagerOptionList",
    "PagerScroll",
    "list_motion_bindings",
]


def _pager_bindings(prefix: str, *, letters: bool = True) -> list[BindingType]:
    """The pager bindings (ids ``<prefix>.<name>``); ``letters`` False leaves out the
    reader-only letters ``space``/``b``/``d``/``u`` (lists use them for actions)."""
    page_down = "space,pagedown,ctrl+f" if letters else "pagedown,ctrl+f"
    page_up = "b,pageup,ctrl+b" if letters else "pageup,ctrl+b"
    half_down = "ctrl+d,d" if letters else "ctrl+d"
    half_up = "ctrl+u,u" if letters else "ctrl+u"
    return [
        Binding("j,down", "pager_lines(1)", "Down", show=False, id=f"{prefix}.down"),
        Binding("k,up", "pager_lines(-1)", "Up", show=False, id=f"{prefix}.up"),
        Binding(page_down, "pager_pages(1)", "Page down", show=False, id=f"{prefix}.page_down"),
        Binding(page_up, "pager_pages(-1)", "Page up", show=False, id=f"{prefix}.page_up"),
        Binding(half_down, "pager_half(1)", "Half page down", show=False, id=f"{prefix}.half_down"),
        Binding(half_up, "pager_half(-1)", "Half page up", show=False, id=f"{prefix}.half_up"),
        Binding("g,home", "pager_end(-1)", "Top", show=False, id=f"{prefix}.top"),
        Binding("G,end", "pager_end(1)", "Bottom", show=False, id=f"{prefix}.bottom"),
    ]


PAGER_BINDINGS = _pager_bindings("pager")


def list_motion_bindings(prefix: str) -> list[BindingType]:
    """The list motion keys with ids ``<prefix>.<name>``, for a list or table class of
    its own (the actions are :class:`ListMotion`'s)."""
    return _pager_bindings(prefix, letters=False)


LIST_MOTION_BINDINGS = list_motion_bindings("list")


class ListMotion:
    """The list motion actions over ``_cursor_index``/``_set_cursor``/``_row_count``."""

    def _row_count(self) -> int:
        raise NotImplementedError

    def _cursor_index(self) -> int | None:
        raise NotImplementedError

    def _set_cursor(self, index: int) -> None:
        raise NotImplementedError

    def _visible_rows(self) -> int:
        raise NotImplementedError

    def _move(self, delta: int) -> None:
        count = self._row_count()
        if not count:
            return
        current = self._cursor_index()
        target = max(0, min(count - 1, (0 if current is None else current) + delta))
        if target != current:
            self._set_cursor(target)

    def action_pager_lines(self, step: int) -> None:
        self._move(step)

    def action_pager_pages(self, step: int) -> None:
        self._move(step * self._visible_rows())

    def action_pager_half(self, step: int) -> None:
        self._move(step * max(1, self._visible_rows() // 2))

    def action_pager_end(self, step: int) -> None:
        self._move(step * max(1, self._row_count()))


class PagerScroll(VerticalScroll, can_focus=True):
    """A vertical scroll area with the pager keys."""

    BINDINGS: ClassVar[list[BindingType]] = _pager_bindings("pager")

    def _page(self) -> int:
        return max(1, self.scrollable_content_region.height)

    def action_pager_lines(self, step: int) -> None:
        self.scroll_relative(y=step, animate=False, immediate=True)

    def action_pager_pages(self, step: int) -> None:
        self.scroll_relative(y=step * self._page(), animate=False, immediate=True)

    def action_pager_half(self, step: int) -> None:
        self.scroll_relative(y=step * max(1, self._page() // 2), animate=False, immediate=True)

    def action_pager_end(self, step: int) -> None:
        if step > 0:
            self.scroll_end(animate=False, immediate=True)
        else:
            self.scroll_home(animate=False, immediate=True)


class PagerOptionList(ListMotion, OptionList):
    """An option list whose highlight moves with the list motion keys."""

    BINDINGS: ClassVar[list[BindingType]] = LIST_MOTION_BINDINGS

    def _row_count(self) -> int:
        return self.option_count

    def _cursor_index(self) -> int | None:
        return self.highlighted

    def _set_cursor(self, index: int) -> None:
        self.highlighted = index

    def _visible_rows(self) -> int:
        return max(1, self.scrollable_content_region.height)


class PagerDataTable(ListMotion, DataTable[object]):
    """A data table whose cursor row moves with the list motion keys."""

    BINDINGS: ClassVar[list[BindingType]] = list_motion_bindings("table")

    def _row_count(self) -> int:
        return self.row_count

    def _cursor_index(self) -> int | None:
        return self.cursor_row if self.row_count else None

    def _set_cursor(self, index: int) -> None:
        self.move_cursor(row=index, animate=False)

    def _visible_rows(self) -> int:
        header = self.header_height if self.show_header else 0
        return max(1, self.scrollable_content_region.height - header)
