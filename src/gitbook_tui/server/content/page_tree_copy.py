"""PageTreeCopy: a copy-on-write page tree — the next revision's pages sharing every node of the
current one that a batch of edits leaves alone."""

from __future__ import annotations

from typing import Any

Node = dict[str, Any]


def _index_path(pages: list[Node], page_id: str) -> list[int] | None:
    """The indexes leading to page ``page_id`` (depth-first, like ``edits.locate``)."""
    for index, node in enumerate(pages):
        if node["id"] == page_id:
            return [index]
        below = _index_path(node.get("pages", []), page_id)
        if below is not None:
            return [index, *below]
    return None


class PageTreeCopy:
    """The pages of a revision (immutable, possibly cached and shared), made editable lazily.

    ``pages``: a new top-level list (see :func:`.store.shared_copy`) holding the revision's
    nodes; it is changed in place. Before a node or a list of
    sub-pages is changed it is reached through :meth:`locate`, which replaces every node on
    the way (and its list of sub-pages) by a shallow copy owned by this tree, once. Nodes off
    those paths stay the original objects: the tree stored is the same as with a deep copy,
    without copying (or keeping twice) what did not change.

    Everything a caller creates and adds to the tree itself is new, hence owned
    (:meth:`own` records it, so it is not copied again)."""

    def __init__(self, pages: list[Node]) -> None:
        self.pages = pages
        self._owned: set[int] = set()
        self._kept: list[object] = []  # owned objects stay alive, so their ids stay theirs
        self._parents: dict[str, str | None] | None = None  # page id -> parent page id
        self.own(self.pages)

    def own(self, *objects: object) -> None:
        for obj in objects:
            if id(obj) not in self._owned:
                self._owned.add(id(obj))
                self._kept.append(obj)

    def owns(self, obj: object) -> bool:
        return id(obj) in self._owned

    def _owned_node(self, container: list[Node], index: int) -> Node:
        node = container[index]
        if not self.owns(node):
            node = dict(node)
            container[index] = node
            self.own(node)
        children = node.get("pages")
        if children is not None and not self.owns(children):
            node["pages"] = list(children)
            self.own(node["pages"])
        return node

    def _parent_ids(self) -> dict[str, str | None]:
        if self._parents is None:
            parents: dict[str, str | None] = {}

            def note(nodes: list[Node], parent: str | None) -> None:
                for node in nodes:
                    parents.setdefault(node["id"], parent)
                    note(node.get("pages", []), node["id"])

            note(self.pages, None)
            self._parents = parents
        return self._parents

    def _known_path(self, page_id: str) -> list[int] | None:
        """The indexes leading to ``page_id`` by the ids of its parents (noted once for the
        whole batch), checked step by step: None when the tree has moved on since."""
        parents = self._parent_ids()
        if page_id not in parents:
            return None
        chain = [page_id]
        while (up := parents[chain[-1]]) is not None:
            chain.append(up)
        path: list[int] = []
        container = self.pages
        for wanted in reversed(chain):
            index = next((i for i, n in enumerate(container) if n["id"] == wanted), None)
            if index is None:
                return None
            path.append(index)
            container = container[index].get("pages", [])
        return path

    def locate(self, page_id: str) -> tuple[list[Node], int, Node | None] | None:
        """(the list holding the page, its index, its parent node or None), all of them —
        and the page with its list of sub-pages — owned, so safe to change."""
        path = self._known_path(page_id)
        if path is None:
            self._parents = None  # pages were added or moved: note them again next time
            path = _index_path(self.pages, page_id)
        if path is None:
            return None
        container, parent = self.pages, None
        for depth, index in enumerate(path):
            node = self._owned_node(container, index)
            if depth < len(path) - 1:
                parent, container = node, node["pages"]
        return container, path[-1], parent

    def sub_pages(self, node: Node) -> list[Node]:
        """The (owned) list of sub-pages of an owned node, created when it has none."""
        children = node.setdefault("pages", [])
        if not self.owns(children):
            children = node["pages"] = list(children)
            self.own(children)
        return children
