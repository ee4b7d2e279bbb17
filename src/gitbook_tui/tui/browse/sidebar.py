"""Sidebar: the workspace tree with its filter box (shown while a filter is typed)."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Input

from ...api import AsyncGitBook
from .tree.workspace_tree import WorkspaceTree

__all__ = ["Sidebar"]


class Sidebar(Vertical):
    """A printable key (or ``/``) on the tree opens the filter box with it; enter goes back
    to the tree with the filter kept; :meth:`clear_filter` closes the box and the filter."""

    def __init__(
        self,
        client: AsyncGitBook,
        *,
        org_id: str | None,
        show_hidden: bool = False,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        # made here and kept (no query): see BrowserScreen
        self._box = Input(placeholder="filter", id="tree-filter", select_on_focus=False)
        self._box.display = False
        self._tree = WorkspaceTree(
            client, org_id=org_id, show_hidden=show_hidden, id="workspace-tree"
        )

    def compose(self) -> ComposeResult:
        yield self._box
        yield self._tree

    @property
    def workspace_tree(self) -> WorkspaceTree:
        return self._tree

    @property
    def filter_box(self) -> Input:
        return self._box

    def clear_filter(self) -> None:
        """Close the filter box and show the whole tree again."""
        box = self.filter_box
        if self.workspace_tree.filter_text or box.display:
            box.value = ""
            box.display = False
            self.workspace_tree.set_filter("")

    @on(WorkspaceTree.FilterRequested)
    def _filter_requested(self, event: WorkspaceTree.FilterRequested) -> None:
        event.stop()
        box = self.filter_box
        box.display = True
        box.value = box.value + event.text
        box.focus()
        box.cursor_position = len(box.value)

    @on(Input.Changed, "#tree-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self.workspace_tree.set_filter(event.value)

    @on(Input.Submitted, "#tree-filter")
    def _filter_submitted(self, event: Input.Submitted) -> None:
        self.workspace_tree.focus()
