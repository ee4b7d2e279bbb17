"""ReviewsSummary: the review pane's rows of reviews, one a reviewer, fitted to the width
it has (drawn again at every width; ``i`` lists the reviews in full)."""

from __future__ import annotations

from textual.content import Content
from textual.geometry import Size
from textual.widget import Widget

from .review_data import ReviewState
from .review_lines import REVIEW_ROWS, review_lines, review_rows

__all__ = ["ReviewsSummary"]


class ReviewsSummary(Widget):
    """Hidden while there is no review."""

    DEFAULT_CSS = f"""
    ReviewsSummary {{ display: none; height: auto; max-height: {REVIEW_ROWS}; }}
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.state: ReviewState | None = None

    def show(self, state: ReviewState) -> None:
        self.state = state
        self.display = bool(state.reviews)
        self.refresh(layout=True)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        # the same at every width: measured before the first layout gives this a width
        return review_rows(self.state) if self.state is not None else 0

    def render(self) -> Content:
        if self.state is None:
            return Content("")
        return review_lines(self.state, self.content_size.width)
