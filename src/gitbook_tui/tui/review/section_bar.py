"""SectionBar: the review inbox's section tabs on one row, fitted to its width — shorter
labels first, then a window around the selected section, a cut with "…" only as a last resort.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.cells import cell_len
from textual.content import Content
from textual.widget import Widget

from ..common.text import fit

__all__ = ["SectionBar", "Tab", "tab_row"]

GAP = " "
"""Between two tabs (each tab also has a space inside either edge)."""
MORE = "…"
"""Marks the side where sections are left out (only when even the shortest labels don't fit)."""


@dataclass(frozen=True)
class Tab:
    """One section: its labels, longest first (each shorter one used at narrower widths),
    and its count (``None`` while loading)."""

    labels: tuple[str, ...]
    count: int | None = None

    def text(self, level: int) -> str:
        title = self.labels[min(level, len(self.labels) - 1)]
        return f" {title}" + (f" {self.count}" if self.count is not None else "") + " "


def tab_row(tabs: Sequence[Tab], selected: int, width: int) -> Content:
    """The tabs in ``width`` cells, ``selected`` drawn reversed. Every tab shows at one
    label length (the longest all of them fit at: the bar does not jump on ``h``/``l``),
    the shortest also without the gap between tabs; if even that does not fit, the tabs
    around the selected one, with "…" on a side where some are left out; the selected tab
    alone is cut with "…"."""
    if not tabs:
        return Content("")
    selected = max(0, min(selected, len(tabs) - 1))
    levels = max(len(tab.labels) for tab in tabs)
    tries = [(level, GAP) for level in range(levels)] + [(levels - 1, "")]
    for level, gap in tries:
        texts = [tab.text(level) for tab in tabs]
        if sum(map(cell_len, texts)) + cell_len(gap) * (len(texts) - 1) <= width:
            return _assemble(texts, selected, 0, len(texts) - 1, gap)
    texts = [tab.text(levels - 1) for tab in tabs]
    last = len(texts) - 1

    def cost(lo: int, hi: int) -> int:
        marks = (lo > 0) + (hi < last)
        shown = sum(map(cell_len, texts[lo : hi + 1])) + cell_len(GAP) * (hi - lo)
        return shown + marks * (cell_len(MORE) + cell_len(GAP))

    lo = hi = selected
    if cost(lo, hi) > width:  # the selected tab alone is too wide
        return Content.styled(fit(texts[selected], width, ellipsis=True), "reverse bold")
    grown = True
    while grown:  # the next section first, then the previous one
        grown = False
        for new_lo, new_hi in ((lo, hi + 1), (lo - 1, hi)):
            if new_lo >= 0 and new_hi <= last and cost(new_lo, new_hi) <= width:
                lo, hi, grown = new_lo, new_hi, True
    return _assemble(texts, selected, lo, hi, GAP)


def _assemble(texts: list[str], selected: int, lo: int, hi: int, gap: str) -> Content:
    parts: list[tuple[str, str] | str] = []
    if lo > 0:
        parts += [(MORE, "$text-muted"), GAP]
    for index in range(lo, hi + 1):
        if index > lo and gap:
            parts.append(gap)
        parts.append((texts[index], "reverse bold" if index == selected else ""))
    if hi < len(texts) - 1:
        parts += [GAP, (MORE, "$text-muted")]
    return Content.assemble(*parts)


class SectionBar(Widget):
    """One row: the inbox's sections (:meth:`show_tabs`) or a line of text
    (:meth:`show_text`, cut with "…" when too long); drawn again at every width."""

    DEFAULT_CSS = """
    SectionBar { height: 1; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._tabs: tuple[Tab, ...] = ()
        self._selected = 0
        self._text: Content | None = None

    def show_tabs(self, tabs: Sequence[Tab], selected: int) -> None:
        self._tabs, self._selected, self._text = tuple(tabs), selected, None
        self.refresh()

    def show_text(self, text: Content) -> None:
        self._text = text
        self.refresh()

    def render(self) -> Content:
        width = self.content_size.width
        if self._text is not None:
            return self._text.truncate(width, ellipsis=True)
        return tab_row(self._tabs, self._selected, width)
