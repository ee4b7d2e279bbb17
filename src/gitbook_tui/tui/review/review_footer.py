"""ReviewFooter: the hint footer with the review desk's hints (most useful first)."""

from __future__ import annotations

from typing import ClassVar

from ..common.hint_footer import HINTS, HintFooter

__all__ = ["REVIEW_HINTS", "ReviewFooter"]

_REVIEW = (
    "review.approve",
    "review.request_changes",
    "review.merge",
    "review.next_page",
    "review.reviews",
    "review.viewed",
    "review.update",
    "review.add_reviewer",
    "review.back",
)

REVIEW_HINTS: dict[str, tuple[str, ...]] = {
    "DiffView": ("diff.next", "diff.mode", *_REVIEW[:3], "diff.more", *_REVIEW[3:]),
    "ChangedPagesList": (
        "review.viewed",
        "review.next_page",
        *_REVIEW[:3],
        "review.reviews",
        "review.back",
    ),
    "inbox-table": (
        "inbox.open",
        "inbox.next_section",
        "inbox.preview",
        "inbox.status",
        "inbox.filter",
        "inbox.scope",
        "inbox.reload",
    ),
    "FilterBox": ("filter.done", "filter.clear"),
}


class ReviewFooter(HintFooter):
    HINTS: ClassVar[dict[str, tuple[str, ...]]] = {**HINTS, **REVIEW_HINTS}
