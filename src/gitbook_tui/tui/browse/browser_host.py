"""BrowserHost: what the browser screen's helpers (pages, counts, links, intents, start)
need of the screen — its panes, the open page, and running work on it."""

from __future__ import annotations

from typing import Any, Protocol

from textual.app import App
from textual.widget import Widget

from ..common.screen_host import ScreenHost
from .page_header import PageHeader
from .page_viewer import PageViewer
from .tree.workspace_tree import WorkspaceTree

__all__ = ["BrowserHost"]


class BrowserHost(ScreenHost, Protocol):
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
