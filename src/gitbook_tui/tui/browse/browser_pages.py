"""BrowserPages: the browser's page pane — opening a page (from the cache first, then the
server's answer), showing it under its header, failures kept in the pane's banner, and
the page history (``alt+left``/``backspace``, ``alt+right``).

A helper the browser screen holds (``screen.pages``), reaching it through
:class:`PagesHost`; the reads are :class:`.page_loader.PageLoader`'s,
:class:`.space_files.SpaceFiles`' and :mod:`.browse_reads`' (no Textual there).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Protocol

from ...api import APIConnectionError, AsyncGitBook, GitBookError
from ..common.error_banner import ErrorBanner
from ..common.failure import describe_failure
from ..common.freshness import Freshness
from ..common.navigator import navigator_of
from ..common.status_bar import StatusBar
from ..common.text import plain
from .browse_reads import page_id_at_path, read_space
from .browser_counts import BrowserCommentCounts
from .browser_host import BrowserHost
from .browser_links import notify_unexpected
from .link_follower import LinkFollower
from .page_history import PageHistory
from .page_loader import LoadedPage, PageLoader
from .pane_layout import PaneLayout
from .space_files import SpaceFiles
from .tree.workspace_tree import page_key, space_key

if TYPE_CHECKING:
    from ...models import RevisionPage
    from ..render.viewport import ReadingPosition

__all__ = ["BrowserPages", "PagesHost"]


def _marker(loaded: LoadedPage) -> str:
    """ "at revision 1a2b3c4d (2025-03-14)" for a page shown at a past revision, else ""."""
    if not loaded.revision:
        return ""
    when = f" ({loaded.revision_at:%Y-%m-%d %H:%M})" if loaded.revision_at else ""
    return f"at revision {loaded.revision[:8]}{when}"


class PagesHost(BrowserHost, Protocol):
    """What the page pane needs of the browser screen, beyond :class:`BrowserHost`."""

    @property
    def status(self) -> StatusBar: ...

    def save_state(self) -> None: ...
    def show_org(self) -> None:
        """The status bar names the organization shown."""
        ...


class BrowserPages:
    """Loading and showing pages in the browser's page pane (see the module)."""

    def __init__(
        self,
        host: PagesHost,
        client: AsyncGitBook,
        *,
        files: SpaceFiles,
        follower: LinkFollower,
        panes: PaneLayout,
        counts: BrowserCommentCounts,
        banner: ErrorBanner,
    ) -> None:
        self._host = host
        self._client = client
        self._files = files
        self._follower = follower
        self._panes = panes
        self._counts = counts
        self.banner = banner
        self.loader = PageLoader(client)
        self.history = PageHistory()
        self.current: tuple[str, str] | None = None
        """(space id, page id) of the page shown."""
        self.page: RevisionPage | None = None
        self.revision: str | None = None
        """The past revision the open page is shown at (None: its current text)."""
        self._shown_markdown: str | None = None

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
            self.history.remember(self._host.viewer.position)
            if revision is None:
                self.history.visit((space_id, page_id))
        self.load_page(space_id, page_id, anchor, None, revision)

    def open_page_at_path(self, space_id: str, path: str, anchor: str | None) -> None:
        """Open the page at ``path`` of the space (a link the tree does not know yet)."""
        self._host.run_worker(
            partial(self._open_page_at_path, space_id, path, anchor),
            name="open_path",
            group="browser-link",
            exclusive=True,
            exit_on_error=False,
        )

    async def _open_page_at_path(self, space_id: str, path: str, anchor: str | None) -> None:
        try:
            page_id = await page_id_at_path(self._client, space_id, path)
        except (GitBookError, ValueError):  # not found, or not a path of plain segments
            self._host.notify(
                plain(f"Broken link: no page at {path}"), severity="warning", markup=False
            )
            return
        except Exception as exc:
            notify_unexpected(self._host, f"Could not follow the link to {path}", exc)
            return
        self.open_page(space_id, page_id, anchor)

    def load_page(
        self,
        space_id: str,
        page_id: str,
        anchor: str | None,
        position: ReadingPosition | None = None,
        revision: str | None = None,
    ) -> None:
        """Read and show a page (at a past ``revision``) in a worker; opening another page
        cancels it, and with it a retry wait of the client (a rate limit) under way."""
        self._host.run_worker(
            partial(self._load_page, space_id, page_id, anchor, position, revision),
            name="load_page",
            group="browser-page",
            exclusive=True,
            exit_on_error=False,
        )

    async def _load_page(
        self,
        space_id: str,
        page_id: str,
        anchor: str | None,
        position: ReadingPosition | None,
        revision: str | None,
    ) -> None:
        """Any failure (the client's, or a bug) is shown in the page pane's banner with
        ``r`` to retry."""
        try:
            await self._read_page(space_id, page_id, anchor, position, revision)
        except Exception as exc:
            if isinstance(exc, APIConnectionError):
                self._host.status.show_freshness(Freshness.offline(None))
            self.page_failed(
                "Could not open the page",
                exc,
                retry=partial(self.load_page, space_id, page_id, anchor, position, revision),
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
        files = asyncio.ensure_future(self._files.load(space_id))
        try:
            if revision is not None:
                loaded = await self.loader.load_at(space_id, page_id, revision)
            else:
                loaded = await self.loader.load(space_id, page_id)
        except BaseException:
            files.cancel()
            raise
        tree = self._host.workspace_tree
        if not tree.is_loaded(space_key(space_id)):
            try:
                space = await read_space(self._client, space_id)
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
        update = await self.loader.refreshed(loaded)
        if update is None:
            return
        self._host.status.show_freshness(update.freshness)
        if update.page is not loaded.page and self.current == (space_id, page_id):
            self._present(space_id, update, None)

    async def show_cached(self, space_id: str, page_id: str) -> None:
        """The page as cached, shown at once (a warm start); nothing when it is not."""
        try:
            loaded = await self.loader.load(space_id, page_id, read="cache-only")
        except Exception:  # not cached, unreadable or a bug: the page loads from the server
            return
        await self._files.load(space_id, read="cache-only")
        if self._host.leaving:
            return
        self.history.visit((space_id, page_id))
        self._present(space_id, loaded, None)

    # -- errors of the page pane -------------------------------------------------------------
    def page_failed(
        self, what: str, exc: BaseException, *, retry: Callable[[], object] | None = None
    ) -> None:
        """Show in the page pane's banner that ``what`` failed, why and on which server;
        ``r`` (the page pane focused) runs ``retry``. It stays until a page is shown."""
        if self._host.leaving:
            return
        error = exc if isinstance(exc, GitBookError) else describe_failure(exc)
        self._host.notify(
            plain(f"{what}: {describe_failure(exc)}"), title="Page", severity="error", markup=False
        )
        self.banner.show_error(what, error, server=self._client.base_url, retry=retry)

    def _present(
        self,
        space_id: str,
        loaded: LoadedPage,
        anchor: str | None,
        position: ReadingPosition | None = None,
    ) -> None:
        host = self._host
        page = loaded.page
        self.banner.clear()
        host.status.show_freshness(loaded.freshness)
        if self.current != (space_id, page.id):
            self._follower.page_changed()
            host.refresh_bindings()  # ``e`` follows the open page's space
        first = self.current is None
        self.current = (space_id, page.id)
        self.revision = loaded.revision or None
        self.page = page
        if first:
            self._panes.layout()  # (a narrow screen's tree made way for nothing until now)
        tree = host.workspace_tree
        tree.context_space = space_id
        # org / collections / space / parent pages / the page's title
        chain = tree.trail(page_key(space_id, page.id))
        if not chain or chain[-1].key != page_key(space_id, page.id):
            chain = [*tree.trail(space_key(space_id))]
        else:
            chain = chain[:-1]
        header_trail = [*(d.title for d in chain), page.title or "Untitled"]
        host.header.show_page(
            header_trail,
            title=page.title or "Untitled",
            emoji=page.emoji,
            description=page.description,
            updated=page.updatedAt,
            marker=_marker(loaded),
        )
        self._counts.count_comments(space_id)
        markdown = page.markdown or ""
        if markdown != self._shown_markdown or anchor:
            self._shown_markdown = markdown
            host.viewer.show(
                loaded.document,
                anchor=anchor,
                files=self._files.infos(space_id),
                titles=self._follower.page_title,
                rest=loaded.rest,
                share=loaded.share,
            )
        if position is not None:
            host.viewer.restore_position(position)
        nav = navigator_of(host.app)
        if nav is not None:
            nav.space_id = space_id
            data = tree.node_data(space_key(space_id))
            if data is not None and data.org_id:
                nav.organization_id = data.org_id
        host.show_org()
        host.save_state()

    # -- history ------------------------------------------------------------------------------
    def back(self) -> None:
        """The previous page, where the reader left it (scroll and chosen link); from a
        past revision of a page, the current page's text."""
        history = self.history
        if self.revision is not None and self.current is not None:
            here = history.current == self.current
            history.visit(self.current)
            self.load_page(*self.current, None, history.position if here else None)
            return
        history.remember(self._host.viewer.position)
        entry = history.back()
        if entry is not None:
            self.load_page(*entry, None, history.position)
        else:
            self._host.notify("No earlier page", timeout=2)

    def forward(self) -> None:
        history = self.history
        history.remember(self._host.viewer.position)
        entry = history.forward()
        if entry is not None:
            self.load_page(*entry, None, history.position)
        else:
            self._host.notify("No later page", timeout=2)
