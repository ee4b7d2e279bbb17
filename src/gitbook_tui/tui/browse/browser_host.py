"""BrowserHost: what the browser screen's helpers (pages, counts, links, intents, start)
need of the screen — its panes, the open page, and running work on it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from textual.app import App
from textual.notifications import SeverityLevel
from textual.widget import Widget
from textual.worker import Worker

from .page_header import PageHeader
from .page_viewer import PageViewer
from .tree.workspace_tree import WorkspaceTree

__all__ = ["BrowserHost"]


class BrowserHost(Protocol):
    """The browser screen as its helpers see it."""

    @property
    def app(self) -> App[Any]: ...
    @property
    def focused(self) -> Widget | None: ...
    @property
    def leaving(self) -> bool:
        """Whether the screen is being removed (a query could fail)."""
        ...

    @property
    def workspace_tree(self) -> WorkspaceTree: ...
    @property
    def viewer(self) -> PageViewer: ...
    @property
    def header(self) -> PageHeader: ...
    @property
    def current_page(self) -> tuple[str, str] | None: ...

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None: ...
    def call_after_refresh(
        self, callback: Callable[..., Any], *args: Any, **kwargs: Any
    ) -> bool: ...
    def refresh_bindings(self) -> None: ...
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
