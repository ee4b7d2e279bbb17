"""WorkspaceTree: organizations → nested collections → spaces → the page tree, loaded lazily.

Children of organizations, collections and spaces load when the node is first expanded, in
a worker per node (group ``tree-load:<key>``, so two nodes load side by side), following
every page of the list and drawing it as it comes. A node that could not load shows
"⚠ could not load — r to retry".

Reads use ``read="prefer-cache"``: a cached answer is shown at once and the background
refresh (``response_meta(x).refresh``) replaces it when the server has something newer.
:meth:`warm_start` builds the remembered tree from the cache alone (``cache-only``, no
network, the first page of each long list) so it is on screen in the first frame;
:meth:`start_refresh` then reads the rest and refreshes it. Long lists are added to the
tree a chunk at a time, a frame apart; a cursor that waits for a node not drawn yet (a
remembered space far down a long list) moves there when it appears, unless a key or a
click came first.

Every label is inert: server text goes through :func:`~gitbook_tui.tui.text.inert` and is
never parsed as markup (a title like ``[@click=app.quit]`` is shown literally).

The widget is the view: the model is :class:`.state.TreeState` (data and labels in
:mod:`.model`), the loading :class:`.loader.TreeLoader`, the drawing of nodes
:class:`.drawing.TreeDrawer`; the key actions are :class:`.tree_keys.TreeKeys`, the filter
:class:`.tree_filter.TreeFilter`. Keys are re-exported from here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import partial
from typing import ClassVar

from textual import on
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import Tree
from textual.widgets.tree import TreeNode
from textual.worker import Worker

from ....api import APIConnectionError, AsyncGitBook, GitBookError, ReadMode
from ....models import Space
from ...common.failure import describe_failure, load_failure
from ...common.freshness import Freshness
from ...common.text import plain
from .base import BatchedTree
from .drawing import TreeDrawer
from .loader import TreeLoader
from .model import (
    LAZY,
    ROOT,
    NodeData,
    collection_key,
    org_key,
    page_key,
    space_key,
)
from .state import TreeQueries, TreeState
from .tree_filter import TreeFilter
from .tree_keys import TreeKeys

__all__ = [
    "LAZY",
    "ROOT",
    "NodeData",
    "WorkspaceTree",
    "collection_key",
    "org_key",
    "page_key",
    "space_key",
]


class WorkspaceTree(TreeKeys, TreeFilter, TreeQueries, BatchedTree):
    """The workspace as a lazily loaded, filterable tree."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down,j", "cursor_down", "Down", show=False, id="tree.down"),
        Binding("up,k", "cursor_up", "Up", show=False, id="tree.up"),
        Binding("left,h", "collapse", "Collapse", show=False, id="tree.collapse"),
        Binding("right,l", "expand", "Expand", show=False, id="tree.expand"),
        Binding("enter", "open", "Open", id="tree.open"),
        Binding("space,shift+space", "toggle_node", "Toggle", show=False, id="tree.toggle"),
        Binding("shift+left", "cursor_parent", "Parent", show=False, id="tree.parent"),
        Binding(
            "shift+right",
            "cursor_parent_next_sibling",
            "Next of parent",
            show=False,
            id="tree.parent_next",
        ),
        Binding(
            "shift+up",
            "cursor_previous_sibling",
            "Previous sibling",
            show=False,
            id="tree.previous_sibling",
        ),
        Binding(
            "shift+down", "cursor_next_sibling", "Next sibling", show=False, id="tree.next_sibling"
        ),
        # the kit's list motion keys (common/pager.py), on the tree's own actions
        Binding("g,home", "scroll_home", "First", show=False, id="tree.first"),
        Binding("G,end", "scroll_end", "Last", show=False, id="tree.last"),
        Binding("pageup,ctrl+b", "page_up", "Page up", show=False, id="tree.page_up"),
        Binding("pagedown,ctrl+f", "page_down", "Page down", show=False, id="tree.page_down"),
        Binding("ctrl+d", "half_page(1)", "Half page down", show=False, id="tree.half_down"),
        Binding("ctrl+u", "half_page(-1)", "Half page up", show=False, id="tree.half_up"),
        Binding("r", "retry", "Retry", id="tree.retry"),
        Binding("full_stop", "toggle_hidden", "Hidden pages", id="tree.toggle_hidden"),
        Binding("slash", "start_filter", "Filter", id="tree.filter"),
    ]

    # -- messages -------------------------------------------------------------------------
    class PageSelected(Message):
        """A document page was opened (enter, or l on a page); ``focus``: the page takes
        the focus (not when l only unfolded its sub-pages: the tree keeps it)."""

        def __init__(self, space_id: str, page_id: str, path: str, *, focus: bool = True) -> None:
            super().__init__()
            self.space_id = space_id
            self.page_id = page_id
            self.path = path
            self.focus = focus

    class LinkSelected(Message):
        """A link page was chosen; it opens externally only on an explicit key."""

        def __init__(self, url: str) -> None:
            super().__init__()
            self.url = url

    class Loaded(Message):
        """Children of ``key`` were shown: from the ``network`` or the ``cache`` (then
        ``age`` seconds old, ``None`` if unknown; ``offline`` when the server could not
        be reached)."""

        def __init__(
            self, key: str, source: str, *, offline: bool = False, age: float | None = 0.0
        ):
            super().__init__()
            self.key = key
            self.source = source
            self.offline = offline
            self.age = age

        @property
        def freshness(self) -> Freshness:
            """What the status bar shows for this answer."""
            return Freshness.of_answer(self.source, offline=self.offline, age=self.age)

    class LoadFailed(Message):
        """Children of ``key`` (titled ``what``) could not be loaded."""

        def __init__(self, key: str, what: str, error: GitBookError | str) -> None:
            super().__init__()
            self.key = key
            self.what = what
            self.error = error

    class FilterRequested(Message):
        """``/`` asked for the filter input (``text`` is typed into it)."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    # -- setup ----------------------------------------------------------------------------
    def __init__(
        self,
        client: AsyncGitBook,
        *,
        org_id: str | None = None,
        show_hidden: bool = False,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__("Workspace", NodeData(ROOT, "root"), name=name, id=id, classes=classes)
        self.client = client
        self.org_id = org_id
        self.show_root = False
        self.auto_expand = False
        self.state = TreeState(show_hidden=show_hidden)
        self.loader = TreeLoader(
            client,
            self.state,
            org_id=org_id,
            changed=self._render_key,
            loaded=self._post_loaded,
            failed=self._failed,
        )
        self.drawer = TreeDrawer(self, self.state, ensure_loading=self._ensure_loading)
        self._deferred_keys: set[str] | None = None
        self.context_space: str | None = None  # the space of the page open beside the tree
        self._unreachable: set[str] = set()  # keys whose load failed: server not reached
        self._reload_due = False
        self._unwatch_answers: Callable[[], None] | None = None
        self.filtering = False  # the filter box is open (keys typed meanwhile go to it)

    # -- nodes (the model's queries come from TreeQueries) --------------------------------------
    @property
    def _key_nodes(self) -> dict[str, TreeNode[NodeData]]:
        return self.drawer.nodes

    def _node_for(self, key: str) -> TreeNode[NodeData] | None:
        return self.drawer.node_for(key)

    # -- loading ------------------------------------------------------------------------------
    def load(self, key: str, *, read: ReadMode = "prefer-cache") -> Worker[None] | None:
        """(Re)load the children of ``key`` in a worker of its own (None: not loadable)."""
        data = self.state.info.get(key)
        if data is None or data.kind not in LAZY:
            return None
        self.loader.in_flight.add(key)
        return self.run_worker(
            partial(self.loader.load, key, read),  # a callable: nothing to leak if cancelled
            name=f"load {key}",
            group=f"tree-load:{key}",
            exclusive=True,
            exit_on_error=False,
        )

    def _ensure_loading(self, key: str) -> None:
        state = self.state
        if state.is_loaded(key) or key in self.loader.in_flight or key in state.failures:
            return
        if self._deferred_keys is not None:
            self._deferred_keys.add(key)
            return
        self.load(key)

    def _post_loaded(
        self, key: str, source: str, *, offline: bool = False, age: float | None = 0.0
    ) -> None:
        self.post_message(self.Loaded(key, source, offline=offline, age=age))

    def _failed(self, key: str, exc: Exception) -> None:
        self._render_key(key)
        what = self.title_of(key) or "the workspace"
        reason = self.state.failures.get(key) or describe_failure(exc)
        if isinstance(exc, APIConnectionError):
            self._unreachable.add(key)  # reloaded by itself once the server answers again
        self.notify(
            plain(f"{load_failure(what, exc, self.client.base_url)} (r to retry)"),
            title="Load failed",
            severity="error",
            markup=False,
        )
        # (a bug is passed on as its description: the banner shows the client's errors as is)
        self.post_message(
            self.LoadFailed(key, what, exc if isinstance(exc, GitBookError) else reason)
        )
        if isinstance(exc, APIConnectionError):
            self.post_message(self.Loaded(key, "cache", offline=True, age=None))

    # -- back online ----------------------------------------------------------------------------
    def on_mount(self) -> None:
        # the client's answers (any request of any view): the server is back, no polling
        self._unwatch_answers = self.client.watch_answers(self._server_answered)
        self.app.theme_changed_signal.subscribe(self, self.recolour_errors)

    def on_unmount(self) -> None:
        if self._unwatch_answers is not None:
            self._unwatch_answers()
            self._unwatch_answers = None

    def _server_answered(self) -> None:
        """A request succeeded: reload (once, on the tree's turn) every branch that failed
        because the server could not be reached. Cheap when there is none."""
        if self._reload_due or not self._unreachable:
            return
        self._reload_due = True
        self.call_later(self._reload_unreachable)

    def _reload_unreachable(self) -> None:
        self._reload_due = False
        keys = [k for k in self._unreachable if k in self.state.failures]
        self._unreachable.clear()
        for key in keys:
            self.retry_key(key)  # (failing again while offline marks it again)

    async def ensure_loaded(self, key: str, *, read: ReadMode = "prefer-cache") -> bool:
        """Load ``key``'s children now if they are not known yet (for :meth:`reveal`)."""
        return await self.loader.ensure_loaded(key, read=read)

    # -- warm start -------------------------------------------------------------------------
    async def warm_start(self, expanded: Iterable[str], selected: str | None) -> None:
        """Build the remembered tree from the cache only (the first page of each long
        list): no request leaves before the first frame. Loads are deferred until
        :meth:`start_refresh`; a ``selected`` node not drawn yet is selected when it is."""
        self.state.open_keys = {ROOT, *expanded}
        self._deferred_keys = set()
        await self.loader.read_cached()
        self._rebuild()
        if selected is not None:
            self.select_key(selected)
        if self.cursor_line < 0 and self.root.children:
            self.cursor_line = 0

    def start_refresh(self) -> None:
        """Refresh what the warm start showed, read the rest of the lists it read in part
        and load what it could not (in workers)."""
        state = self.state
        deferred = self._deferred_keys or set()
        self._deferred_keys = None
        for key in [k for k in state.walk_keys() if k in state.kids]:
            if key == ROOT or key in state.open_keys or key in state.partial:
                self.load(key)
        for key in deferred:
            self._ensure_loading(key)
        if ROOT not in state.kids:
            self._ensure_loading(ROOT)

    # -- comment counts -------------------------------------------------------------------------
    def comment_count(self, data: NodeData) -> int | None:
        """Open threads on a row: a space's from the API, a page's counted from its space's
        open threads once they were read (:meth:`show_comment_counts`)."""
        if data.kind == "page":
            pages = self.state.page_comments.get(data.space_id)
            return None if pages is None else pages.get(data.id, 0)
        return data.comments

    def show_comment_counts(
        self, space_id: str, *, space: int | None = None, pages: Mapping[str, int] | None = None
    ) -> None:
        """Show newer counts of open threads: the space's (the API's ``comments``) and its
        pages' (page id → count); only the rows whose count changed are drawn again."""
        key = space_key(space_id)
        data = self.state.info.get(key)
        if space is not None and data is not None and data.comments != space:
            data.comments = space
            node = self._node_for(key)
            if node is not None:
                if node.data is not None:
                    node.data.comments = space  # (an equal copy the drawer kept)
                node.refresh()
        if pages is not None:
            old = self.state.page_comments.get(space_id) or {}
            self.state.page_comments[space_id] = pages
            for page_id in old.keys() | pages.keys():
                if old.get(page_id) != pages.get(page_id):
                    node = self._node_for(page_key(space_id, page_id))
                    if node is not None:
                        node.refresh()

    # -- drawing --------------------------------------------------------------------------------
    def _rebuild(self) -> None:
        self.drawer.rebuild()

    def _render_key(self, key: str) -> None:
        """Show the current model of ``key``'s children on its node (if it is on screen)."""
        self.drawer.render_key(key)

    def select_key(self, key: str, *, expand: bool = True) -> bool:
        """Move the cursor to ``key`` (its loaded ancestors expanded first when ``expand``);
        a node not drawn yet is selected when it is (unless a key or a click comes first)."""
        return self.drawer.select(key, expand=expand)

    # -- expansion events ----------------------------------------------------------------------
    @on(Tree.NodeExpanded)
    def _node_expanded(self, event: Tree.NodeExpanded[NodeData]) -> None:
        node = event.node
        data = node.data
        if data is None or event.control is not self:
            return
        state = self.state
        if not state.filter_text:
            state.open_keys.add(data.key)
        if data.key in state.failures:
            return
        if not node.children:
            self.drawer.fill(node)  # (a "loading…" line and a load when not loaded)
        elif data.key not in state.kids:
            self._ensure_loading(data.key)

    @on(Tree.NodeCollapsed)
    def _node_collapsed(self, event: Tree.NodeCollapsed[NodeData]) -> None:
        data = event.node.data
        if data is not None and event.control is self and not self.state.filter_text:
            self.state.open_keys.discard(data.key)

    # -- reveal ----------------------------------------------------------------------------------
    async def reveal(self, space: Space, page_id: str | None = None) -> bool:
        """Load the chain org → collections → space (→ page) and put the cursor on it."""
        target = await self.loader.reveal(space, page_id)
        if target is None:
            return False
        self._rebuild()
        return self.select_key(target)
