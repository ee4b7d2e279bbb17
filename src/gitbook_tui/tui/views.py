"""The app's numbered views (lazygit-style), registered here, from the top, feature by feature.

Each feature's ``feature.register`` adds its view (key, name, title, factory), the intents
it handles and its palette commands to :data:`~.common.registry.REGISTRY`
(``docs/tui-architecture.md``). Each view is a Textual mode named after it, with a screen
stack of its own: ``1`` Browse is the app's default mode (the browser, over the start
screens); every other view's stack is a blank base under a screen of its own folder built
by its factory when first shown. Screens a view pushes (a review pane over the inbox, a
site editor over the sites list) stay in its stack, so switching away and back returns to
the same screen, scroll and cursor; ``escape`` pops them. A screen of one feature asked
for from another (an intent) lands in its own feature's view.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import suppress
from typing import Any

from textual.app import App
from textual.screen import Screen

from .admin import feature as admin
from .browse import feature as browse
from .comments import feature as comments
from .common.intents import BROWSE
from .common.registry import REGISTRY, Registry, View, view_named
from .history import feature as history
from .review import feature as review
from .sites import feature as sites

__all__ = ["BROWSE", "VIEWS", "View", "register_features", "view_named", "view_screens"]


def register_features(registry: Registry = REGISTRY) -> None:
    """Every feature's view, intents and palette commands, into ``registry``."""
    for feature in (browse, review, comments, sites, admin, history):
        feature.register(registry)


register_features()

VIEWS: tuple[View, ...] = REGISTRY.views
"""Every view the app offers, in key order."""


def view_screens(app: App[Any]) -> Iterator[Screen[Any]]:
    """Every screen in every view's stack (shown or not), bottom first, view by view."""
    for view in REGISTRY.views:
        with suppress(KeyError):  # a view not shown yet has no stack
            yield from app.get_screen_stack(view.name)
