"""The app's numbered views (lazygit-style): which key shows which view, and how it is built.

``1`` Browse is the browser screen itself; every other view is a screen of its own folder
(``comments/``, ``review/``, ``sites/``, ``admin/``) built once by its factory, kept while
the app runs (its cursor and scroll survive switching away) and shown on top of the
browser. A view's key stays unbound until the view is listed here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from textual.screen import Screen

from .common.navigator import Navigator

__all__ = ["VIEWS", "View", "view_named"]


@dataclass(frozen=True)
class View:
    """A numbered view: its key, name (``show_view`` argument and binding id), title and
    the factory building its screen (``None`` for Browse, which is the browser itself)."""

    key: str
    name: str
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


VIEWS: tuple[View, ...] = (
    View("1", "browse", "Browse"),
    View("2", "reviews", "Reviews", _reviews),
    View("3", "comments", "Comments", _comments),
    View("4", "sites", "Sites", _sites),
)
"""Every view the app offers, in key order."""


def view_named(name: str) -> View | None:
    return next((view for view in VIEWS if view.name == name), None)
