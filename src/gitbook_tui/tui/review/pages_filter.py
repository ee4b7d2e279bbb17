"""PagesFilter: ``/`` on the review pane — filter the changed pages by title or path.

Held by :class:`.change_request_review_screen.ChangeRequestReviewScreen` (its ``/`` and
filter-box handlers delegate here). While the box is open the list shows (also where it is
hidden for width) and the diff follows the match; ``enter`` keeps the match's diff,
``escape`` goes back to the page shown before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from ...models import RevisionSemanticChange
from ..common.filter_box import FilterBox
from ..common.screen_host import ScreenHost

if TYPE_CHECKING:
    from ..render.diff_view import DiffView
    from .changed_pages_list import ChangedPagesList
    from .review_data import ReviewState

__all__ = ["FilterHost", "PagesFilter"]

FILTERING = "-filtering"
"""The host's class while the box is open (its CSS shows the list then, even when narrow)."""


class FilterHost(ScreenHost, Protocol):
    """What the filter needs from the review pane."""

    state: ReviewState | None

    @property
    def pages(self) -> ChangedPagesList: ...
    @property
    def diff(self) -> DiffView: ...
    @property
    def filter_box(self) -> FilterBox: ...
    def denial_reason(self, action: str) -> str | None: ...
    def render_header(self) -> None: ...
    def has_class(self, *class_names: str) -> bool: ...
    def set_class(self, add: bool, *class_names: str, update: bool = True) -> Any: ...


class PagesFilter:
    """The changed pages' filter of one review pane."""

    def __init__(self, host: FilterHost) -> None:
        self.host = host
        self.before: RevisionSemanticChange | None = None
        """The page shown when ``/`` was pressed: ``escape`` goes back to it."""

    @property
    def filtering(self) -> bool:
        return self.host.has_class(FILTERING)

    def open(self) -> None:
        host = self.host
        if host.state is None:
            host.notify(host.denial_reason("filter") or "Nothing to filter yet.", markup=False)
            return
        if not self.filtering:
            self.before = host.pages.selected
        host.set_class(True, FILTERING)
        host.filter_box.open()

    def changed(self, event: FilterBox.Changed) -> None:
        if event.input.id == self.host.filter_box.id and self.filtering:
            self.host.pages.filter(event.value.strip())

    def done(self, event: FilterBox.Done) -> None:
        event.stop()
        match = self.host.pages.selected
        if match is None:
            self.host.notify(
                f"No changed page matches “{self.host.filter_box.needle}”: "
                "escape clears the filter.",
                markup=False,
            )
            return
        self._end(match)

    def cleared(self, event: FilterBox.Cleared) -> None:
        event.stop()
        self._end(self.before)

    def _end(self, select: RevisionSemanticChange | None) -> None:
        """Close the box, list every page again with ``select`` chosen, focus the diff."""
        host = self.host
        pages = host.pages
        host.filter_box.close()
        host.set_class(False, FILTERING)
        pages.filter("")
        if select is not None and select in pages.listed:
            pages.highlighted = pages.listed.index(select)
        host.diff.focus()
        host.render_header()
