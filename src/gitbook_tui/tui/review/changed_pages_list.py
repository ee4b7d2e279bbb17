"""ChangedPagesList: a change request's changed pages and files, with local viewed marks.

Rows: change mark (``+ ~ − →``), title, ``✓`` when viewed; the border says "2/5 viewed".
``J``/``K`` (on the review screen) move to the next/previous entry, ``space`` toggles the
viewed mark of the selected one. :meth:`ChangedPagesList.filter` narrows the rows to the
entries whose title or path has every word typed (``/`` on the review screen).
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from ...markdown.sanitize import clean_text
from ...models import RevisionSemanticChange
from ..common.filter_box import matches
from .review_data import change_label
from .viewed_marks import ViewedMarks

__all__ = ["ChangedPagesList", "entry_id"]


def entry_id(change: RevisionSemanticChange) -> str:
    """A stable key per entry: the page's or file's id."""
    if change.page is not None:
        return change.page.id
    if change.file is not None:
        return f"file:{change.file.id}"
    return f"other:{change.type}"


class ChangedPagesList(OptionList):
    """The list; :meth:`set_changes` fills it, :meth:`refresh_marks` redraws the marks."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.changes: list[RevisionSemanticChange] = []
        self.listed: list[RevisionSemanticChange] = []
        """The rows shown: every change, or those matching :attr:`needle`."""
        self.needle = ""
        self.marks: ViewedMarks | None = None
        self.more = 0

    def set_changes(
        self, changes: list[RevisionSemanticChange], marks: ViewedMarks | None, more: int = 0
    ) -> None:
        keep = self.selected
        self.changes, self.marks, self.more = changes, marks, more
        self._rebuild(keep)

    def filter(self, needle: str) -> None:
        """Show only the entries matching ``needle`` (``""``: all), the selected one kept
        when it still matches, else the first match highlighted."""
        keep = self.selected
        self.needle = needle
        self._rebuild(keep)

    def _rebuild(self, keep: RevisionSemanticChange | None) -> None:
        keep_id = entry_id(keep) if keep is not None else None
        self.listed = [c for c in self.changes if _matches(c, self.needle)]
        self.clear_options()
        self.add_options([Option(self._label(c), id=entry_id(c)) for c in self.listed])
        if self.needle and not self.listed:
            self.add_option(Option(Text(f"No page matches “{self.needle}”"), disabled=True))
        elif self.more:
            self.add_option(
                Option(Text(f"… {self.more} more not listed", style="dim"), disabled=True)
            )
        if self.listed:
            ids = [entry_id(c) for c in self.listed]
            self.highlighted = ids.index(keep_id) if keep_id in ids else 0
        self._update_title()

    def _label(self, change: RevisionSemanticChange) -> Text:
        viewed = self.marks is not None and self.marks.is_viewed(entry_id(change))
        return Text.assemble(clean_text(change_label(change)), ("  ✓" if viewed else "", "bold"))

    def refresh_marks(self) -> None:
        for index, change in enumerate(self.listed):
            self.replace_option_prompt_at_index(index, self._label(change))
        self._update_title()

    @property
    def viewed_count(self) -> int:
        if self.marks is None:
            return 0
        return sum(1 for c in self.changes if self.marks.is_viewed(entry_id(c)))

    def progress(self) -> str:
        return f"{self.viewed_count}/{len(self.changes)} viewed"

    def _update_title(self) -> None:
        total = len(self.changes) + self.more
        self.border_title = (
            f"pages {len(self.listed)} of {total} match" if self.needle else f"pages {total}"
        )
        self.border_subtitle = self.progress()

    @property
    def selected(self) -> RevisionSemanticChange | None:
        index = self.highlighted
        if index is None or index >= len(self.listed):
            return None
        return self.listed[index]

    @property
    def ordinal(self) -> int:
        """1-based place of the selected entry among all changes (0: none)."""
        change = self.selected
        return self.changes.index(change) + 1 if change is not None else 0

    def step(self, delta: int) -> bool:
        """Move ``delta`` pages; ``False`` when already on the first/last one."""
        if not self.listed:
            return False
        here = self.highlighted or 0
        index = max(0, min(len(self.listed) - 1, here + delta))
        self.highlighted = index
        return index != here


def _matches(change: RevisionSemanticChange, needle: str) -> bool:
    page, file = change.page, change.file
    return matches(
        needle,
        page.title if page else None,
        page.path if page else None,
        file.name if file else None,
    )
