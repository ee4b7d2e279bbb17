"""ReviewsScreen: every review of a change request in full — reviewer, verdict, age,
revision (current or outdated) and the whole message — read-only, scrolled with the pager
keys; ``escape``, ``q`` or ``i`` closes it. Server text is shown inert."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static

from ..common.modal import KitModal
from ..common.pager import PagerScroll
from ..common.text import count_of
from . import inbox_data
from .review_data import ReviewState, review_message, reviewer_name, verdict
from .review_lines import review_sign

__all__ = ["ReviewsScreen"]


class ReviewsScreen(KitModal[None]):
    """The reviews of ``state``'s change request, newest first."""

    HELP_TITLE = "Reviews"

    DEFAULT_CSS = """
    ReviewsScreen { align: center middle; }
    ReviewsScreen > #reviews-dialog {
        width: 100; max-width: 95%; height: 90%;
        border: thick $primary; background: $surface; padding: 0 1;
    }
    ReviewsScreen PagerScroll { height: 1fr; }
    ReviewsScreen .review-head { text-style: bold; }
    ReviewsScreen .review-body { padding: 0 0 1 2; }
    ReviewsScreen .review-body.-empty { color: $text-muted; text-style: italic; }
    ReviewsScreen #reviews-keys { height: 1; color: $text-muted; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,i", "close", "Close", id="reviews.close"),
    ]

    def __init__(self, state: ReviewState) -> None:
        super().__init__()
        self.state = state

    def compose(self) -> ComposeResult:
        cr, reviews = self.state.cr, self.state.reviews
        with Vertical(id="reviews-dialog") as dialog:
            dialog.border_title = f"Reviews of #{cr.number} · {count_of(len(reviews), 'review')}"
            with PagerScroll(id="reviews-list"):
                for review in reviews:
                    when = inbox_data.age(review.createdAt)
                    ago = "" if not when else " · just now" if when == "now" else f" · {when} ago"
                    revision = " · outdated (an earlier revision)" if review.outdated else ""
                    head = Content.assemble(
                        review_sign(review),
                        Content(f"{reviewer_name(review)} {verdict(review)}"),
                        (f"{ago}{revision}", "not bold $text-muted"),
                    )
                    yield Static(head, classes="review-head")
                    message = review_message(review)
                    yield Static(
                        Content(
                            message.expandtabs(4) or "(no message)"
                        ),  # control-free: never parsed
                        classes="review-body" if message else "review-body -empty",
                    )
            yield Static(
                "j/k line · space/b page · g/G top/bottom · escape close", id="reviews-keys"
            )

    def on_mount(self) -> None:
        self.query_one(PagerScroll).focus()

    def action_close(self) -> None:
        self.dismiss(None)
