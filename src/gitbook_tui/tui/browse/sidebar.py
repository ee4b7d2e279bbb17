"""Sidebar: the workspace tree with its filter box (shown while a filter is typed)."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import Input, Static

from ...api import AsyncGitBook
from ..common.error_banner import ErrorBanner, ErrorPane
from ..common.intents import SearchServer
from ..common.navigator import navigator_of
from ..common.text import count_of
from .tree.workspace_tree import WorkspaceTree

__all__ = ["FilterInput", "Sidebar"]


class FilterInput(Input):
    """The tree's filter box: typing is text (``q`` never quits); the arrows and
    ``ctrl+n``/``ctrl+p`` move among the matches, ``enter`` opens the match, ``escape``
    clears the filter."""

    OWNS_CTRL_P: ClassVar[bool] = True
    """The app's palette key (ctrl+p) is this box's "previous match" while it has the focus."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down,ctrl+n", "match(1)", "Next match", id="tree_filter.next"),
        Binding("up,ctrl+p", "match(-1)", "Previous match", id="tree_filter.previous"),
        Binding("enter", "submit", "Open match", id="tree_filter.open"),
        Binding("escape", "cancel", "Clear filter", id="tree_filter.clear"),
    ]

    class Move(Message):
        def __init__(self, step: int) -> None:
            super().__init__()
            self.step = step

    class Cancelled(Message):
        pass

    def action_match(self, step: int) -> None:
        self.post_message(self.Move(step))

    def action_cancel(self) -> None:
        self.post_message(self.Cancelled())


class Sidebar(ErrorPane):
    """``/`` on the tree opens the filter box; ``enter`` opens the match under the cursor
    and leaves the filter (the whole tree again, the match revealed); :meth:`clear_filter`
    closes the box and the filter. A failed load shows in the banner above the tree until
    that node loads (``r`` retries every failed branch, from anywhere in the tree; they
    reload by themselves once the server answers again)."""

    def __init__(
        self,
        client: AsyncGitBook,
        *,
        org_id: str | None,
        show_hidden: bool = False,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self._client = client
        self._failed_key: str | None = None
        # made here and kept (no query): see BrowserScreen
        self._banner = ErrorBanner(id="tree-error")
        self._box = FilterInput(placeholder="filter: ↓↑ move, enter opens", id="tree-filter")
        self._box.select_on_focus = False
        self._box.display = False
        self._note = Static("", id="tree-filter-note", markup=False)
        self._note.display = False
        self._tree = WorkspaceTree(
            client, org_id=org_id, show_hidden=show_hidden, id="workspace-tree"
        )

    def compose(self) -> ComposeResult:
        yield self._banner
        yield self._box
        yield self._note
        yield self._tree

    @property
    def workspace_tree(self) -> WorkspaceTree:
        return self._tree

    @property
    def filter_box(self) -> FilterInput:
        return self._box

    @property
    def filtering(self) -> bool:
        """The filter box is open."""
        return bool(self.filter_box.display)

    def clear_filter(self) -> None:
        """Close the filter box and show the whole tree again."""
        box = self.filter_box
        tree = self.workspace_tree
        tree.filtering = False
        self._note.display = False
        if tree.filter_text or box.display:
            box.value = ""
            box.display = False
            tree.set_filter("")

    @on(WorkspaceTree.LoadFailed)
    def _load_failed(self, event: WorkspaceTree.LoadFailed) -> None:
        event.stop()
        tree = self.workspace_tree
        key = event.key
        self._failed_key = key
        server = self._client.base_url
        # worded as the toast (naming the server); cut with "…" in the banner's rows
        self.banner.show_error(
            f"Could not load {event.what} from {server}",
            event.error,
            server=server,
            retry=tree.retry_failed,
        )

    @on(WorkspaceTree.Loaded)
    def _loaded(self, event: WorkspaceTree.Loaded) -> None:
        # (not stopped: the screen shows its freshness)
        if event.key == self._failed_key and not event.offline:
            self._failed_key = None
            self.banner.clear()
        if self.filtering:
            self._report_filter()

    @on(WorkspaceTree.FilterRequested)
    def _filter_requested(self, event: WorkspaceTree.FilterRequested) -> None:
        event.stop()
        box = self.filter_box
        tree = self.workspace_tree
        if not box.display:
            box.display = True
            tree.filtering = True
            tree.load_filter_scope()
        box.value = box.value + event.text
        box.focus()
        box.cursor_position = len(box.value)

    @on(Input.Changed, "#tree-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.workspace_tree.set_filter(event.value)
        self._report_filter()

    def _report_filter(self) -> None:
        """Under the box: how many pages match and where the filter looked (page titles of
        the spaces whose pages are loaded); with no match, what to do next."""
        tree = self.workspace_tree
        text = tree.filter_text
        note = self._note
        note.display = bool(text)
        if not text:
            return
        loaded, known = tree.filter_reach()
        found = len(tree.filter_matches)
        where = f" in {loaded} of {known} spaces loaded" if loaded < known else ""
        if found:
            note.update(f"{count_of(found, 'match', 'matches')}{where} · enter opens")
        else:
            note.update(f"No title matches “{text}”{where} · enter searches the server")

    @on(FilterInput.Move)
    def _filter_move(self, event: FilterInput.Move) -> None:
        event.stop()
        self.workspace_tree.move_to_match(event.step)

    @on(FilterInput.Cancelled)
    def _filter_cancelled(self, event: FilterInput.Cancelled) -> None:
        event.stop()
        self.clear_filter()
        self.workspace_tree.focus()

    @on(Input.Submitted, "#tree-filter")
    def _filter_submitted(self, event: Input.Submitted) -> None:
        """Open the match under the cursor and leave the filter, the match revealed."""
        event.stop()
        tree = self.workspace_tree
        if tree.filter_text and not tree.filter_matches:  # nothing here: ask the server
            query = tree.filter_text
            self.clear_filter()
            tree.focus()
            nav = navigator_of(self.app)
            if nav is not None:
                nav.navigate(SearchServer(query))
            return
        key = tree.selected_key
        self.clear_filter()
        tree.focus()
        if key is None or not tree.select_key(key):
            return
        node = tree.cursor_node
        data = node.data if node is not None else None
        if data is not None and data.kind in ("page", "link"):
            # from the tree's own turn: a message it posts from inside this handler (sent
            # by its parent) would stop bubbling here, never reaching the screen
            tree.call_later(tree.action_open)  # the page opens (and takes the focus)
        elif node is not None and node.allow_expand and not node.is_expanded:
            node.expand()
