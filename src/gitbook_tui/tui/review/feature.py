"""The Reviews view's registration: view 2, opening a review pane, and suggest-edit."""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.screen import Screen

from ..common.intents import OpenReview, SuggestEdit
from ..common.navigator import Navigator, navigator_of
from ..common.registry import Registry, View

__all__ = ["REVIEWS", "register"]

REVIEWS = "reviews"
"""The Reviews view's name (its mode)."""


def _inbox(nav: Navigator) -> Screen[None]:
    # imported when the view is first shown: the app's first screen is Browse
    from .review_inbox_screen import ReviewInboxScreen

    return ReviewInboxScreen(nav)


async def _open_review(app: App[Any], intent: OpenReview) -> None:
    """Over whatever the Reviews view shows (``escape`` goes back to it)."""
    from .change_request_review_screen import ChangeRequestReviewScreen

    nav = navigator_of(app)
    if nav is None:
        return
    screen = ChangeRequestReviewScreen(
        nav,
        intent.space_id,
        intent.change_request_id,
        space_title=intent.space_title,
        page_id=intent.page_id,
    )
    await app.push_screen(screen)


def _suggest_edit(app: App[Any], intent: SuggestEdit) -> None:
    """The flow runs in a worker of the screen it was asked from; the review pane it ends
    with is an ``OpenReview`` (the Reviews view)."""
    from .suggest_edit import start_suggest_edit

    nav = navigator_of(app)
    if nav is not None:
        start_suggest_edit(app.screen, nav, intent.space_id, intent.page_id)


def register(registry: Registry) -> None:
    registry.add_view(View("2", REVIEWS, "Reviews", _inbox))
    registry.handle(OpenReview, _open_review, view=REVIEWS)
    registry.handle(SuggestEdit, _suggest_edit)  # in place: the editor, then OpenReview
