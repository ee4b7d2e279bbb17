"""What the workspace tree knows, apart from any widget: children per node, failures,
expanded keys and the filter.

:class:`TreeState` is a plain model: :mod:`.loading` reads the lists into
:class:`~.loading.Loaded` values, :meth:`TreeState.apply` stores them, and the widget
draws what :meth:`TreeState.shown_children` says. :class:`TreeQueries` is what a
widget built on it answers about the model. A node whose list was read only in part
(the first page of a long listing, as a warm start draws it, or the pages that arrived
so far) is *partial*: its children are shown but it does not count as loaded.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .loading import Loaded
from .model import LAZY, ROOT, NodeData, filter_sets, space_key, subtree, walk_keys

__all__ = ["TreeQueries", "TreeState"]


class TreeState:
    """The loaded workspace: ``kids`` (children per key), ``info`` (every known node),
    ``up`` (parent per key), collections' sub-collections and parents, failures, the
    expanded keys and the filter."""

    def __init__(self, *, show_hidden: bool = False) -> None:
        self.kids: dict[str, list[NodeData]] = {}
        self.info: dict[str, NodeData] = {ROOT: NodeData(ROOT, "root")}
        self.up: dict[str, str] = {}
        self.subcolls: dict[str, list[NodeData]] = {}
        self.coll_up: dict[str, str | None] = {}
        self.failures: dict[str, str] = {}
        self.partial: set[str] = set()
        self.open_keys: set[str] = {ROOT}
        self.show_hidden = show_hidden
        self.filter_text = ""
        self.filter_show: set[str] = set()
        self.filter_open: set[str] = set()
        self.filter_matches: list[str] = []  # the nodes matching the filter, in tree order
        # open comment threads per page id, per space id (spaces whose threads were read)
        self.page_comments: dict[str, Mapping[str, int]] = {}

    # -- queries ------------------------------------------------------------------------------
    def is_loaded(self, key: str) -> bool:
        """Every child of ``key`` is known (not only the first pages of its list)."""
        return key in self.kids and key not in self.partial

    def walk_keys(self) -> Iterable[str]:
        return walk_keys(self.kids)

    def expanded_keys(self) -> list[str]:
        """Expanded node keys, parents first."""
        order = {key: i for i, key in enumerate(self.walk_keys())}
        return sorted(self.open_keys, key=lambda k: order.get(k, len(order)))

    def trail(self, key: str) -> list[NodeData]:
        """``key``'s node and its ancestors, outermost first (without the root)."""
        result: list[NodeData] = []
        seen: set[str] = set()
        current: str | None = key
        while current and current != ROOT and current not in seen:
            seen.add(current)
            data = self.info.get(current)
            if data is None:
                break
            result.append(data)
            current = self.up.get(current)
        return list(reversed(result))

    def title_of(self, key: str) -> str:
        data = self.info.get(key)
        return data.title if data else ""

    def space_pages(self, space_id: str) -> list[NodeData]:
        """Every page node of a loaded space, depth first."""
        return subtree(self.kids, space_key(space_id))

    def find_page(self, space_id: str, attribute: str, value: str) -> NodeData | None:
        """The first page of the space whose ``attribute`` is ``value`` (slashes trimmed)."""
        wanted = value.strip("/")
        for page in self.space_pages(space_id):
            if page.kind == "page" and getattr(page, attribute) == wanted:
                return page
        return None

    def first_document(self, space_id: str) -> NodeData | None:
        return next((p for p in self.space_pages(space_id) if p.kind == "page"), None)

    # -- what is drawn --------------------------------------------------------------------------
    def visible(self, data: NodeData) -> bool:
        if data.hidden and not self.show_hidden:
            return False
        if self.filter_text:
            return data.key in self.filter_show
        return True

    def expandable(self, data: NodeData) -> bool:
        return data.kind in LAZY or bool(self.kids.get(data.key))

    def wants_expanded(self, data: NodeData) -> bool:
        if not self.expandable(data):
            return False
        if self.filter_text:
            return data.key in self.filter_open
        return data.key in self.open_keys

    def shown_children(self, key: str) -> list[NodeData] | None:
        """The children of ``key`` to draw (None: not loaded yet)."""
        children = self.kids.get(key)
        if children is None:
            return None
        return [c for c in children if self.visible(c)]

    def compute_filter(self) -> None:
        self.filter_show, self.filter_open, self.filter_matches = filter_sets(
            self.kids, self.filter_text, self.show_hidden
        )

    # -- storing what was loaded ------------------------------------------------------------------
    def apply(self, key: str, loaded: Loaded) -> bool:
        """Store what was loaded; True when anything differs from what was known."""
        changed = False
        if loaded.subcollections is not None:
            for coll, subs in loaded.subcollections.items():
                if self.subcolls.get(coll) != subs:
                    changed = True
                self.subcolls[coll] = subs
                for sub in subs:
                    self.up[sub.key] = coll
                    self.info[sub.key] = sub
                # a loaded collection keeps its spaces but takes the new sub-collections
                if coll in self.kids and coll not in loaded.children:
                    spaces = [c for c in self.kids[coll] if c.kind == "space"]
                    loaded.children[coll] = subs + spaces
        if loaded.collection_parents is not None:
            self.coll_up.update(loaded.collection_parents)
        for parent, children in loaded.children.items():
            if self.kids.get(parent) != children:
                changed = True
            self.kids[parent] = children
            lone_org = parent == ROOT and len(children) == 1 and self.open_keys == {ROOT}
            for child in children:
                if child.kind == "group" and child.key not in self.info:
                    self.open_keys.add(child.key)  # groups start open, as in GitBook
                elif lone_org:
                    self.open_keys.add(child.key)  # nothing remembered: open the only org
                self.up[child.key] = parent
                self.info[child.key] = child
        if loaded.complete:
            self.partial.discard(key)
        else:
            self.partial.add(key)
        if key in self.failures:
            del self.failures[key]
            changed = True
        return changed

    def apply_partial(self, key: str, loaded: Loaded) -> bool:
        """Store the pages of a list read so far, unless more of it is known already;
        True when anything changed."""
        if self.is_loaded(key):
            return False  # a complete list is never replaced by the start of one
        known = self.kids.get(key)
        if known is not None and len(known) >= len(loaded.children.get(key, ())):
            return False
        return self.apply(key, loaded)


class TreeQueries:
    """The model's read-only interface, for a widget that has a ``state``."""

    state: TreeState

    @property
    def show_hidden(self) -> bool:
        return self.state.show_hidden

    @property
    def filter_text(self) -> str:
        return self.state.filter_text

    @property
    def expanded_keys(self) -> list[str]:
        """Expanded node keys, parents first (what the UI state remembers)."""
        return self.state.expanded_keys()

    def node_data(self, key: str) -> NodeData | None:
        return self.state.info.get(key)

    def is_loaded(self, key: str) -> bool:
        return self.state.is_loaded(key)

    def error_of(self, key: str) -> str | None:
        return self.state.failures.get(key)

    def trail(self, key: str) -> list[NodeData]:
        """``key``'s node and its ancestors, outermost first (without the root)."""
        return self.state.trail(key)

    def title_of(self, key: str) -> str:
        return self.state.title_of(key)

    def space_pages(self, space_id: str) -> list[NodeData]:
        """Every page node of a loaded space, depth first."""
        return self.state.space_pages(space_id)

    def page_at_path(self, space_id: str, path: str) -> NodeData | None:
        return self.state.find_page(space_id, "path", path)

    def page_at_git_path(self, space_id: str, git_path: str) -> NodeData | None:
        if not git_path.strip("/"):
            return None  # an empty git path names no file
        return self.state.find_page(space_id, "git_path", git_path)

    def first_document(self, space_id: str) -> NodeData | None:
        return self.state.first_document(space_id)
