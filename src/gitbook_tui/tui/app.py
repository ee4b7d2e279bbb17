"""GitBookApp: the Textual application (thin: screens do the work)."""

from __future__ import annotations

from textual.app import App

from ..api import AsyncGitBook
from .screens.space_list_screen import SpaceListScreen


class GitBookApp(App[None]):
    """The gitbook-tui application."""

    CSS_PATH = "app.tcss"
    TITLE = "gitbook-tui"

    def __init__(self, client: AsyncGitBook) -> None:
        super().__init__()
        self.client = client

    def on_mount(self) -> None:
        self.push_screen(SpaceListScreen(self.client))

    async def on_unmount(self) -> None:
        await self.client.close()
