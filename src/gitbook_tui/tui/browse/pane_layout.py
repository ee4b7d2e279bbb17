"""PaneLayout: which of the browser's panes show, and moving the focus between them.

From :data:`WIDE` columns the tree shows beside the page. Below, the tree is a drawer:
an open page takes the width, ``\\`` shows or hides the tree, and the tree always shows
while it has the focus. Below :data:`ONE_PANE` columns one pane shows at a time, the one
with the focus. The screen gets the classes ``-tree-hidden``, ``-page-hidden`` and
``-narrow`` (the stylesheet does the rest).

:class:`PaneLayout` is a helper the browser screen holds (``screen.panes``); it reaches
the screen through :class:`PaneHost`.
"""

from __future__ import annotations

from typing import Protocol

from textual.geometry import Size
from textual.widget import Widget

from .page_viewer import PageViewer
from .sidebar import Sidebar
from .tree.workspace_tree import WorkspaceTree

__all__ = ["ONE_PANE", "WIDE", "PaneHost", "PaneLayout", "tree_width"]

WIDE = 100
"""From this width the tree shows beside the page; below it the tree is a drawer."""
ONE_PANE = 60
"""Below this width one pane shows at a time: the one with the focus."""
TREE_MIN = 24
"""The tree's narrowest (columns, its borders included)."""
TREE_MAX = 60
"""The tree's widest beside the page on a wide screen."""
TREE_SHARE_WIDE = 0.4
TREE_SHARE_DRAWER = 0.6
"""The most of the width the tree takes beside the page (wide) and as a drawer: a drawer
is opened to read the tree, so it gets more."""
TREE_CHROME = 3
"""Columns around the tree's lines: the focus marker, the border and the scrollbar."""


def tree_width(screen_width: int, content_width: int) -> int:
    """The tree pane's width for its widest line ``content_width``: what the titles need,
    within :data:`TREE_MIN` and the share of the screen the layout allows."""
    share = TREE_SHARE_WIDE if screen_width >= WIDE else TREE_SHARE_DRAWER
    cap = max(TREE_MIN, min(TREE_MAX, int(screen_width * share)))
    return max(TREE_MIN, min(cap, content_width + TREE_CHROME))


class PaneHost(Protocol):
    """What the pane layout needs of the browser screen."""

    @property
    def size(self) -> Size: ...
    @property
    def focused(self) -> Widget | None: ...
    @property
    def workspace_tree(self) -> WorkspaceTree: ...
    @property
    def sidebar(self) -> Sidebar: ...
    @property
    def viewer(self) -> PageViewer: ...
    @property
    def page_open(self) -> bool:
        """A page is shown (until then a narrow screen keeps the tree in view)."""
        ...

    def has_class(self, *class_names: str) -> bool: ...
    def set_class(self, add: bool, *class_names: str, update: bool = True) -> object: ...
    def remove_class(self, *class_names: str, update: bool = True) -> object: ...
    def refresh_bindings(self) -> None: ...


class PaneLayout:
    """Which of the browser's panes show, and the focus between them (see the module)."""

    def __init__(self, host: PaneHost) -> None:
        self._host = host
        self.tree_choice: bool | None = None
        """The reader's choice with ``\\`` (None: the default for the width)."""

    def switch_focus(self) -> None:
        if self.focus_in_tree():
            self.focus_page()
        else:
            self.focus_tree()

    def toggle_tree(self) -> None:
        r"""``\``: show or hide the tree (one pane at a time on a very narrow screen:
        switch panes)."""
        host = self._host
        if host.size.width < ONE_PANE:
            self.switch_focus()
            return
        shown = not host.has_class("-tree-hidden")
        self.tree_choice = not shown
        if shown:
            self.focus_page()  # (the tree hides once the focus left it)
        else:
            self.focus_tree()
        self.layout()

    def focus_tree(self) -> None:
        """The tree takes the focus (shown while it has it, on a narrow screen too)."""
        self._host.remove_class("-tree-hidden")  # (a hidden widget cannot take the focus)
        self._host.workspace_tree.focus()

    def focus_page(self) -> None:
        self._host.remove_class("-page-hidden")
        self._host.viewer.focus()

    def focus_in_tree(self) -> bool:
        focused = self._host.focused
        return focused is not None and self._host.sidebar in focused.ancestors_with_self

    # -- narrow screens ---------------------------------------------------------------------------
    def layout(self) -> None:
        """Which panes show for this width (see :data:`WIDE` and :data:`ONE_PANE`)."""
        host = self._host
        width = host.size.width
        if not width:
            return
        in_tree = self.focus_in_tree() or host.focused is None
        if width < ONE_PANE:
            show_tree, show_page = in_tree, not in_tree
        else:
            default = width >= WIDE or not host.page_open  # (nothing to read yet)
            chosen = default if self.tree_choice is None else self.tree_choice
            show_tree = chosen or in_tree  # the tree never hides while it has the focus
            show_page = True
        revealing = self.reveal_binding_ids()
        host.set_class(not show_tree, "-tree-hidden")
        host.set_class(not show_page, "-page-hidden")
        host.set_class(width < WIDE, "-narrow")
        if self.reveal_binding_ids() != revealing:
            # the footer keeps ``\`` while the tree is hidden; this often runs for a focus
            # move, whose own binding refresh may reach the footer before the tree hid
            host.refresh_bindings()
        self.fit_tree()

    def fit_tree(self) -> None:
        """Size the tree to its titles (one pane at a time: the whole width)."""
        host = self._host
        width = host.size.width
        if not width:
            return
        sidebar = host.sidebar
        if width < ONE_PANE or host.has_class("-page-hidden"):
            sidebar.styles.width = None  # the stylesheet's: the whole width
            return
        content = host.workspace_tree.virtual_size.width
        sidebar.styles.width = tree_width(width, content)

    def reveal_binding_ids(self) -> tuple[str, ...]:
        """``\\`` while the tree is hidden: the footer always shows the key that shows it."""
        return ("browser.toggle_tree",) if self._host.has_class("-tree-hidden") else ()
