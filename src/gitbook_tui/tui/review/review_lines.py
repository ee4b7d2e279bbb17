"""The review pane's rows of reviews: each review as one signed, fitted line of Content."""

from __future__ import annotations

from textual.content import Content

from ...models import ChangeRequestReview
from ..common.text import cell_width, count_of, fit
from .review_data import ReviewState, review_message, reviewer_name, shown_reviews, verdict

__all__ = ["READ_ALL", "REVIEW_ROWS", "review_lines", "review_rows", "review_sign"]


REVIEW_ROWS = 3
"""Rows the review pane gives the reviews (the rest: ``i`` lists them all)."""
READ_ALL = "  i: all reviews"
"""Ends the first row when a message is cut or a review is left out."""


def review_sign(review: ChangeRequestReview) -> Content:
    approved = review.status == "approved"
    return Content.styled(
        "✓ " if approved else "✗ ", "$text-success" if approved else "$text-error"
    )


def _summary(review: ChangeRequestReview) -> tuple[str, bool]:
    """One line ("Rita approved: Looks good", the message's first line) and whether the
    message has more lines than that."""
    outdated = " (outdated)" if review.outdated else ""
    lines = review_message(review).replace("\t", " ").splitlines()
    partial = len(lines) > 1
    quote = (f": {lines[0]}" if lines else "") + (" …" if partial else "")
    return f"{reviewer_name(review)} {verdict(review)}{outdated}{quote}", partial


def review_rows(state: ReviewState, rows: int = REVIEW_ROWS) -> int:
    """How many rows :func:`review_lines` draws (whatever the width)."""
    return min(len(shown_reviews(state)), rows)


def review_lines(state: ReviewState, width: int, rows: int = REVIEW_ROWS) -> Content:
    """The reviews in at most ``rows`` rows of ``width`` cells, one a row (see
    :func:`_summary`), each cut with "…" to fit; reviews that don't fit are counted on the
    last row, and :data:`READ_ALL` ends the first row whenever anything is left out."""
    reviews = shown_reviews(state)
    if not reviews or width <= 0:
        return Content("")
    more = 0
    if len(reviews) > rows:
        reviews, more = reviews[: rows - 1], len(reviews) - (rows - 1)
    summaries = [_summary(review) for review in reviews]
    room = width - 2  # after the sign
    hidden = (
        more > 0
        or len(reviews) + more < len(state.reviews)
        or any(partial or cell_width(text) > room for text, partial in summaries)
    )
    hint = READ_ALL if hidden and room > 2 * cell_width(READ_ALL) else ""
    parts: list[Content] = []
    for index, (review, (text, _)) in enumerate(zip(reviews, summaries, strict=True)):
        # the text is control-free already: Content(...) never parses it
        if index == 0 and hint:
            line = Content(fit(text, room - cell_width(hint), ellipsis=True))
            line = Content.assemble(line, (hint, "$text-muted"))
        else:
            line = Content(fit(text, room, ellipsis=True) if cell_width(text) > room else text)
        parts.append(Content.assemble(review_sign(review), line))
    if more:
        parts.append(
            Content.styled(
                fit("+" + count_of(more, "more review"), width, ellipsis=True).rstrip(),
                "$text-muted",
            )
        )
    return Content("\n").join(parts)
