"""BrowserStartup: how the browser starts — warm (the remembered tree and page from the
cache only, in the first frame), then the network after it: the tree refreshed, the
signed-in user's name, the ``gitbook-tui open`` target or the remembered page read again.

A helper the browser screen holds (``screen.startup``), reaching it through
:class:`StartHost`; the reads are :mod:`.browse_reads`' and :mod:`.browser_start`'s.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Protocol

from textual.content import Content
from textual.dom import DOMNode

from ...api import AsyncGitBook, GitBookError
from ..common.state import AccountState, StartTarget
from ..common.status_bar import StatusBar
from .browse_reads import signed_in_names
from .browser_host import BrowserHost
from .browser_links import notify_unexpected
from .browser_pages import BrowserPages
from .browser_start import resolve_start
from .pane_layout import PaneLayout
from .tree.workspace_tree import org_key, page_key

__all__ = ["BrowserStartup", "StartHost"]


class StartHost(BrowserHost, Protocol):
    """What the start needs of the browser screen, beyond :class:`BrowserHost`."""

    @property
    def status(self) -> StatusBar: ...

    def show_org(self) -> None: ...
    def watch(
        self, obj: DOMNode, attribute_name: str, callback: Any, init: bool = True
    ) -> None: ...


class BrowserStartup:
    """The browser's start (see the module)."""

    def __init__(
        self,
        host: StartHost,
        client: AsyncGitBook,
        *,
        org_id: str | None,
        state: AccountState,
        start: StartTarget | None,
        pages: BrowserPages,
        panes: PaneLayout,
    ) -> None:
        self._host = host
        self._client = client
        self._org_id = org_id
        self._state = state
        self._start = start
        self._pages = pages
        self._panes = panes

    async def mount(self) -> None:
        """Warm start: the remembered tree (and page) come from the cache only, so they
        are in the first frame; the network starts after it."""
        host = self._host
        if host.leaving:  # removed while it composed (the app closing at once)
            return
        host.status.follow(self._client)
        host.header.show_message(
            Content.styled("Choose a page in the tree (enter).", "$text-muted")
        )
        expanded = list(self._state.expanded)
        if not expanded and self._org_id is not None:
            expanded = [org_key(self._org_id)]
        tree = host.workspace_tree
        # the tree's pane follows its widest title as nodes open and load
        host.watch(tree, "virtual_size", lambda _size: self._panes.fit_tree(), init=False)
        await tree.warm_start(expanded, self._state.selected)
        # Each await lets the app run on: the screen may have been switched away (a second
        # show_browser) or the app closed meanwhile, its widgets removed child first — a
        # query then fails (NoMatches 'Breadcrumb' in tests under load).
        if host.leaving:
            return
        host.show_org()
        tree.focus()
        self._panes.layout()
        if self._start is None and self._state.page:
            space_id, page_id = self._state.page
            await self._pages.show_cached(space_id, page_id)
            if host.leaving:
                return
        host.call_after_refresh(self._after_first_frame)

    def _after_first_frame(self) -> None:
        host = self._host
        if host.leaving:
            return
        host.workspace_tree.start_refresh()
        host.run_worker(
            self._load_user,
            name="load_user",
            group="browser-user",
            exclusive=True,
            exit_on_error=False,
        )
        if self._start is not None:
            self.open_start(self._start)
        elif self._pages.current is not None:
            self._pages.load_page(*self._pages.current, None)

    async def _load_user(self) -> None:
        status = self._host.status
        try:
            async for name in signed_in_names(self._client):
                status.set_user(name)
        except GitBookError:
            return  # the status bar goes without the name; the panes say what failed
        except Exception as exc:
            notify_unexpected(self._host, "Could not read the signed-in user", exc)

    def open_start(self, target: StartTarget) -> None:
        """``gitbook-tui open``: reveal the space (and page) in the tree and open it."""
        self._host.run_worker(
            partial(self._open_start, target),
            name="open_start",
            group="browser-reveal",
            exclusive=True,
            exit_on_error=False,
        )

    async def _open_start(self, target: StartTarget) -> None:
        host = self._host
        try:
            found = await resolve_start(self._client, host.workspace_tree, target, host.notify)
        except Exception as exc:
            self._pages.page_failed(
                f"Could not open {target.space_id}",
                exc,
                retry=partial(self.open_start, target),
            )
            return
        if found is not None:
            host.workspace_tree.select_key(page_key(*found))
            self._pages.open_page(*found)
