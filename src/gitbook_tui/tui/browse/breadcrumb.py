"""Breadcrumb: where the open page is — organization / collection / space / page path."""

from __future__ import annotations

from collections.abc import Sequence

from textual.content import Content
from textual.widgets import Static

from ..common.text import inert

__all__ = ["Breadcrumb"]

SEPARATOR = " / "


class Breadcrumb(Static):
    """One line of inert titles joined by `` / ``."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__("", markup=False, id=id, classes=classes)
        self._parts: list[str] = []

    @property
    def parts(self) -> list[str]:
        return list(self._parts)

    @property
    def text(self) -> str:
        return SEPARATOR.join(self._parts)

    def set_trail(self, parts: Sequence[str]) -> None:
        """Show ``parts`` (server titles: shown literally, controls stripped)."""
        pieces = [inert(part) for part in parts if part]
        self._parts = [piece.plain for piece in pieces]
        self.update(Content.styled(SEPARATOR, "$text-muted").join(pieces))
