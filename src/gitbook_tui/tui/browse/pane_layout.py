"""PaneLayout: which of the browser's panes show, and moving the focus between them.

From :data:`WIDE` columns the tree shows beside the page. Below, the tree is a drawer:
an open page takes the width, ``\\`` shows or hides the tree, and the tree always shows
while it has the focus. Below :data:`ONE_PANE` columns one pane shows at a time, the one
with the focus. The screen gets the classes ``-tree-hidden``, ``-page-hidden`` and
``-narrow`` (the stylesheet does the rest).
"""

from __future__ import annotations

from textual.screen import Screen

from .page_viewer import PageViewer
from .sidebar import Sidebar
from .tree.workspace_tree import WorkspaceTree

__all__ = ["ONE_PANE", "WIDE", "PaneLayout"]

WIDE = 100
"""From this width the tree shows beside the page; below it the tree is a drawer."""
ONE_PANE = 60
"""Below this width one pane shows at a time: the one with the focus."""


class PaneLayout(Screen[None]):
    """The pane logic of the browser screen (a base class of it)."""

    tree_choice: bool | None = None
    """The reader's choice with ``\\`` (None: the default for the width)."""

    @property
    def workspace_tree(self) -> WorkspaceTree:
        return self.query_one(WorkspaceTree)

    @property
    def viewer(self) -> PageViewer:
        return self.query_one(PageViewer)

    @property
    def page_open(self) -> bool:
        """A page is shown (until then a narrow screen keeps the tree in view)."""
        raise NotImplementedError

    def action_escape(self) -> None:
        """Back to the tree (the tree's filter stays as it is)."""
        self.focus_tree()

    def action_switch_focus(self) -> None:
        if self._focus_in_tree():
            self.focus_page()
        else:
            self.focus_tree()

    def action_toggle_tree(self) -> None:
        r"""``\``: show or hide the tree (one pane at a time on a very narrow screen:
        switch panes)."""
        if self.size.width < ONE_PANE:
            self.action_switch_focus()
            return
        shown = not self.has_class("-tree-hidden")
        self.tree_choice = not shown
        if shown:
            self.focus_page()  # (the tree hides once the focus left it)
        else:
            self.focus_tree()
        self._layout()

    def focus_tree(self) -> None:
        """The tree takes the focus (shown while it has it, on a narrow screen too)."""
        self.remove_class("-tree-hidden")  # (a hidden widget cannot take the focus)
        self.workspace_tree.focus()

    def focus_page(self) -> None:
        self.remove_class("-page-hidden")
        self.viewer.focus()

    # -- narrow screens ---------------------------------------------------------------------------
    def _focus_in_tree(self) -> bool:
        focused = self.focused
        return focused is not None and self.query_one(Sidebar) in focused.ancestors_with_self

    def _layout(self) -> None:
        """Which panes show for this width (see :data:`WIDE` and :data:`ONE_PANE`)."""
        width = self.size.width
        if not width:
            return
        in_tree = self._focus_in_tree() or self.focused is None
        if width < ONE_PANE:
            show_tree, show_page = in_tree, not in_tree
        else:
            default = width >= WIDE or not self.page_open  # (nothing to read yet)
            chosen = default if self.tree_choice is None else self.tree_choice
            show_tree = chosen or in_tree  # the tree never hides while it has the focus
            show_page = True
        self.set_class(not show_tree, "-tree-hidden")
        self.set_class(not show_page, "-page-hidden")
        self.set_class(width < WIDE, "-narrow")

    def on_resize(self) -> None:
        self._layout()

    def on_descendant_focus(self) -> None:
        self._layout()
