"""StructureOrder: a site's section groups, sections and site spaces in order, as the
structure pane shows and reorders them (no Textual): rows, one-step shifts, snapshots to
roll back, and what changed since a snapshot.

Shifts: a site space moves among the site spaces of its section; a group among its
siblings; a section among its siblings, and also into and out of groups — stepping onto a
group enters it (first when going down, last when going up), stepping past the first or
last place of a group leaves it (before or after the group).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ...models import SiteSection, SiteSectionGroup, SiteSpace
from .site_data import SiteData

__all__ = ["ROOT", "Node", "Row", "State", "StructureOrder", "with_parents"]

ROOT = ""  # the root of the site: parent key of top-level items, section key of root spaces
Node = tuple[str, str]  # ("section" or "group", id)
State = tuple[dict[str, list[Node]], dict[str, list[SiteSpace]]]
Item = SiteSection | SiteSectionGroup | SiteSpace


@dataclass(frozen=True)
class Row:
    kind: str  # "group", "section" or "space"
    id: str
    section: str  # a space's section (ROOT at the site's root); a section's own id; "" for a group


class StructureOrder:
    def __init__(self) -> None:
        self.by_id: dict[str, SiteSection] = {}
        self.groups: dict[str, SiteSectionGroup] = {}
        self.layout: dict[str, list[Node]] = {ROOT: []}
        self.spaces: dict[str, list[SiteSpace]] = {}

    def load(self, data: SiteData) -> None:
        self.by_id = {s.id: s for s in data.sections}
        self.groups = {g.id: g for g in data.groups}
        layout = data.layout or {ROOT: [("section", s.id) for s in data.sections]}
        self.layout = {k: list(v) for k, v in layout.items()}
        self.layout.setdefault(ROOT, [])
        self.spaces = {s.id: list(s.siteSpaces) for s in data.sections}
        if data.root_spaces:
            self.spaces[ROOT] = list(data.root_spaces)

    @property
    def sections(self) -> list[SiteSection]:
        """Every section in navigation order."""
        return [
            self.by_id[item_id]
            for (kind, item_id), _ in self._walk(ROOT, 0)
            if kind == "section" and item_id in self.by_id
        ]

    def snapshot(self) -> State:
        return {k: list(v) for k, v in self.layout.items()}, {
            k: list(v) for k, v in self.spaces.items()
        }

    def restore(self, state: State) -> None:
        self.layout, self.spaces = state

    def _walk(self, parent: str, depth: int) -> list[tuple[Node, int]]:
        found: list[tuple[Node, int]] = []
        for node in self.layout.get(parent, []):
            found.append((node, depth))
            if node[0] == "group":
                found += self._walk(node[1], depth + 1)
        return found

    def rows(self) -> list[tuple[Row, Item, int]]:
        """(row, item, depth): groups followed by what they hold, each section followed by
        its site spaces, then the root site spaces."""
        found: list[tuple[Row, Item, int]] = []
        for (kind, item_id), depth in self._walk(ROOT, 0):
            if kind == "group":
                found.append((Row("group", item_id, ""), self.groups[item_id], depth))
                continue
            section = self.by_id.get(item_id)
            if section is None:
                continue
            found.append((Row("section", item_id, item_id), section, depth))
            found += [
                (Row("space", ss.id, item_id), ss, depth + 1) for ss in self.spaces.get(item_id, [])
            ]
        found += [(Row("space", ss.id, ROOT), ss, 0) for ss in self.spaces.get(ROOT, [])]
        return found

    def item(self, row: Row) -> Item | None:
        if row.kind == "group":
            return self.groups.get(row.id)
        if row.kind == "section":
            return self.by_id.get(row.id)
        return next((s for s in self.spaces.get(row.section, []) if s.id == row.id), None)

    def held_titles(self, group_id: str) -> list[str]:
        """The titles of what the group holds, in order."""
        titles = []
        for kind, item_id in self.layout.get(group_id, []):
            item = self.groups.get(item_id) if kind == "group" else self.by_id.get(item_id)
            titles.append((item.title if item else None) or item_id)
        return titles

    def parent_of(self, row: Row, state: State | None = None) -> str:
        """The group holding a section or group row (ROOT at the top), now or in ``state``."""
        layout = state[0] if state else self.layout
        node = (row.kind, row.id)
        return next((parent for parent, nodes in layout.items() if node in nodes), ROOT)

    def level(self, row: Row, state: State | None = None) -> list[Node]:
        """The section or group row's siblings (itself included) in order."""
        layout = state[0] if state else self.layout
        return list(layout.get(self.parent_of(row, state), []))

    def depth_of(self, group_id: str) -> int:
        return 0 if self.parent_of(Row("group", group_id, "")) == ROOT else 1

    def changed(self, row: Row, origin: State) -> bool:
        """Whether ``row`` moved since ``origin``."""
        if row.kind == "space":
            return self.ids(row, origin) != self.ids(row)
        return self.parent_of(row, origin) != self.parent_of(row) or self.level(
            row, origin
        ) != self.level(row)

    def shift(self, row: Row, step: int) -> bool:
        """Move ``row`` one place (False: it cannot go further)."""
        if row.kind == "space":
            spaces = self.spaces.get(row.section, [])
            at = next(i for i, s in enumerate(spaces) if s.id == row.id)
            if not 0 <= at + step < len(spaces):
                return False
            spaces.insert(at + step, spaces.pop(at))
            return True
        node = (row.kind, row.id)
        parent = self.parent_of(row)
        siblings = self.layout[parent]
        index = siblings.index(node)
        target = index + step
        if 0 <= target < len(siblings):
            neighbour = siblings[target]
            if row.kind == "section" and neighbour[0] == "group":
                siblings.pop(index)
                inside = self.layout.setdefault(neighbour[1], [])
                inside.insert(0 if step > 0 else len(inside), node)
            else:
                siblings.insert(target, siblings.pop(index))
            return True
        if row.kind != "section" or parent == ROOT:
            return False
        siblings.pop(index)  # leave the group: just before or after it
        outer = self.layout[self.parent_of(Row("group", parent, ""))]
        at = outer.index(("group", parent))
        outer.insert(at + 1 if step > 0 else at, node)
        return True

    def ids(self, row: Row, state: State | None = None) -> list[str]:
        """The ids of a space row and its siblings in order (now, or in ``state``)."""
        spaces = state[1] if state else self.spaces
        return [s.id for s in spaces.get(row.section, [])]

    def anchors(self, row: Row) -> tuple[str | None, str | None]:
        """``(before, after)`` of the move placing a space row where it is now."""
        order = self.ids(row)
        index = order.index(row.id)
        after = order[index - 1] if index > 0 else None
        before = order[index + 1] if after is None and index + 1 < len(order) else None
        return before, after


def with_parents(
    rows: list[tuple[Row, Item, int]], keep: Callable[[Item], bool]
) -> list[tuple[Row, Item, int]]:
    """The rows whose item ``keep`` accepts, each with the rows above it that hold it (its
    section, its groups), in order: a filtered tree that still reads as a tree."""
    kept: set[int] = set()
    parents: list[int] = []  # indexes of the rows holding the current one, by depth
    for index, (_, item, depth) in enumerate(rows):
        del parents[depth:]
        if keep(item):
            kept.add(index)
            kept.update(parents)
        parents.append(index)
    return [row for index, row in enumerate(rows) if index in kept]
