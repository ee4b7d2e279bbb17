"""PageHistory: the pages visited in the browser, walked with back and forward, each with
the reader's place in it (restored when the page is shown again)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..render.viewport import ReadingPosition

__all__ = ["PageEntry", "PageHistory"]

PageEntry = tuple[str, str]
"""(space id, page id)."""


class PageHistory:
    """A browser-style history: visiting a page drops the pages after the current one."""

    def __init__(self) -> None:
        self._entries: list[PageEntry] = []
        self._positions: list[ReadingPosition | None] = []
        self._index = -1

    @property
    def entries(self) -> list[PageEntry]:
        return list(self._entries)

    @property
    def index(self) -> int:
        """Position of the current entry (-1 while empty)."""
        return self._index

    @property
    def current(self) -> PageEntry | None:
        return self._entries[self._index] if 0 <= self._index < len(self._entries) else None

    @property
    def position(self) -> ReadingPosition | None:
        """Where the reader was in the current entry when they left it (None: its top)."""
        return self._positions[self._index] if 0 <= self._index < len(self._entries) else None

    def remember(self, position: ReadingPosition | None) -> None:
        """Keep ``position`` as the reader's place in the current entry."""
        if 0 <= self._index < len(self._entries) and position is not None:
            self._positions[self._index] = position

    def visit(self, entry: PageEntry) -> None:
        """Record ``entry`` as the current page (nothing happens if it already is)."""
        if self.current == entry:
            return
        del self._entries[self._index + 1 :]
        del self._positions[self._index + 1 :]
        self._entries.append(entry)
        self._positions.append(None)
        self._index = len(self._entries) - 1

    def back(self) -> PageEntry | None:
        """Step back; the page to show, or None at the start."""
        if self._index <= 0:
            return None
        self._index -= 1
        return self._entries[self._index]

    def forward(self) -> PageEntry | None:
        """Step forward; the page to show, or None at the end."""
        if self._index + 1 >= len(self._entries):
            return None
        self._index += 1
        return self._entries[self._index]
