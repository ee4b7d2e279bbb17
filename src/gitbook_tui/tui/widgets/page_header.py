"""PageHeader: breadcrumb, emoji and title, description and last update of the open page."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static

from ..text import inert
from .breadcrumb import Breadcrumb

__all__ = ["PageHeader"]


def _when(moment: datetime) -> str:
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone().strftime("%Y-%m-%d %H:%M")


class PageHeader(Vertical):
    """The head of the page pane; every text in it is inert."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._title = ""

    def compose(self) -> ComposeResult:
        yield Breadcrumb(id="page-breadcrumb")
        yield Static("", id="page-title", markup=False)
        yield Static("", id="page-description", markup=False)
        yield Static("", id="page-updated", markup=False)

    @property
    def title_text(self) -> str:
        """The page title as shown (controls stripped)."""
        return self._title

    @property
    def breadcrumb(self) -> Breadcrumb:
        return self.query_one(Breadcrumb)

    def show_page(
        self,
        trail: Sequence[str],
        *,
        title: str,
        emoji: str | None = None,
        description: str | None = None,
        updated: datetime | None = None,
    ) -> None:
        self._title = inert(title).plain
        self.breadcrumb.set_trail(trail)
        heading = inert(f"{emoji} " if emoji else "") + inert(title or "Untitled", style="bold")
        self.query_one("#page-title", Static).update(heading)
        about = self.query_one("#page-description", Static)
        about.update(inert(description or "", style="italic"))
        about.display = bool(description)
        stamp = self.query_one("#page-updated", Static)
        stamp.update(Content.styled(f"updated {_when(updated)}", "dim") if updated else "")
        stamp.display = updated is not None

    def show_message(self, message: str | Content) -> None:
        """A line in place of a page (nothing open, loading, an error)."""
        self._title = ""
        self.breadcrumb.set_trail([])
        self.query_one("#page-title", Static).update(
            message if isinstance(message, Content) else Content(message)
        )
        for name in ("#page-description", "#page-updated"):
            self.query_one(name, Static).display = False
