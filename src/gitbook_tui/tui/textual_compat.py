"""The private Textual and Rich names the app relies on, each behind one function here.

Textual is pinned; when an upgrade renames or drops one of these, only this module
changes, and ``tests/tui/test_textual_compat.py`` names the internal that went missing.
:data:`INTERNALS` lists them all (the test probes each one).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from rich.style import Style
from textual.app import App
from textual.binding import BindingsMap
from textual.dom import DOMNode
from textual.screen import Screen
from textual.widgets import Footer, Tree
from textual.widgets._footer import FooterKey
from textual.widgets.tree import TreeDataType, TreeNode

__all__ = [
    "INTERNALS",
    "BatchingTree",
    "FooterKey",
    "app_keymap",
    "check_action_state",
    "footer_bindings_ready",
    "modal_binding_chain",
    "node_bindings",
    "style_has_meta",
    "tree_children",
    "tree_invalidate",
    "tree_node_registry",
]

INTERNALS: tuple[str, ...] = (
    "textual.widgets.Tree._invalidate",
    "textual.widgets.Tree._clear_line_cache",
    "textual.widgets.Tree._tree_nodes",
    "textual.widgets.tree.TreeNode._children",
    "textual.screen.Screen._modal_binding_chain",
    "textual.app.App._keymap",
    "textual.app.App._check_action_state",
    "textual.dom.DOMNode._bindings",
    "textual.widgets._footer.FooterKey",
    "textual.widgets.Footer._bindings_ready",
    "rich.style.Style._meta",
)
"""Every private name used through this module."""


# -- Tree ------------------------------------------------------------------------------------
class BatchingTree(Tree[TreeDataType]):
    """A Tree whose node changes inside :meth:`batch_nodes` invalidate it once, at the end.

    ``TreeNode.add`` and ``remove`` call ``Tree._invalidate`` (a whole-tree refresh) each
    time; inside a batch only the line cache is cleared, and the full invalidation runs
    once when the outermost batch ends."""

    _batch_depth = 0
    _batch_invalid = False

    @contextmanager
    def batch_nodes(self) -> Iterator[None]:
        """Nodes added or removed inside invalidate the tree once, at the end."""
        self._batch_depth += 1
        try:
            yield
        finally:
            self._batch_depth -= 1
            if not self._batch_depth and self._batch_invalid:
                self._batch_invalid = False
                super()._invalidate()

    def _invalidate(self) -> None:
        if self._batch_depth:
            if not self._batch_invalid:
                self._batch_invalid = True
                self._clear_line_cache()
            return
        super()._invalidate()


def tree_invalidate(tree: Tree[Any]) -> None:
    """Tell ``tree`` its nodes changed (what ``TreeNode.add``/``remove`` do; batched in a
    :class:`BatchingTree`)."""
    tree._invalidate()


def tree_children(node: TreeNode[TreeDataType]) -> list[TreeNode[TreeDataType]]:
    """The node's own list of children (``node.children`` is a read-only copy): removing
    from it drops children without a refresh each; call :func:`tree_invalidate` after."""
    return node._children


def tree_node_registry(tree: Tree[TreeDataType]) -> dict[Any, TreeNode[TreeDataType]]:
    """The tree's nodes by id (what ``get_node_by_id`` reads); removed nodes must leave it."""
    return tree._tree_nodes


# -- bindings ---------------------------------------------------------------------------------
def modal_binding_chain(screen: Screen[Any]) -> list[tuple[DOMNode, BindingsMap]]:
    """Textual's binding chain of ``screen`` (keymap applied, keys a focused input takes
    as text left out), from the focused widget up to the app."""
    return screen._modal_binding_chain


def app_keymap(app: App[Any]) -> Mapping[str, str]:
    """The user's keymap (binding id -> keys) the app applies."""
    return app._keymap


def node_bindings(node: DOMNode) -> BindingsMap:
    """The bindings ``node`` declares (before the keymap)."""
    return node._bindings


def check_action_state(app: App[Any], action: str, node: DOMNode) -> bool | None:
    """Whether ``action`` would run from ``node`` now (``check_action``: None = disabled)."""
    return app._check_action_state(action, node)


def footer_bindings_ready(footer: Footer) -> bool:
    """Whether the footer has had the screen's bindings yet (it composes nothing before)."""
    return bool(footer._bindings_ready)


# -- Rich -------------------------------------------------------------------------------------
def style_has_meta(style: Style) -> bool:
    """Whether ``style`` carries meta (cheap: ``Style.meta`` unpickles it each time)."""
    return bool(style._meta)
