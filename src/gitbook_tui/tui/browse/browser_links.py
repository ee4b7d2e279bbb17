"""BrowserLinks: links in the browser — a page's links and the tree's link pages followed
(see :mod:`.link_follower`), ``o`` opening the last external link offered and ``y``
copying the page's URL, after reading the space's files again when their signed download
URLs may have expired (see :mod:`.space_files`).

A mixin for :class:`.browser_screen.BrowserScreen`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from textual import on, work

from ..common.link_targets import copy_link, open_in_browser, open_in_web_page
from .link_follower import LinkFollower
from .page_viewer import PageViewer
from .pane_layout import PaneLayout
from .space_files import SpaceFiles
from .tree.workspace_tree import WorkspaceTree

__all__ = ["BrowserLinks"]


class BrowserLinks(PaneLayout):
    """Following, opening and copying links (see the module)."""

    files: SpaceFiles
    _links: LinkFollower
    _current: tuple[str, str] | None

    if TYPE_CHECKING:  # provided by the screen

        def _unexpected(self, what: str, exc: BaseException) -> None: ...

    @on(PageViewer.LinkActivated)
    def _link_activated(self, event: PageViewer.LinkActivated) -> None:
        event.stop()
        self.follow_link(event.href)

    def follow_link(self, href: str) -> None:
        """Act on a link of the open page (see the module docstring)."""
        self._links.follow(href)

    @on(WorkspaceTree.LinkSelected)
    def _tree_link(self, event: WorkspaceTree.LinkSelected) -> None:
        event.stop()
        self._links.tree_link(event.url)

    def action_open_link(self) -> None:
        self._with_fresh_files(self._open_link)

    def _open_link(self) -> None:
        url = self._links.link_to_open()
        if url is None:
            return
        # (url passed the link checks: what is shown here is what is opened or copied)
        if open_in_web_page(self.app, url) or open_in_browser(url):
            self.notify("Opened " + url, timeout=3, markup=False)
        else:
            copy_link(self.app, url)
            self.notify("No browser here; copied " + url, timeout=5, markup=False)

    def action_copy_url(self) -> None:
        self._with_fresh_files(self._links.copy_url)

    def _with_fresh_files(self, then: Callable[[], None]) -> None:
        """Run ``then`` (open or copy a link) — after reading the space's files again
        when their signed download URLs may have expired (see :mod:`.space_files`)."""
        current = self._current
        if current is not None and self.files.is_stale(current[0]):
            self._refresh_files(current[0], then)
        else:
            then()

    @work(exclusive=True, exit_on_error=False, group="browser-files")
    async def _refresh_files(self, space_id: str, then: Callable[[], None]) -> None:
        try:
            await self.files.refresh_if_stale(space_id)
        except Exception as exc:
            self._unexpected("Could not read the space's files again", exc)
        then()
