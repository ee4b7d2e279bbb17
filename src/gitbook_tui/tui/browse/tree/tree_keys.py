"""TreeKeys: what the workspace tree's keys do — open, unfold, fold, retry, hidden pages,
and ``/`` (the only key that starts the filter: other letters are commands or nothing).

A mixin for :class:`.workspace_tree.WorkspaceTree`, which declares the bindings and the
messages these actions post.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Protocol

from textual import events
from textual.message import Message
from textual.worker import Worker

from ....api import ReadMode
from .base import BatchedTree
from .drawing import TreeDrawer
from .model import LAZY, space_key
from .state import TreeQueries

__all__ = ["TreeKeys"]


class _PageSelected(Protocol):
    def __call__(
        self, space_id: str, page_id: str, path: str, *, focus: bool = True
    ) -> Message: ...


class _TextMessage(Protocol):
    def __call__(self, text: str, /) -> Message: ...


class TreeKeys(TreeQueries, BatchedTree):
    """The workspace tree's key actions (see the module)."""

    drawer: TreeDrawer
    filtering: bool

    if TYPE_CHECKING:  # the widget's messages and loading
        # (WorkspaceTree's own message classes: typed by what builds them, not imported)
        PageSelected: ClassVar[_PageSelected]
        LinkSelected: ClassVar[_TextMessage]
        FilterRequested: ClassVar[_TextMessage]

        def load(self, key: str, *, read: ReadMode = "prefer-cache") -> Worker[None] | None: ...
        def _render_key(self, key: str) -> None: ...
        def set_show_hidden(self, show: bool) -> None: ...

    def on_key(self, event: events.Key) -> None:
        """Only ``/`` starts a filter: other letters are commands or nothing. A key typed
        while the filter box is opening (focus moves a moment later) goes to the box."""
        self.drawer.pending_cursor = None  # the user moves the cursor now
        if not self.filtering:
            return
        char = event.character
        if not char or not event.is_printable:
            return
        event.stop()
        event.prevent_default()
        self.post_message(self.FilterRequested(char))

    def on_mouse_down(self, _: events.MouseDown) -> None:
        self.drawer.pending_cursor = None

    def action_half_page(self, step: int) -> None:
        """``ctrl+d``/``ctrl+u``: the cursor half a screen down or up (the kit's lists)."""
        if self.last_line < 0:
            return
        half = max(1, self.scrollable_content_region.height // 2)
        line = max(0, self.cursor_line) + step * half
        self.cursor_line = max(0, min(self.last_line, line))
        self.scroll_to_line(self.cursor_line)

    def action_open(self) -> None:
        node = self.cursor_node
        data = self._cursor_data()
        if node is None or data is None:
            return
        if data.kind == "page":
            self.post_message(self.PageSelected(data.space_id, data.id, data.path))
        elif data.kind == "link":
            self.post_message(self.LinkSelected(data.url))
        elif data.kind == "status":
            if data.status == "error":
                self.action_retry()
        elif node.allow_expand:
            node.toggle()

    def action_expand(self) -> None:
        node = self.cursor_node
        data = self._cursor_data()
        if node is None or data is None:
            return
        if data.kind == "page":
            unfold = node.allow_expand and not node.is_expanded
            if unfold:
                node.expand()
            self.post_message(
                self.PageSelected(data.space_id, data.id, data.path, focus=not unfold)
            )
        elif node.allow_expand and not node.is_expanded:
            node.expand()
        elif node.is_expanded and node.children:
            self.move_cursor(node.children[0])

    def action_collapse(self) -> None:
        node = self.cursor_node
        if node is None:
            return
        if node.allow_expand and node.is_expanded:
            node.collapse()
        elif node.parent is not None and not node.parent.is_root:
            self.move_cursor(node.parent)

    def action_retry(self) -> None:
        """Retry every branch that failed to load (saying how many), and reload the
        focused node's children from the server."""
        data = self._cursor_data()
        retried = self.retry_failed()
        if data is None:
            return
        state = self.state
        if data.kind == "status":
            key = data.id
        elif data.key in state.failures or data.kind in LAZY:
            key = data.key
        else:
            key = space_key(data.space_id)
        if key not in retried:
            self.retry_key(key)

    def retry_failed(self) -> list[str]:
        """Load again every branch whose load failed; say so ("Retrying 2 branches…")."""
        state = self.state
        keys = [key for key in state.failures if key in state.info]
        if len(keys) == 1:
            self.notify(f"Retrying {self.title_of(keys[0]) or 'the workspace'}…", markup=False)
        elif keys:
            self.notify(f"Retrying {len(keys)} branches…", markup=False)
        for key in keys:
            self.retry_key(key)
        return keys

    def retry_key(self, key: str) -> None:
        """Load ``key``'s children again from the server (after a failure: "loading…"
        in place of the error meanwhile)."""
        state = self.state
        if key not in state.info:
            return
        had_error = state.failures.pop(key, None) is not None
        self.load(key, read="network")
        if had_error:
            self._render_key(key)

    def action_toggle_hidden(self) -> None:
        self.set_show_hidden(not self.show_hidden)
        self.notify("Hidden pages shown" if self.show_hidden else "Hidden pages hidden")

    def action_start_filter(self) -> None:
        # at once: keys typed before the box has the focus go to it (see on_key)
        self.filtering = True
        self.post_message(self.FilterRequested(""))
