"""WorkspaceTree: organizations → nested collections → spaces → the page tree, loaded lazily.

Children of organizations, collections and spaces load when the node is first expanded, in
a worker per node (group ``tree-load:<key>``, so two nodes load side by side), following
every page of the list. A node that could not load shows "⚠ could not load — r to retry".

Reads use ``read="prefer-cache"``: a cached answer is shown at once and the background
refresh (``response_meta(x).refresh``) replaces it when the server has something newer.
:meth:`warm_start` builds the remembered tree from the cache alone (``cache-only``, no
network) so it is on screen in the first frame; :meth:`start_refresh` then refreshes it.

Every label is inert: server text goes through :func:`~gitbook_tui.tui.text.inert` and is
never parsed as markup (a title like ``[@click=app.quit]`` is shown literally).

The node data, labels and filtering live in :mod:`..tree_model`, the loading of children
in :mod:`..tree_loading`; this module holds the widget (keys are re-exported from here).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from functools import partial
from typing import ClassVar

from rich.text import Text, TextType
from textual import events, on
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.message import Message
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from ...api import APIConnectionError, AsyncGitBook, GitBookError, ReadMode
from ...markdown.sanitize import clean_text
from ...models import Space
from ..text import inert
from ..tree_loading import Loaded as LoadedChildren
from ..tree_loading import fetch_children
from ..tree_model import (
    LAZY,
    ROOT,
    NodeData,
    clean_title,
    collection_key,
    filter_sets,
    label_for,
    org_key,
    page_key,
    space_key,
    subtree,
    to_text,
    walk_keys,
)

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


class WorkspaceTree(Tree[NodeData]):
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
        Binding("home", "scroll_home", "First", show=False, id="tree.first"),
        Binding("end", "scroll_end", "Last", show=False, id="tree.last"),
        Binding("pageup", "page_up", "Page up", show=False, id="tree.page_up"),
        Binding("pagedown", "page_down", "Page down", show=False, id="tree.page_down"),
        Binding("r", "retry", "Retry", id="tree.retry"),
        Binding("full_stop", "toggle_hidden", "Hidden pages", id="tree.toggle_hidden"),
        Binding("slash", "start_filter", "Filter", id="tree.filter"),
    ]

    # -- messages -------------------------------------------------------------------------
    class PageSelected(Message):
        """A document page was opened (enter, or l on a page)."""

        def __init__(self, space_id: str, page_id: str, path: str) -> None:
            super().__init__()
            self.space_id = space_id
            self.page_id = page_id
            self.path = path

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

    class FilterRequested(Message):
        """A printable key (or ``/``) asked for the filter input, starting with ``text``."""

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
        self.show_hidden = show_hidden
        self._kids: dict[str, list[NodeData]] = {}
        self._info: dict[str, NodeData] = {ROOT: NodeData(ROOT, "root")}
        self._up: dict[str, str] = {}
        self._subcolls: dict[str, list[NodeData]] = {}
        self._coll_up: dict[str, str | None] = {}
        self._failures: dict[str, str] = {}
        self._in_flight: set[str] = set()
        # fetches under way, per key: a second caller (reveal while a worker loads the
        # same node) awaits the first instead of asking the server again
        self._fetches: dict[tuple[str, ReadMode], asyncio.Future[LoadedChildren | None]] = {}
        self._open_keys: set[str] = {ROOT}
        self._key_nodes: dict[str, TreeNode[NodeData]] = {}
        self._filter_text = ""
        self._filter_show: set[str] = set()
        self._filter_open: set[str] = set()
        self._deferred_keys: set[str] | None = None

    # -- public state -------------------------------------------------------------------------
    @property
    def filter_text(self) -> str:
        return self._filter_text

    @property
    def expanded_keys(self) -> list[str]:
        """Expanded node keys, parents first (what the UI state remembers)."""
        order = {key: i for i, key in enumerate(self._walk_keys())}
        return sorted(self._open_keys, key=lambda k: order.get(k, len(order)))

    @property
    def selected_key(self) -> str | None:
        node = self.cursor_node
        if node is None or node.data is None or node.data.kind == "status":
            return None
        return node.data.key

    def node_data(self, key: str) -> NodeData | None:
        return self._info.get(key)

    def is_loaded(self, key: str) -> bool:
        return key in self._kids

    def error_of(self, key: str) -> str | None:
        return self._failures.get(key)

    def trail(self, key: str) -> list[NodeData]:
        """``key``'s node and its ancestors, outermost first (without the root)."""
        result: list[NodeData] = []
        seen: set[str] = set()
        current: str | None = key
        while current and current != ROOT and current not in seen:
            seen.add(current)
            data = self._info.get(current)
            if data is None:
                break
            result.append(data)
            current = self._up.get(current)
        return list(reversed(result))

    def title_of(self, key: str) -> str:
        data = self._info.get(key)
        return data.title if data else ""

    def space_pages(self, space_id: str) -> list[NodeData]:
        """Every page node of a loaded space, depth first."""
        return subtree(self._kids, space_key(space_id))

    def _find_page(self, space_id: str, attribute: str, value: str) -> NodeData | None:
        """The first page of the space whose ``attribute`` is ``value`` (slashes trimmed)."""
        wanted = value.strip("/")
        for page in self.space_pages(space_id):
            if page.kind == "page" and getattr(page, attribute) == wanted:
                return page
        return None

    def page_at_path(self, space_id: str, path: str) -> NodeData | None:
        return self._find_page(space_id, "path", path)

    def page_at_git_path(self, space_id: str, git_path: str) -> NodeData | None:
        # an empty git path names no file
        return self._find_page(space_id, "git_path", git_path) if git_path.strip("/") else None

    def first_document(self, space_id: str) -> NodeData | None:
        return next((p for p in self.space_pages(space_id) if p.kind == "page"), None)

    # -- labels -----------------------------------------------------------------------------
    def process_label(self, label: TextType | Content) -> Text:  # type: ignore[override]
        """Labels are inert: Content is copied, a plain ``str`` is literal text (no markup)."""
        if isinstance(label, Content):
            text = to_text(label)
        elif isinstance(label, Text):
            text = label
        else:
            text = Text(clean_text(str(label)), no_wrap=True, end="")
        lines = text.split()
        return lines[0] if lines else text

    def label_for(self, data: NodeData) -> Content:
        return label_for(data)

    # -- model -----------------------------------------------------------------------------
    def _walk_keys(self) -> Iterable[str]:
        return walk_keys(self._kids)

    def _apply(self, key: str, loaded: LoadedChildren) -> bool:
        """Store what was loaded; True when anything differs from what was known."""
        changed = False
        if loaded.subcollections is not None:
            for coll, subs in loaded.subcollections.items():
                if self._subcolls.get(coll) != subs:
                    changed = True
                self._subcolls[coll] = subs
                for sub in subs:
                    self._up[sub.key] = coll
                    self._info[sub.key] = sub
                # a loaded collection keeps its spaces but takes the new sub-collections
                if coll in self._kids and coll not in loaded.children:
                    spaces = [c for c in self._kids[coll] if c.kind == "space"]
                    loaded.children[coll] = subs + spaces
        if loaded.collection_parents is not None:
            self._coll_up.update(loaded.collection_parents)
        for parent, children in loaded.children.items():
            if self._kids.get(parent) != children:
                changed = True
            self._kids[parent] = children
            lone_org = parent == ROOT and len(children) == 1 and self._open_keys == {ROOT}
            for child in children:
                if child.kind == "group" and child.key not in self._info:
                    self._open_keys.add(child.key)  # groups start open, as in GitBook
                elif lone_org:
                    self._open_keys.add(child.key)  # nothing remembered: open the only org
                self._up[child.key] = parent
                self._info[child.key] = child
        if key in self._failures:
            del self._failures[key]
            changed = True
        return changed

    async def _fetch(self, data: NodeData, read: ReadMode) -> LoadedChildren:
        """Load the children of ``data`` (raises GitBookError / CacheMissError)."""
        return await fetch_children(
            self.client, data, read, org_id=self.org_id, subcollections=self._subcolls
        )

    async def _fetch_or_fail(
        self, key: str, data: NodeData, read: ReadMode
    ) -> LoadedChildren | None:
        """:meth:`_fetch`, or None after showing the failure on ``key``."""
        try:
            return await self._fetch(data, read)
        except GitBookError as exc:
            self._failed(key, exc)
            return None

    async def _fetch_shared(
        self, key: str, data: NodeData, read: ReadMode
    ) -> LoadedChildren | None:
        """:meth:`_fetch_or_fail`, shared with a fetch of ``key`` already under way."""
        slot = (key, read)
        pending = self._fetches.get(slot)
        if pending is None:
            pending = asyncio.ensure_future(self._fetch_or_fail(key, data, read))
            self._fetches[slot] = pending

            def done(future: asyncio.Future[LoadedChildren | None]) -> None:
                if self._fetches.get(slot) is future:
                    del self._fetches[slot]
                if not future.cancelled():
                    future.exception()  # retrieved: never "exception was never retrieved"

            pending.add_done_callback(done)
        # shielded: a cancelled caller (an exclusive worker replaced) leaves it to the others
        return await asyncio.shield(pending)

    # -- loading ------------------------------------------------------------------------------
    def load(self, key: str, *, read: ReadMode = "prefer-cache") -> None:
        """(Re)load the children of ``key`` in a worker of its own."""
        data = self._info.get(key)
        if data is None or data.kind not in LAZY:
            return
        self._in_flight.add(key)
        self.run_worker(
            partial(self._load, key, read),  # a callable: nothing to leak if cancelled early
            name=f"load {key}",
            group=f"tree-load:{key}",
            exclusive=True,
            exit_on_error=False,
        )

    def _ensure_loading(self, key: str) -> None:
        if key in self._kids or key in self._in_flight or key in self._failures:
            return
        if self._deferred_keys is not None:
            self._deferred_keys.add(key)
            return
        self.load(key)

    async def _load(self, key: str, read: ReadMode) -> None:
        data = self._info[key]
        try:
            loaded = await self._fetch_shared(key, data, read)
        finally:
            self._in_flight.discard(key)
        if loaded is None:
            return
        if self._apply(key, loaded):
            self._render_key(key)
        metas = [m for m in loaded.metas if m is not None]
        cached = [m for m in metas if m.source == "cache"]
        if cached:
            age = max(m.age for m in cached)
            self.post_message(
                self.Loaded(key, "cache", offline=any(m.offline for m in cached), age=age)
            )
        else:
            self.post_message(self.Loaded(key, "network"))
        refreshes = [m.refresh for m in metas if m.refresh is not None]
        if not refreshes:
            return
        results = await asyncio.gather(*refreshes, return_exceptions=True)
        failures = [r for r in results if isinstance(r, BaseException)]
        if any(isinstance(f, APIConnectionError) for f in failures):
            age = max((m.age for m in cached), default=0.0)
            self.post_message(self.Loaded(key, "cache", offline=True, age=age))
            return
        if failures or any(r is not None for r in results):
            # something changed (or went away) on the server: read it again, fresh
            loaded = await self._fetch_or_fail(key, data, "network")
            if loaded is None:
                return
            if self._apply(key, loaded):
                self._render_key(key)
        self.post_message(self.Loaded(key, "network"))

    def _failed(self, key: str, exc: GitBookError) -> None:
        self._failures[key] = clean_title(str(exc))
        self._render_key(key)
        what = self.title_of(key) or "the workspace"
        self.notify(inert(f"Could not load {what}: {exc}"), title="Load failed", severity="error")
        if isinstance(exc, APIConnectionError):
            self.post_message(self.Loaded(key, "cache", offline=True, age=None))

    async def ensure_loaded(self, key: str, *, read: ReadMode = "prefer-cache") -> bool:
        """Load ``key``'s children now if they are not known yet (for :meth:`reveal`)."""
        if key in self._kids:
            return True
        data = self._info.get(key)
        if data is None or data.kind not in LAZY:
            return False
        loaded = await self._fetch_shared(key, data, read)
        if loaded is None:
            return False
        self._apply(key, loaded)
        return True

    # -- warm start -------------------------------------------------------------------------
    async def warm_start(self, expanded: Iterable[str], selected: str | None) -> None:
        """Build the remembered tree from the cache only: no request leaves before the
        first frame. Loads are deferred until :meth:`start_refresh`."""
        self._open_keys = {ROOT, *expanded}
        self._deferred_keys = set()
        queue = [ROOT]
        while queue:
            key = queue.pop(0)
            data = self._info.get(key)
            if data is None or data.kind not in LAZY:
                continue
            try:
                loaded = await self._fetch(data, "cache-only")
            except GitBookError:
                continue  # not cached (CacheMissError) or unreadable: loaded later
            self._apply(key, loaded)
            queue.extend(
                child.key
                for children in loaded.children.values()
                for child in children
                if child.key in self._open_keys and child.kind in LAZY
            )
        self._rebuild()
        if selected is not None:
            self.select_key(selected)
        elif self.cursor_line < 0 and self.root.children:
            self.cursor_line = 0

    def start_refresh(self) -> None:
        """Refresh what the warm start showed and load what it could not (in workers)."""
        deferred = self._deferred_keys or set()
        self._deferred_keys = None
        for key in [k for k in self._walk_keys() if k in self._kids]:
            if key == ROOT or key in self._open_keys:
                self.load(key)
        for key in deferred:
            self._ensure_loading(key)
        if ROOT not in self._kids:
            self._ensure_loading(ROOT)

    # -- rendering ----------------------------------------------------------------------------
    def _node_for(self, key: str) -> TreeNode[NodeData] | None:
        if key == ROOT:
            return self.root
        node = self._key_nodes.get(key)
        if node is None:
            return None
        try:
            return node if self.get_node_by_id(node.id) is node else None
        except Exception:
            return None

    def _visible(self, data: NodeData) -> bool:
        if data.hidden and not self.show_hidden:
            return False
        if self._filter_text:
            return data.key in self._filter_show
        return True

    def _expandable(self, data: NodeData) -> bool:
        return data.kind in LAZY or bool(self._kids.get(data.key))

    def _wants_expanded(self, data: NodeData) -> bool:
        if not self._expandable(data):
            return False
        if self._filter_text:
            return data.key in self._filter_open
        return data.key in self._open_keys

    def _status_leaf(self, node: TreeNode[NodeData], parent_key: str, status: str) -> None:
        data = NodeData(f"status:{parent_key}", "status", id=parent_key, status=status)
        node.add_leaf(self.label_for(data), data)

    def _fill(self, node: TreeNode[NodeData]) -> None:
        data = node.data
        assert data is not None
        node.remove_children()
        key = data.key
        if key in self._failures:
            self._status_leaf(node, key, "error")
            return
        children = self._kids.get(key)
        if children is None:
            self._status_leaf(node, key, "loading")
            self._ensure_loading(key)
            return
        shown = [c for c in children if self._visible(c)]
        if not shown:
            if not self._filter_text:
                self._status_leaf(node, key, "empty")
            return
        for child in shown:
            expand = self._wants_expanded(child)
            added = node.add(
                self.label_for(child), child, expand=expand, allow_expand=self._expandable(child)
            )
            self._key_nodes[child.key] = added
            if expand:
                self._fill(added)

    def _rebuild(self) -> None:
        cursor = self.selected_key or (
            self.cursor_node.data.id
            if self.cursor_node and self.cursor_node.data and self.cursor_node.data.kind == "status"
            else None
        )
        self.clear()
        self._key_nodes = {}
        if self._filter_text:
            self._compute_filter()
        self._fill(self.root)
        if cursor:
            self.select_key(cursor, expand=False)

    def _render_key(self, key: str) -> None:
        """Show the current model of ``key``'s children on its node (if it is on screen)."""
        if key == ROOT or self._filter_text:
            self._rebuild()
            return
        node = self._node_for(key)
        if node is None:
            return
        data = self._info.get(key)
        if data is not None:
            node.data = data
            node.set_label(self.label_for(data))
            node.allow_expand = self._expandable(data)
        cursor = self.selected_key
        if node.is_expanded:
            self._fill(node)
        else:
            node.remove_children()
        if cursor is not None:
            self.select_key(cursor, expand=False)

    def select_key(self, key: str, *, expand: bool = True) -> bool:
        """Move the cursor to ``key`` (its loaded ancestors expanded first when ``expand``)."""
        if expand and key in self._info:
            ancestors = [d.key for d in self.trail(key)[:-1]]
            missing = [k for k in ancestors if k not in self._open_keys]
            if missing and not self._filter_text:
                self._open_keys.update(missing)
                self._rebuild()
        node = self._node_for(key)
        current: str | None = key
        while node is None and current is not None:
            current = self._up.get(current)
            node = self._node_for(current) if current and current != ROOT else None
        if node is None:
            return False
        _ = self.last_line  # lay out the lines so the node knows where it is
        self.move_cursor(node)
        return current == key

    # -- filter ---------------------------------------------------------------------------------
    def _compute_filter(self) -> None:
        self._filter_show, self._filter_open = filter_sets(
            self._kids, self._filter_text, self.show_hidden
        )

    def set_filter(self, text: str) -> None:
        """Show only loaded nodes whose label contains ``text`` (any case), with ancestors."""
        text = text.strip()
        if text == self._filter_text:
            return
        self._filter_text = text
        self._rebuild()
        if text and self.cursor_line < 0 and self.root.children:
            self.cursor_line = 0

    def set_show_hidden(self, show: bool) -> None:
        if show != self.show_hidden:
            self.show_hidden = show
            self._rebuild()

    # -- expansion events ----------------------------------------------------------------------
    @on(Tree.NodeExpanded)
    def _node_expanded(self, event: Tree.NodeExpanded[NodeData]) -> None:
        node = event.node
        data = node.data
        if data is None or event.control is not self:
            return
        if not self._filter_text:
            self._open_keys.add(data.key)
        if data.key in self._failures:
            return
        if data.key not in self._kids:
            if not node.children:
                self._status_leaf(node, data.key, "loading")
            self._ensure_loading(data.key)
        elif not node.children:
            self._fill(node)

    @on(Tree.NodeCollapsed)
    def _node_collapsed(self, event: Tree.NodeCollapsed[NodeData]) -> None:
        data = event.node.data
        if data is not None and event.control is self and not self._filter_text:
            self._open_keys.discard(data.key)

    # -- keys ----------------------------------------------------------------------------------
    def on_key(self, event: events.Key) -> None:
        """Type to filter: a printable key that is not bound opens the filter with it."""
        char = event.character
        if not char or not event.is_printable or char.isspace():
            return
        if event.key in self.screen.active_bindings:
            return
        event.stop()
        event.prevent_default()
        self.post_message(self.FilterRequested(char))

    def _cursor_data(self) -> NodeData | None:
        node = self.cursor_node
        return node.data if node is not None else None

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
            if node.allow_expand and not node.is_expanded:
                node.expand()
            self.post_message(self.PageSelected(data.space_id, data.id, data.path))
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
        """Retry the focused node's failed load, or reload its children from the server."""
        data = self._cursor_data()
        if data is None:
            return
        if data.kind == "status":
            key = data.id
        elif data.key in self._failures or data.kind in LAZY:
            key = data.key
        else:
            key = space_key(data.space_id)
        if key not in self._info:
            return
        had_error = self._failures.pop(key, None) is not None
        self.load(key, read="network")
        if had_error:
            self._render_key(key)  # "loading…" in place of the error

    def action_toggle_hidden(self) -> None:
        self.set_show_hidden(not self.show_hidden)
        self.notify("Hidden pages shown" if self.show_hidden else "Hidden pages hidden")

    def action_start_filter(self) -> None:
        self.post_message(self.FilterRequested(""))

    # -- reveal ----------------------------------------------------------------------------------
    async def reveal(self, space: Space, page_id: str | None = None) -> bool:
        """Load the chain org → collections → space (→ page) and put the cursor on it."""
        if not await self.ensure_loaded(ROOT):
            return False
        org = org_key(space.organization or "")
        if org not in self._info or not await self.ensure_loaded(org):
            return False
        chain: list[str] = []
        parent = space.parent
        seen: set[str] = set()
        while parent and parent not in seen:
            seen.add(parent)
            chain.insert(0, collection_key(parent))
            parent = self._coll_up.get(parent)
        for key in chain:
            if key not in self._info or not await self.ensure_loaded(key):
                return False
        skey = space_key(space.id)
        if skey not in self._info or not await self.ensure_loaded(skey):
            return False
        target = page_key(space.id, page_id) if page_id else skey
        self._open_keys.update([org, *chain, skey])
        self._open_keys.update(d.key for d in self.trail(target)[:-1])
        self._rebuild()
        return self.select_key(target)
