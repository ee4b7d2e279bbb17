"""Drawing the workspace model on the Textual ``Tree``, a chunk of nodes at a time, and
keeping the cursor where it belongs while nodes come and go.

:class:`TreeDrawer` makes a node's children on screen match :class:`~.state.TreeState`:
children already drawn for the same data are kept (a list that grew is only appended to),
the others are removed, and the missing ones are added a chunk per turn (at least
:data:`CHUNK` nodes, more while :data:`CHUNK_SECONDS` have not passed), depth first, so
the lines nearest the top come first. What is left waits for the next frame
(``call_after_refresh``): an organization of 10,000 spaces shows its first spaces at once
and stays responsive while the rest is added. (Every chunk makes the Tree lay out all its
lines again, so chunks are as large as the time allows.)

The cursor: after a redraw it goes back to the node it was on. A node asked for that is not
drawn yet (a remembered space far down a long list) is *pending*: the cursor waits on its
nearest drawn ancestor and moves to it once it is drawn, unless the widget dropped the
wish first (a key or a click: the user moved on).

Nodes are removed by cutting the parent's child list, around Textual's API (textual is
pinned): ``TreeNode.remove`` looks each node up in its parent's list, quadratic for
thousands. Node changes are batched (:meth:`.BatchedTree.batch_nodes`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from textual.widgets.tree import TreeNode, UnknownNodeID

from ...textual_compat import tree_children, tree_invalidate, tree_node_registry
from .base import BatchedTree
from .model import ROOT, NodeData, label_text
from .state import TreeState

__all__ = ["CHUNK", "CHUNK_SECONDS", "TreeDrawer"]

CHUNK = 500
"""Nodes added to the tree per turn at least (a frame is drawn between two turns)."""
CHUNK_SECONDS = 0.03
"""More nodes are added in the same turn while this time has not passed."""


@dataclass(eq=False)
class _Task:
    """Children of ``node`` still to add, from ``index`` on."""

    node: TreeNode[NodeData]
    items: list[NodeData]
    index: int


class TreeDrawer:
    """Keeps the nodes of a tree (and its cursor) in step with its state."""

    def __init__(
        self, tree: BatchedTree, state: TreeState, *, ensure_loading: Callable[[str], None]
    ) -> None:
        self.tree = tree
        self.state = state
        self.nodes: dict[str, TreeNode[NodeData]] = {}
        self.pending_cursor: str | None = None  # a key the cursor goes to once drawn
        self._ensure_loading = ensure_loading
        self._tasks: list[_Task] = []  # a stack: the top is drawn first
        self._task_of: dict[str, _Task] = {}  # the live task of a key
        self._scheduled = False
        self._running = False

    @property
    def drawing(self) -> bool:
        """Some children are still waiting to be added."""
        return any(self._task_of.get(_key(t.node)) is t for t in self._tasks)

    def node_for(self, key: str) -> TreeNode[NodeData] | None:
        tree = self.tree
        if key == ROOT:
            return tree.root
        node = self.nodes.get(key)
        if node is None:
            return None
        try:
            return node if tree.get_node_by_id(node.id) is node else None
        except UnknownNodeID:
            return None

    # -- redrawing -------------------------------------------------------------------------------
    def rebuild(self) -> None:
        """Draw the whole tree again (after a filter or hidden-pages change)."""
        tree = self.tree
        node = tree.cursor_node
        cursor = tree.selected_key or (
            node.data.id if node and node.data and node.data.kind == "status" else None
        )
        tree.clear()
        self.nodes = {}
        self._tasks = []
        self._task_of = {}
        if self.state.filter_text:
            self.state.compute_filter()
        self.fill(tree.root)
        self._restore_cursor(cursor)

    def render_key(self, key: str) -> None:
        """Show the current model of ``key``'s children on its node (if it is on screen)."""
        if key == ROOT or self.state.filter_text:
            self.rebuild()
            return
        node = self.node_for(key)
        if node is None:
            return
        data = self.state.info.get(key)
        if data is not None:
            if node.data != data:
                node.data = data
                node.set_label(self.tree.label_for(data))
            node.allow_expand = self.state.expandable(data)
        cursor = self.tree.selected_key
        if node.is_expanded:
            self.fill(node)
        else:
            self.empty(node)
        self._restore_cursor(cursor)

    # -- the cursor -------------------------------------------------------------------------------
    def select(self, key: str, *, expand: bool = True) -> bool:
        """Move the cursor to ``key`` (its loaded ancestors expanded first when ``expand``);
        a node not drawn yet becomes the pending cursor."""
        state = self.state
        if expand and key in state.info:
            ancestors = [d.key for d in state.trail(key)[:-1]]
            missing = [k for k in ancestors if k not in state.open_keys]
            if missing and not state.filter_text:
                state.open_keys.update(missing)
                self.rebuild()
        found = self._place(key)
        self.pending_cursor = None if found else key
        return found

    def _place(self, key: str) -> bool:
        """Put the cursor on ``key``'s node, or else its nearest drawn ancestor; True when
        it is on ``key``."""
        node = self.node_for(key)
        current: str | None = key
        while node is None and current is not None:
            current = self.state.up.get(current)
            node = self.node_for(current) if current and current != ROOT else None
        if node is None:
            return False
        _ = self.tree.last_line  # lay out the lines so the node knows where it is
        self.tree.move_cursor(node)
        return current == key

    def _restore_cursor(self, cursor: str | None) -> None:
        """After a redraw: the cursor on the pending node if it is drawn now, else back on
        ``cursor`` (pending if its node is not drawn yet)."""
        if self._settle():
            return
        if cursor is None:
            return
        node = self.tree.cursor_node
        if node is not None and self.node_for(cursor) is node:
            return  # its node was kept: the cursor stays on it
        if not self._place(cursor) and self.pending_cursor is None:
            self.pending_cursor = cursor

    def _settle(self) -> bool:
        """The cursor onto the pending node if that is drawn now."""
        pending = self.pending_cursor
        if pending is None or self.node_for(pending) is None:
            return False
        self.pending_cursor = None
        self._place(pending)
        return True

    # -- drawing --------------------------------------------------------------------------------

    def fill(self, node: TreeNode[NodeData]) -> None:
        """Show ``node``'s children as the state has them (the first chunk now)."""
        self._sync(node)
        self._run()

    def empty(self, node: TreeNode[NodeData]) -> None:
        """Remove ``node``'s children (a collapsed node is filled when it is expanded)."""
        self._task_of.pop(_key(node), None)
        with self.tree.batch_nodes():
            self._drop(node, 0)

    def _sync(self, node: TreeNode[NodeData]) -> None:
        key = _key(node)
        self._task_of.pop(key, None)  # a task still adding children for it is void
        state = self.state
        if key in state.failures:
            self._status(node, key, "error")
            return
        shown = state.shown_children(key)
        if shown is None:
            self._status(node, key, "loading")
            self._ensure_loading(key)
            return
        if not shown:
            if state.filter_text:
                self._drop(node, 0)
            else:
                self._status(node, key, "empty")
            return
        existing = node.children
        keep, limit = 0, min(len(existing), len(shown))
        while keep < limit and _same(existing[keep], shown[keep], state):
            keep += 1
        with self.tree.batch_nodes():
            self._drop(node, keep)
            for child in existing[:keep]:
                data = child.data
                assert data is not None
                expandable = state.expandable(data)
                if child.allow_expand != expandable:
                    child.allow_expand = expandable
                if child.is_expanded:
                    self._sync(child)
                elif child.children:
                    self._drop(child, 0)
        if keep < len(shown):
            task = _Task(node, shown, keep)
            self._tasks.append(task)
            self._task_of[key] = task

    def _status(self, node: TreeNode[NodeData], parent_key: str, status: str) -> None:
        data = NodeData(f"status:{parent_key}", "status", id=parent_key, status=status)
        with self.tree.batch_nodes():
            self._drop(node, 0)
            node.add_leaf(self.tree.label_for(data), data)

    def _drop(self, node: TreeNode[NodeData], keep: int) -> None:
        """Remove the children of ``node`` after the first ``keep`` (and what is below)."""
        children = tree_children(node)
        doomed = children[keep:]
        if not doomed:
            return
        del children[keep:]
        registry = tree_node_registry(self.tree)
        nodes, tasks = self.nodes, self._task_of
        while doomed:
            gone = doomed.pop()
            registry.pop(gone.id, None)
            data = gone.data
            if data is not None and nodes.get(data.key) is gone:
                del nodes[data.key]
                tasks.pop(data.key, None)
            doomed.extend(tree_children(gone))
        tree_invalidate(self.tree)

    def _run(self) -> None:
        """Add a chunk of the waiting children; the rest after the next frame."""
        if self._running:
            return  # filling a node while its parent is drawn: the loop below takes it
        self._running = True
        tree, state = self.tree, self.state
        budget = CHUNK
        deadline = time.perf_counter() + CHUNK_SECONDS
        try:
            with tree.batch_nodes():
                while self._tasks:
                    if budget <= 0:
                        if time.perf_counter() > deadline:
                            break
                        budget = 100  # (the clock is read every hundred nodes)
                    task = self._tasks[-1]
                    key = _key(task.node)
                    if self._task_of.get(key) is not task or task.index >= len(task.items):
                        self._tasks.pop()
                        if self._task_of.get(key) is task:
                            del self._task_of[key]
                        continue
                    data = task.items[task.index]
                    task.index += 1
                    budget -= 1
                    added = task.node.add(
                        label_text(data),
                        data,
                        expand=state.wants_expanded(data),
                        allow_expand=state.expandable(data),
                    )
                    self.nodes[data.key] = added
                    if added.is_expanded:
                        self._sync(added)  # on top of the stack: drawn before the siblings
        finally:
            self._running = False
        if self._tasks and not self._scheduled:
            self._scheduled = True
            tree.call_after_refresh(self._resume)

    def _resume(self) -> None:
        self._scheduled = False
        self._run()
        self._settle()  # (a redraw asked for restores the cursor itself)


def _same(node: TreeNode[NodeData], data: NodeData, state: TreeState) -> bool:
    """``node`` shows ``data`` as the state would draw it (so it can be kept)."""
    same = node.data is data or node.data == data
    return same and node.is_expanded == state.wants_expanded(data)


def _key(node: TreeNode[NodeData]) -> str:
    data = node.data
    assert data is not None
    return data.key
