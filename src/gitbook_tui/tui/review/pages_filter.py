"""PagesFilter: ``/`` on the review pane — filter the changed pages by title or path.

Mixed into :class:`.change_request_review_screen.ChangeRequestReviewScreen`. While the box
is open the list shows (also where it is hidden for width) and the diff follows the match;
``enter`` keeps the match's diff, ``escape`` goes back to the page shown before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.screen import Screen

from ...models import RevisionSemanticChange
from ..common.filter_box import FilterBox
from ..render.diff_view import DiffView
from .changed_pages_list import ChangedPagesList

if TYPE_CHECKING:
    from .review_data import ReviewState

__all__ = ["PagesFilter"]


class PagesFilter:
    """The host screen provides ``state``, ``denial_reason`` and ``_render_header``; its
    layout has a :class:`FilterBox` ``#cr-filter``, the list and the diff."""

    state: ReviewState | None
    _before_filter: RevisionSemanticChange | None = None
    """The page shown when ``/`` was pressed: ``escape`` goes back to it."""

    def denial_reason(self, action: str) -> str | None: ...
    def _render_header(self) -> None: ...

    def _host(self) -> Screen[Any]:
        assert isinstance(self, Screen)
        return self

    @property
    def filtering(self) -> bool:
        return self._host().has_class("-filtering")

    @property
    def filter_box(self) -> FilterBox:
        return self._host().query_one("#cr-filter", FilterBox)

    def action_filter(self) -> None:
        host = self._host()
        if self.state is None:
            host.notify(self.denial_reason("filter") or "Nothing to filter yet.", markup=False)
            return
        if not self.filtering:
            self._before_filter = host.query_one(ChangedPagesList).selected
        host.add_class("-filtering")
        self.filter_box.open()

    def on_input_changed(self, event: FilterBox.Changed) -> None:
        if event.input.id == "cr-filter" and self.filtering:
            self._host().query_one(ChangedPagesList).filter(event.value.strip())

    def on_filter_box_done(self, event: FilterBox.Done) -> None:
        event.stop()
        match = self._host().query_one(ChangedPagesList).selected
        if match is None:
            self._host().notify(
                f"No changed page matches “{self.filter_box.needle}”: escape clears the filter.",
                markup=False,
            )
            return
        self._end_filter(match)

    def on_filter_box_cleared(self, event: FilterBox.Cleared) -> None:
        event.stop()
        self._end_filter(self._before_filter)

    def _end_filter(self, select: RevisionSemanticChange | None) -> None:
        """Close the box, list every page again with ``select`` chosen, focus the diff."""
        host = self._host()
        pages = host.query_one(ChangedPagesList)
        self.filter_box.close()
        host.remove_class("-filtering")
        pages.filter("")
        if select is not None and select in pages.listed:
            pages.highlighted = pages.listed.index(select)
        host.query_one(DiffView).focus()
        self._render_header()
