"""TreeFilter: the workspace tree's filter — only the nodes whose label contains the text
(with their ancestors), moving among the matches, the pages the filter should know
loaded first; and the hidden pages shown or not.

A mixin for :class:`.workspace_tree.WorkspaceTree`; the filter's text box is the
sidebar's (:mod:`..sidebar`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import work

from ....api import ReadMode
from .base import BatchedTree
from .model import space_key
from .state import TreeQueries

__all__ = ["TreeFilter"]


class TreeFilter(TreeQueries, BatchedTree):
    """Filtering of the workspace tree (see the module)."""

    context_space: str | None

    if TYPE_CHECKING:  # provided by the widget

        def _rebuild(self) -> None: ...
        def select_key(self, key: str, *, expand: bool = True) -> bool: ...
        async def ensure_loaded(self, key: str, *, read: ReadMode = "prefer-cache") -> bool: ...

    def set_filter(self, text: str) -> None:
        """Show only nodes whose label contains ``text`` (any case), with their ancestors;
        the cursor goes to the first match."""
        text = text.strip()
        if text == self.state.filter_text:
            return
        self.state.filter_text = text
        if not text:
            self.state.filter_matches = []
        self._rebuild()
        if text:
            self.move_to_match(0)

    @property
    def filter_matches(self) -> list[str]:
        """Keys of the nodes matching the filter, in tree order."""
        return list(self.state.filter_matches) if self.state.filter_text else []

    def filter_reach(self) -> tuple[int, int]:
        """(spaces whose pages are loaded, spaces known): the filter searches page titles
        only in the first; the others' pages are not known yet."""
        spaces = [d for d in self.state.info.values() if d.kind == "space"]
        return sum(1 for d in spaces if self.state.is_loaded(d.key)), len(spaces)

    def move_to_match(self, step: int) -> None:
        """The cursor to the next (``step`` 1) or previous (-1) match, wrapping around;
        ``step`` 0: to the first match unless it is on one already."""
        matches = self.filter_matches
        if not matches:
            return
        current = self.selected_key
        if current in matches:
            if step == 0:
                return
            index = (matches.index(current) + step) % len(matches)
        elif step < 0:
            index = len(matches) - 1
        else:
            index = 0
        self.select_key(matches[index])

    def filter_scope(self) -> list[str]:
        """Space keys whose pages the filter should know: the open page's space and the
        space under the cursor (their page tree is one request)."""
        keys: list[str] = []
        data = self._cursor_data()
        for space_id in (self.context_space, data.space_id if data else None):
            if space_id and space_key(space_id) not in keys:
                keys.append(space_key(space_id))
        if data is not None and data.kind == "space" and data.key not in keys:
            keys.append(data.key)
        return keys

    @work(exclusive=True, exit_on_error=False, group="tree-filter-scope")
    async def load_filter_scope(self) -> None:
        """Load the pages of :meth:`filter_scope` not known yet, then filter them too."""
        changed = False
        for key in self.filter_scope():
            if key in self.state.info and not self.state.is_loaded(key):
                changed = await self.ensure_loaded(key) or changed
        if changed and self.state.filter_text:
            self._rebuild()
            self.move_to_match(0)

    def set_show_hidden(self, show: bool) -> None:
        if show != self.state.show_hidden:
            self.state.show_hidden = show
            self._rebuild()
