"""ChangedPagesList: a change request's changed pages and files, with local viewed marks.

Rows: change mark (``+ ~ − →``), title, ``✓`` when viewed; the border says "2/5 viewed".
``J``/``K`` (on the review screen) move to the next/previous entry, ``space`` toggles the
viewed mark of the selected one.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from ...markdown.sanitize import clean_text
from ...models import RevisionSemanticChange
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
        self.marks: ViewedMarks | None = None
        self.more = 0

    def set_changes(
        self, changes: list[RevisionSemanticChange], marks: ViewedMarks | None, more: int = 0
    ) -> None:
        keep = self.highlighted
        self.changes, self.marks, self.more = changes, marks, more
        self.clear_options()
        self.add_options([Option(self._label(c), id=entry_id(c)) for c in changes])
        if more:
            self.add_option(Option(Text(f"… {more} more not listed", style="dim"), disabled=True))
        if changes:
            self.highlighted = min(keep or 0, len(changes) - 1)
        self._update_title()

    def _label(self, change: RevisionSemanticChange) -> Text:
        viewed = self.marks is not None and self.marks.is_viewed(entry_id(change))
        return Text.assemble(clean_text(change_label(change)), ("  ✓" if viewed else "", "bold"))

    def refresh_marks(self) -> None:
        for index, change in enumerate(self.changes):
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
        self.border_title = f"pages {len(self.changes) + self.more}"
        self.border_subtitle = self.progress()

    @property
    def selected(self) -> RevisionSemanticChange | None:
        index = self.highlighted
        if index is None or index >= len(self.changes):
            return None
        return self.changes[index]

    def step(self, delta: int) -> bool:
        """Move ``delta`` pages; ``False`` when already on the first/last one."""
        if not self.changes:
            return False
        here = self.highlighted or 0
        index = max(0, min(len(self.changes) - 1, here + delta))
        self.highlighted = index
        return index != here
