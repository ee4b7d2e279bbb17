"""The Browse view's registration: view 1, and the intents it handles (open a page or a space)."""

from __future__ import annotations

from typing import Any

from textual.app import App

from ..common.intents import BROWSE, OpenPage, OpenSpace, RefreshSpace
from ..common.registry import Registry, View
from .browser_screen import BrowserScreen
from .tree.workspace_tree import space_key

__all__ = ["browser_of", "register"]


def browser_of(app: App[Any]) -> BrowserScreen | None:
    """The browser in the Browse view's stack (the topmost, if several)."""
    for screen in reversed(app.get_screen_stack(BROWSE)):
        if isinstance(screen, BrowserScreen):
            return screen
    return None


def _open_page(app: App[Any], intent: OpenPage) -> None:
    browser = browser_of(app)
    if browser is not None:
        browser.open_page(
            intent.space_id, intent.page_id, intent.anchor, revision=intent.revision_id
        )


def _open_space(app: App[Any], intent: OpenSpace) -> None:
    browser = browser_of(app)
    if browser is not None:
        browser.open_space(intent.space_id)


def _refresh_space(app: App[Any], intent: RefreshSpace) -> None:
    browser = browser_of(app)
    if browser is not None:
        browser.workspace_tree.load(space_key(intent.space_id), read="network")


def register(registry: Registry) -> None:
    """View 1 (the browser itself: no factory), opening pages and spaces in it."""
    registry.add_view(View("1", BROWSE, "Browse"))
    registry.handle(OpenPage, _open_page, view=BROWSE)
    registry.handle(OpenSpace, _open_space, view=BROWSE)
    registry.handle(RefreshSpace, _refresh_space)  # in place: the tree reloads unseen
