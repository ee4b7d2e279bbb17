"""The Comments view's registration: view 3, a change request's threads, its palette command."""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.screen import Screen

from ..common.intents import ShowThreads
from ..common.navigator import Navigator, navigator_of
from ..common.registry import AppCommand, Registry, View

__all__ = ["COMMENTS", "register"]

COMMENTS = "comments"
"""The Comments view's name (its mode)."""


def _comments(nav: Navigator) -> Screen[None]:
    # imported when the view is first shown: the app's first screen is Browse
    from .comments_screen import CommentsScreen

    return CommentsScreen(nav)


async def _show_threads(app: App[Any], intent: ShowThreads) -> None:
    """A change request's threads go over its review pane, in the Reviews view: they are
    part of that review (``escape`` goes back to it; ``3`` shows the Comments view's own)."""
    from .comments_screen import CommentsScreen

    nav = navigator_of(app)
    if nav is None:
        return
    screen = CommentsScreen(
        nav,
        space_id=intent.space_id,
        change_request=intent.change_request_id,
        label=intent.label,
        quote=intent.quote,
    )
    await app.push_screen(screen)


def register(registry: Registry) -> None:
    registry.add_view(View("3", COMMENTS, "Comments", _comments))
    registry.handle(ShowThreads, _show_threads)
    registry.add_command(
        AppCommand(
            "Comments on this page",
            "Threads of the open page (C)",
            f"app.show_view('{COMMENTS}', 'page')",
        )
    )
