"""ScreenHost: what the parts a screen (or pane) is composed of may ask of it — notices, workers, timers, later calls."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from textual.notifications import SeverityLevel
from textual.timer import Timer
from textual.worker import Worker

__all__ = ["ScreenHost"]


class ScreenHost(Protocol):
    """Textual's own methods of a screen or widget that its helper objects call; each
    feature's host Protocol adds what is its own (its widgets, its state)."""

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
        work: Any,
        name: str | None = "",
        group: str = "default",
        description: str = "",
        exit_on_error: bool = True,
        start: bool = True,
        exclusive: bool = False,
        thread: bool = False,
    ) -> Worker[Any]: ...

    def call_after_refresh(
        self, callback: Callable[..., Any], *args: Any, **kwargs: Any
    ) -> bool: ...

    def call_later(self, callback: Callable[..., Any], *args: Any, **kwargs: Any) -> bool: ...

    def refresh_bindings(self) -> None: ...

    def set_interval(self, interval: float, callback: Any = None) -> Timer: ...
