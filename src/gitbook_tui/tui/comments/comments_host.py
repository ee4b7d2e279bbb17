"""CommentsHost: what the Comments view's helpers (loader, actions) need from its screen."""

from __future__ import annotations

from typing import Any, Protocol

from textual.app import App

from ...api import AsyncGitBook
from ..common.composer import Composer
from ..common.navigator import Navigator
from ..common.screen_host import ScreenHost
from .comments_state import CommentsState
from .thread_data import ThreadState
from .thread_list import ThreadList
from .thread_pane import ThreadPane

__all__ = ["CommentsHost"]


class CommentsHost(ScreenHost, Protocol):
    """The screen: its state and widgets, what it redraws, and the Textual services the
    helpers run their work on (workers and timers belong to the screen: its ``busy``)."""

    state: CommentsState
    nav: Navigator
    client: AsyncGitBook

    @property
    def app(self) -> App[Any]: ...

    @property
    def thread_list(self) -> ThreadList: ...

    @property
    def pane(self) -> ThreadPane: ...

    @property
    def composer(self) -> Composer: ...

    @property
    def is_current(self) -> bool: ...

    def has_class(self, *class_names: str) -> bool: ...

    def draw_title(self) -> None: ...

    def show_error(self, message: str | None) -> None: ...

    def show_user(self, name: str) -> None: ...

    def empty_text(self) -> str: ...

    def refresh_denials(self) -> None: ...

    def redraw_thread(self, thread: ThreadState) -> None:
        """Re-show a thread changed locally (optimistic update, rollback, server answer)."""
        ...

    def settle_replays(self) -> bool: ...

    def open_composer_full(self) -> None:
        """Show the thread side (a new thread's composer) full width when narrow."""
        ...

    def run_action(self, action: str) -> Any: ...
