"""CommentsHost: what the Comments view's helpers (loader, actions) need from its screen."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any, Protocol

from textual.app import App
from textual.notifications import SeverityLevel
from textual.timer import Timer
from textual.worker import Worker

from ...api import AsyncGitBook
from ..common.composer import Composer
from ..common.navigator import Navigator
from .comments_state import CommentsState
from .thread_data import ThreadState
from .thread_list import ThreadList
from .thread_pane import ThreadPane

__all__ = ["CommentsHost"]


class CommentsHost(Protocol):
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

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None: ...

    def run_worker(
        self,
        work: Callable[[], Coroutine[Any, Any, Any]],
        name: str | None = "",
        group: str = "default",
        description: str = "",
        exit_on_error: bool = True,
        start: bool = True,
        exclusive: bool = False,
        thread: bool = False,
    ) -> Worker[Any]: ...

    def set_interval(self, interval: float, callback: Any = None) -> Timer: ...

    def call_after_refresh(self, callback: Any, *args: Any, **kwargs: Any) -> bool: ...

    def call_later(self, callback: Any, *args: Any, **kwargs: Any) -> bool: ...

    def run_action(self, action: str) -> Any: ...
