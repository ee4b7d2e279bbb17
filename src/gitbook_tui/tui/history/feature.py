"""The History view's registration: view 6, a space's (or a page's) revisions."""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.screen import Screen

from ..common.intents import ShowBlame, ShowHistory
from ..common.navigator import Navigator
from ..common.registry import Registry, View

__all__ = ["HISTORY", "register"]

HISTORY = "history"
"""The History view's name (its mode)."""


def _history(nav: Navigator) -> Screen[None]:
    # imported when the view is first shown: the app's first screen is Browse
    from .history_screen import HistoryScreen

    return HistoryScreen(nav)


async def _show_history(app: App[Any], intent: ShowHistory) -> None:
    """The view's own log shows the space (or page) asked for; what was over it closes."""
    from .history_screen import HistoryScreen

    stack = app.get_screen_stack(HISTORY)
    root = next((s for s in stack if isinstance(s, HistoryScreen)), None)
    if root is None:
        return
    while app.screen is not root and len(app.screen_stack) > 2:
        await app.pop_screen()
    root.show_log(intent.space_id, intent.page_id)


async def _show_blame(app: App[Any], intent: ShowBlame) -> None:
    """The blame over the page's log (``escape`` goes there); what was over the log closes."""
    from .blame_screen import BlameScreen
    from .history_screen import HistoryScreen

    await _show_history(app, ShowHistory(intent.space_id, intent.page_id))
    root = next((s for s in app.get_screen_stack(HISTORY) if isinstance(s, HistoryScreen)), None)
    if root is not None:
        await app.push_screen(
            BlameScreen(root.navigator, intent.space_id, intent.page_id, intent.revision_id)
        )


def register(registry: Registry) -> None:
    registry.add_view(View("6", HISTORY, "History", _history))
    registry.handle(ShowHistory, _show_history, view=HISTORY)
    registry.handle(ShowBlame, _show_blame, view=HISTORY)
