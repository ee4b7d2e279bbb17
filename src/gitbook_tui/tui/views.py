"""The app's numbered views (lazygit-style): which key shows which view, and how it is built.

Each view is a Textual mode named after it, with a screen stack of its own: ``1`` Browse
is the app's default mode (the browser, over the start screens); every other view's stack
is a blank base under a screen of its own folder (``comments/``, ``review/``, ``sites/``,
``admin/``) built by its factory when first shown. Screens a view pushes (a review pane
over the inbox, a site editor over the sites list) stay in its stack, so switching away
and back returns to the same screen, scroll and cursor; ``escape`` pops them. A view's key
stays unbound until the view is listed here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import suppress
from dataclasses import dataclass
from typing import Any

from textual.app import App
from textual.screen import Screen

from .common.navigator import Navigator

__all__ = ["BROWSE", "VIEWS", "View", "view_named", "view_screens"]


@dataclass(frozen=True)
class View:
    """A numbered view: its key, name (``show_view`` argument and binding id), title and
    the factory building its screen (``None`` for Browse, which is the browser itself)."""

    key: str
    name: str
    """Also the name of the view's mode (its screen stack)."""
    title: str
    factory: Callable[[Navigator], Screen[None]] | None = None


def _reviews(nav: Navigator) -> Screen[None]:
    # imported when first shown: the views' screens use the status bar, which lists VIEWS
    from .review.review_inbox_screen import ReviewInboxScreen

    return ReviewInboxScreen(nav)


def _comments(nav: Navigator) -> Screen[None]:
    from .comments.comments_screen import CommentsScreen

    return CommentsScreen(nav)


def _sites(navigator: Navigator) -> Screen[None]:
    # imported when first shown: the views' screens use the status bar, which lists VIEWS
    from .sites.sites_screen import SitesScreen

    return SitesScreen(navigator)


BROWSE = "browse"
"""The Browse view, the app's default mode."""

VIEWS: tuple[View, ...] = (
    View("1", BROWSE, "Browse"),
    View("2", "reviews", "Reviews", _reviews),
    View("3", "comments", "Comments", _comments),
    View("4", "sites", "Sites", _sites),
)
"""Every view the app offers, in key order."""


def view_named(name: str) -> View | None:
    return next((view for view in VIEWS if view.name == name), None)


def view_screens(app: App[Any]) -> Iterator[Screen[Any]]:
    """Every screen in every view's stack (shown or not), bottom first, view by view."""
    for view in VIEWS:
        with suppress(KeyError):  # a view not shown yet has no stack
            yield from app.get_screen_stack(view.name)
