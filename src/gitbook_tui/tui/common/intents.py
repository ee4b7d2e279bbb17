"""Navigation intents: frozen dataclasses sent through the app's one ``navigate(intent)``."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "BROWSE",
    "Intent",
    "OpenPage",
    "OpenReview",
    "OpenSpace",
    "PickOrganization",
    "RefreshSpace",
    "SearchServer",
    "ShowBlame",
    "ShowHistory",
    "ShowPermissions",
    "ShowThreads",
    "ShowView",
    "SuggestEdit",
]


@dataclass(frozen=True)
class Intent:
    """Where a reader wants to go or what they want started; the registry
    (:mod:`.registry`) routes each kind to the feature that handles it."""


@dataclass(frozen=True)
class ShowView(Intent):
    """Show the numbered view ``name`` as it was left; ``scope`` (e.g. ``"page"``; ``""``
    the view's default) goes to the view's first screen that has ``set_scope``."""

    name: str
    scope: str = ""


@dataclass(frozen=True)
class PickOrganization(Intent):
    """Choose another organization (the app's picker; the views are then built afresh)."""


@dataclass(frozen=True)
class SearchServer(Intent):
    """Search the server for ``query`` (the app's search dialog, the query typed in)."""

    query: str


@dataclass(frozen=True)
class OpenPage(Intent):
    """Show a page in Browse (scrolled to ``anchor`` when given; ``revision_id``: as it
    was at that revision of the space, marked so, instead of its current text)."""

    space_id: str
    page_id: str
    anchor: str | None = None
    revision_id: str | None = None


@dataclass(frozen=True)
class OpenSpace(Intent):
    """Open a space in Browse."""

    space_id: str


@dataclass(frozen=True)
class RefreshSpace(Intent):
    """Reload a space's pages from the server (after a merge), wherever it is shown."""

    space_id: str


@dataclass(frozen=True)
class OpenReview(Intent):
    """The review pane of a change request, in the Reviews view (``page_id``: the changed
    page to show first)."""

    space_id: str
    change_request_id: str
    space_title: str = ""
    page_id: str | None = None


@dataclass(frozen=True)
class ShowThreads(Intent):
    """A change request's comment threads, over its review pane (``escape`` goes back);
    ``label`` names it ("#5 Fix"); ``quote``: (page id or ``None``, markdown) starts a new
    thread with it once loaded."""

    space_id: str
    change_request_id: str
    label: str = ""
    quote: tuple[str | None, str] | None = None


@dataclass(frozen=True)
class SuggestEdit(Intent):
    """A page's markdown in ``$EDITOR``, posted as a change request (its review pane then
    opens in the Reviews view)."""

    space_id: str
    page_id: str


@dataclass(frozen=True)
class ShowHistory(Intent):
    """A space's revisions in the History view, newest first (``page_id``: only those that
    changed that page)."""

    space_id: str
    page_id: str | None = None


@dataclass(frozen=True)
class ShowBlame(Intent):
    """Who last changed each block of a page, in the History view (``revision_id``: as of
    that revision; None: the space's current one)."""

    space_id: str
    page_id: str
    revision_id: str | None = None


@dataclass(frozen=True)
class ShowPermissions(Intent):
    """Who can access a space or collection, and why (the Admin view's Permissions tab);
    ``page_id``: the question was asked of that page of ``space_id`` (a page's access is
    its space's)."""

    space_id: str | None = None
    collection_id: str | None = None
    page_id: str | None = None


BROWSE = "browse"
"""The name of the Browse view, the app's default mode (where ``OpenPage`` lands)."""
