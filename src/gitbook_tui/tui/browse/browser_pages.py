"""BrowserPages: the browser's page pane — opening a page (from the cache first, then the
server's answer), showing it under its header, failures kept in the pane's banner, and
the page history (``alt+left``/``backspace``, ``alt+right``).

A mixin for :class:`.browser_screen.BrowserScreen`, which makes the panes and the state
this reads.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from textual import work

from ...api import APIConnectionError, AsyncGitBook, GitBookError
from ...models import RevisionPage
from ..common.error_banner import ErrorBanner
from ..common.failure import describe_failure
from ..common.freshness import Freshness
from ..common.navigator import navigator_of
from ..common.status_bar import StatusBar
from ..common.text import plain
from ..render.viewport import ReadingPosition
from ..textual_compat import is_leaving
from .link_follower import LinkFollower
from .page_header import PageHeader
from .page_history import PageHistory
from .page_loader import LoadedPage, PageLoader
from .pane_layout import PaneLayout
from .space_files import SpaceFiles
from .tree.workspace_tree import page_key, space_key

__all__ = ["BrowserPages"]


def _marker(loaded: LoadedPage) -> str:
    """ "at revision 1a2b3c4d (2025-03-14)" for a page shown at a past revision, else ""."""
    if not loaded.revision:
        return ""
    when = f" ({loaded.revision_at:%Y-%m-%d %H:%M})" if loaded.revision_at else ""
    return f"at revision {loaded.revision[:8]}{when}"


class BrowserPages(PaneLayout):
    """Loading and showing pages in the browser's page pane (see the module)."""

    client: AsyncGitBook
    files: SpaceFiles
    _pages: PageLoader
    _history: PageHistory
    _links: LinkFollower
    _page_banner: ErrorBanner
    _current: tuple[str, str] | None
    _page: RevisionPage | None
    _shown_markdown: str | None
    _revision: str | None
    """The past revision the open page is shown at (None: its current text)."""

    if TYPE_CHECKING:  # provided by the screen

        @property
        def header(self) -> PageHeader: ...
        @property
        def status(self) -> StatusBar: ...
        def save_state(self) -> None: ...
        def _update_org(self) -> None: ...
        def count_comments(self, space_id: str) -> None: ...

    # -- pages ------------------------------------------------------------------------------
    def open_page(
        self,
        space_id: str,
        page_id: str,
        anchor: str | None = None,
        *,
        record: bool = True,
        revision: str | None = None,
    ) -> None:
        """Show a page (remembered in the history unless ``record`` is False); ``revision``:
        as it was at that past revision of the space (not in the history: ``backspace``
        comes back to its current text)."""
        if record:
            self._history.remember(self.viewer.position)
            if revision is None:
                self._history.visit((space_id, page_id))
        self._load_page(space_id, page_id, anchor, None, revision)

    @work(exclusive=True, exit_on_error=False, group="browser-link", name="open_path")
    async def open_page_at_path(self, space_id: str, path: str, anchor: str | None) -> None:
        """Open the page at ``path`` of the space (a link the tree does not know yet)."""
        try:
            page = await self.client.content.page_by_path(space_id, path, read="prefer-cache")
        except (GitBookError, ValueError):  # not found, or not a path of plain segments
            self.notify(plain(f"Broken link: no page at {path}"), severity="warning", markup=False)
            return
        except Exception as exc:
            self._unexpected(f"Could not follow the link to {path}", exc)
            return
        self.open_page(space_id, page.id, anchor)

    @work(exclusive=True, exit_on_error=False, group="browser-page")
    async def _load_page(
        self,
        space_id: str,
        page_id: str,
        anchor: str | None,
        position: ReadingPosition | None = None,
        revision: str | None = None,
    ) -> None:
        """Read and show a page (at a past ``revision``); any failure (the client's, or a bug) is shown in the page
        pane's banner with ``r`` to retry. Opening another page cancels this worker, and
        with it a retry wait of the client (a rate limit) under way."""
        try:
            await self._read_page(space_id, page_id, anchor, position, revision)
        except Exception as exc:
            if isinstance(exc, APIConnectionError):
                self.status.show_freshness(Freshness.offline(None))
            self.page_failed(
                "Could not open the page",
                exc,
                retry=partial(self._load_page, space_id, page_id, anchor, position, revision),
            )

    async def _read_page(
        self,
        space_id: str,
        page_id: str,
        anchor: str | None,
        position: ReadingPosition | None,
        revision: str | None = None,
    ) -> None:
        # the space's files (placeholder details) load alongside the page, not after it
        files = asyncio.ensure_future(self.files.load(space_id))
        try:
            if revision is not None:
                loaded = await self._pages.load_at(space_id, page_id, revision)
            else:
                loaded = await self._pages.load(space_id, page_id)
        except BaseException:
            files.cancel()
            raise
        tree = self.workspace_tree
        if not tree.is_loaded(space_key(space_id)):
            try:
                space = await self.client.spaces.get(space_id, read="prefer-cache")
                await tree.reveal(space, page_id)
            except GitBookError:
                pass
        else:
            tree.select_key(page_key(space_id, page_id))
        await files
        self._present(space_id, loaded, anchor, position)
        if revision is not None:
            return  # a past revision never changes
        # a page shown from the cache is re-shown if the server's answer differs
        update = await self._pages.refreshed(loaded)
        if update is None:
            return
        self.status.show_freshness(update.freshness)
        if update.page is not loaded.page and self._current == (space_id, page_id):
            self._present(space_id, update, None)

    # -- errors of the page pane -------------------------------------------------------------
    @property
    def page_banner(self) -> ErrorBanner:
        return self._page_banner

    def page_failed(
        self, what: str, exc: BaseException, *, retry: Callable[[], object] | None = None
    ) -> None:
        """Show in the page pane's banner that ``what`` failed, why and on which server;
        ``r`` (the page pane focused) runs ``retry``. It stays until a page is shown."""
        if is_leaving(self):
            return
        error = exc if isinstance(exc, GitBookError) else describe_failure(exc)
        self.notify(
            plain(f"{what}: {describe_failure(exc)}"), title="Page", severity="error", markup=False
        )
        self.page_banner.show_error(what, error, server=self.client.base_url, retry=retry)

    @property
    def page_error(self) -> bool:
        """Whether the page pane shows an error (``r`` retries it)."""
        return self.page_banner.showing

    def _unexpected(self, what: str, exc: BaseException) -> None:
        """A failure with no pane of its own: a notification that names it."""
        self.notify(
            plain(f"{what}: {describe_failure(exc)}"), title="Error", severity="error", markup=False
        )

    def _present(
        self,
        space_id: str,
        loaded: LoadedPage,
        anchor: str | None,
        position: ReadingPosition | None = None,
    ) -> None:
        page = loaded.page
        self.page_banner.clear()
        self.status.show_freshness(loaded.freshness)
        if self._current != (space_id, page.id):
            self._links.page_changed()
            self.refresh_bindings()  # ``e`` follows the open page's space
        first = self._current is None
        self._current = (space_id, page.id)
        self._revision = loaded.revision or None
        self._page = page
        if first:
            self._layout()  # (a narrow screen's tree made way for nothing until now)
        tree = self.workspace_tree
        tree.context_space = space_id
        # org / collections / space / parent pages / the page's title
        chain = tree.trail(page_key(space_id, page.id))
        if not chain or chain[-1].key != page_key(space_id, page.id):
            chain = [*tree.trail(space_key(space_id))]
        else:
            chain = chain[:-1]
        header_trail = [*(d.title for d in chain), page.title or "Untitled"]
        self.header.show_page(
            header_trail,
            title=page.title or "Untitled",
            emoji=page.emoji,
            description=page.description,
            updated=page.updatedAt,
            marker=_marker(loaded),
        )
        self.count_comments(space_id)
        markdown = page.markdown or ""
        if markdown != self._shown_markdown or anchor:
            self._shown_markdown = markdown
            self.viewer.show(
                loaded.document,
                anchor=anchor,
                files=self.files.infos(space_id),
                titles=self._links.page_title,
                rest=loaded.rest,
                share=loaded.share,
            )
        if position is not None:
            self.viewer.restore_position(position)
        nav = navigator_of(self.app)
        if nav is not None:
            nav.space_id = space_id
            data = tree.node_data(space_key(space_id))
            if data is not None and data.org_id:
                nav.organization_id = data.org_id
        self._update_org()
        self.save_state()

    # -- history ------------------------------------------------------------------------------
    def action_back(self) -> None:
        """The previous page, where the reader left it (scroll and chosen link); from a
        past revision of a page, the current page's text."""
        if self._revision is not None and self._current is not None:
            here = self._history.current == self._current
            self._history.visit(self._current)
            self._load_page(*self._current, None, self._history.position if here else None)
            return
        self._history.remember(self.viewer.position)
        entry = self._history.back()
        if entry is not None:
            self._load_page(*entry, None, self._history.position)
        else:
            self.notify("No earlier page", timeout=2)

    def action_forward(self) -> None:
        self._history.remember(self.viewer.position)
        entry = self._history.forward()
        if entry is not None:
            self._load_page(*entry, None, self._history.position)
        else:
            self.notify("No later page", timeout=2)
