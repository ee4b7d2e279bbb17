"""ChangedPages: the pages a revision (or a comparison) changed, one line each with a word for
how ("edited", "created"…, not only a colour); the kit's list motion keys move it."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.binding import BindingType
from textual.widgets.option_list import Option

from ...markdown.sanitize import clean_text
from ..common.pager import PagerOptionList, list_motion_bindings
from .revision_diff import ChangedPage

__all__ = ["ChangedPages"]

_MARKS = {"created": "+", "deleted": "−", "edited": "~", "moved": "→"}


class ChangedPages(PagerOptionList):
    """The changed pages (an option per page, its id the page id)."""

    BINDINGS: ClassVar[list[BindingType]] = list_motion_bindings("history.pages")

    def show_pages(self, pages: list[ChangedPage]) -> None:
        self.clear_options()
        for page in pages:
            line = Text(no_wrap=True, overflow="ellipsis")
            line.append(f"{_MARKS.get(page.kind, '·')} ", style="bold")
            line.append(clean_text(page.title))
            line.append(f"  {page.kind}", style="dim")
            self.add_option(Option(line, id=page.page_id))
        if pages:
            self.highlighted = 0
