"""LoadingProvider: a palette provider whose data comes from the server, never holding others back."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from textual.command import CommandInput, CommandPalette, Provider
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.style import Style
from textual.widgets import Input

from .navigator import Navigator, navigator_of

__all__ = ["LoadingProvider", "NavigatorProvider"]

log = logging.getLogger("gitbook_tui.tui.commands")


class NavigatorProvider(Provider):
    @property
    def navigator(self) -> Navigator | None:
        return navigator_of(self.app)


class LoadingProvider(NavigatorProvider):
    """A provider whose data comes from the server, loaded once in a task of its own.

    Textual awaits ``startup`` from inside the palette's search, and the palette cancels
    that search on every key press; a cancelled await of the startup task cancels the
    startup itself (and Textual then never searches this provider again for this
    opening). So ``startup`` only starts the load; ``search`` never waits for it (see
    :meth:`_loaded`), and :meth:`ready` waits with :func:`asyncio.wait`, which a cancelled
    wait leaves running. Subclasses implement ``_load`` and start ``search`` with
    ``if not await self._loaded(): return``.
    """

    def __init__(self, screen: Screen[Any], match_style: Style | None = None) -> None:
        super().__init__(screen, match_style)
        self._loading: asyncio.Task[None] | None = None
        self._search_again = False  # a search ran before the data arrived

    async def _load(self) -> None:
        """Fetch the data (logging, never raising, what the server refuses)."""
        raise NotImplementedError

    async def _load_logged(self) -> None:
        # A failure nobody foresaw is logged too, not left in a task nobody awaits.
        try:
            await self._load()
        except Exception:
            log.exception("%s: data for the command palette", type(self).__name__)

    async def startup(self) -> None:
        if self._loading is None:
            self._loading = asyncio.create_task(
                self._load_logged(), name=f"{type(self).__name__} palette data"
            )
            self._loading.add_done_callback(self._arrived)

    async def ready(self) -> bool:
        """Wait for the data; ``False`` when it will never come (load cancelled)."""
        await self.startup()
        task = self._loading
        assert task is not None
        if not task.done():
            # Not ``await task``: cancelling this wait must not cancel the load.
            await asyncio.wait({task})
        return not task.cancelled()

    async def _loaded(self) -> bool:
        """Whether the data is here. While it loads, a search yields nothing at once: the
        palette shows what it has only when every provider's search has ended (or the
        next hit comes), so waiting here would hold the app's own commands back until the
        server answered. The palette searches again when the data arrives."""
        await self.startup()
        task = self._loading
        assert task is not None
        if not task.done():
            self._search_again = True
            return False
        return not task.cancelled()

    def _arrived(self, task: asyncio.Task[None]) -> None:
        """The data came while a search went without it: search the typed query again."""
        if task.cancelled() or not self._search_again:
            return
        self._search_again = False
        palette = self.app.screen
        if not isinstance(palette, CommandPalette):
            return
        try:
            field = palette.query_one(CommandInput)
        except NoMatches:
            return
        field.post_message(Input.Changed(field, field.value))

    async def shutdown(self) -> None:
        # The palette closed: nobody will search its data any more.
        if self._loading is not None and not self._loading.done():
            self._loading.cancel()
