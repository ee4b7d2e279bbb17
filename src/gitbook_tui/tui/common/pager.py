"""Pager keys for every scrollable view: ``PagerScroll`` (text) and ``PagerOptionList``.

The same keys as the page viewer: ``ctrl+d``/``ctrl+u`` (and ``d``/``u``) half a page,
``ctrl+f``/``ctrl+b``, ``space``/``b`` and pageup/pagedown a page, ``g``/``G`` (home/end)
the top and the bottom, ``j``/``k`` a line.
"""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import OptionList

__all__ = ["PAGER_BINDINGS", "PagerOptionList", "PagerScroll"]


def _pager_bindings(prefix: str, *, letters: bool = True) -> list[BindingType]:
    """The pager bindings (ids ``<prefix>.<name>``); ``letters`` False leaves out the
    keys a list typed into would miss (none today: every list here is read-only)."""
    page_down = "space,pagedown,ctrl+f" if letters else "pagedown,ctrl+f"
    page_up = "b,pageup,ctrl+b" if letters else "pageup,ctrl+b"
    return [
        Binding("j,down", "pager_lines(1)", "Down", show=False, id=f"{prefix}.down"),
        Binding("k,up", "pager_lines(-1)", "Up", show=False, id=f"{prefix}.up"),
        Binding(page_down, "pager_pages(1)", "Page down", show=False, id=f"{prefix}.page_down"),
        Binding(page_up, "pager_pages(-1)", "Page up", show=False, id=f"{prefix}.page_up"),
        Binding(
            "ctrl+d,d", "pager_half(1)", "Half page down", show=False, id=f"{prefix}.half_down"
        ),
        Binding("ctrl+u,u", "pager_half(-1)", "Half page up", show=False, id=f"{prefix}.half_up"),
        Binding("g,home", "pager_end(-1)", "Top", show=False, id=f"{prefix}.top"),
        Binding("G,end", "pager_end(1)", "Bottom", show=False, id=f"{prefix}.bottom"),
    ]


PAGER_BINDINGS = _pager_bindings("pager")


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


class PagerOptionList(OptionList):
    """An option list whose highlight moves with the pager keys."""

    BINDINGS: ClassVar[list[BindingType]] = _pager_bindings("list")

    def _move(self, delta: int) -> None:
        count = self.option_count
        if not count:
            return
        current = self.highlighted if self.highlighted is not None else 0
        self.highlighted = max(0, min(count - 1, current + delta))

    def _page(self) -> int:
        return max(1, self.scrollable_content_region.height)

    def action_pager_lines(self, step: int) -> None:
        self._move(step)

    def action_pager_pages(self, step: int) -> None:
        self._move(step * self._page())

    def action_pager_half(self, step: int) -> None:
        self._move(step * max(1, self._page() // 2))

    def action_pager_end(self, step: int) -> None:
        self._move(step * self.option_count)
