"""StructureOrder: a site's sections and site spaces in order, as the structure pane shows
and reorders them (no Textual): rows, one-step shifts, snapshots to roll back, and the
anchors of a move (the sibling it now follows, or precedes when it is first)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...models import SiteSection, SiteSpace
from .site_data import SiteData

__all__ = ["ROOT", "Row", "State", "StructureOrder"]

ROOT = ""  # the section key of site spaces at the site's root (a site without sections)
State = tuple[list[SiteSection], dict[str, list[SiteSpace]]]


@dataclass(frozen=True)
class Row:
    kind: str  # "section" or "space"
    id: str
    section: str  # the section id (ROOT for a root site space); a section's own id


class StructureOrder:
    def __init__(self) -> None:
        self.sections: list[SiteSection] = []
        self.spaces: dict[str, list[SiteSpace]] = {}

    def load(self, data: SiteData) -> None:
        self.sections = list(data.sections)
        self.spaces = {s.id: list(s.siteSpaces) for s in data.sections}
        if data.root_spaces:
            self.spaces[ROOT] = list(data.root_spaces)

    def snapshot(self) -> State:
        return list(self.sections), {k: list(v) for k, v in self.spaces.items()}

    def restore(self, state: State) -> None:
        self.sections, self.spaces = state

    def rows(self) -> list[tuple[Row, SiteSection | SiteSpace]]:
        """Every section followed by its site spaces, then the root site spaces."""
        found: list[tuple[Row, SiteSection | SiteSpace]] = []
        for section in self.sections:
            found.append((Row("section", section.id, section.id), section))
            found += [
                (Row("space", ss.id, section.id), ss) for ss in self.spaces.get(section.id, [])
            ]
        found += [(Row("space", ss.id, ROOT), ss) for ss in self.spaces.get(ROOT, [])]
        return found

    def item(self, row: Row) -> SiteSection | SiteSpace | None:
        siblings: list[Any] = self._siblings(row, (self.sections, self.spaces))
        return next((s for s in siblings if s.id == row.id), None)

    @staticmethod
    def _siblings(row: Row, state: State) -> list[Any]:
        sections, spaces = state
        return sections if row.kind == "section" else spaces.get(row.section, [])

    def shift(self, row: Row, step: int) -> bool:
        """Move ``row`` ``step`` places among its siblings (False: it cannot go further)."""
        siblings = self._siblings(row, (self.sections, self.spaces))
        index = next(i for i, s in enumerate(siblings) if s.id == row.id)
        target = index + step
        if not 0 <= target < len(siblings):
            return False
        siblings.insert(target, siblings.pop(index))
        return True

    def ids(self, row: Row, state: State | None = None) -> list[str]:
        """The ids of ``row`` and its siblings in order (now, or in ``state``)."""
        return [i.id for i in self._siblings(row, state or (self.sections, self.spaces))]

    def anchors(self, row: Row) -> tuple[str | None, str | None]:
        """``(before, after)`` of the move placing ``row`` where it is now."""
        order = self.ids(row)
        index = order.index(row.id)
        after = order[index - 1] if index > 0 else None
        before = order[index + 1] if after is None and index + 1 < len(order) else None
        return before, after
