"""BrowserLinks: links in the browser — a page's links and the tree's link pages followed
(see :mod:`.link_follower`), ``o`` opening the last external link offered and ``y``
copying the page's URL, after reading the space's files again when their signed download
URLs may have expired (see :mod:`.space_files`).

A helper the browser screen holds (``screen.links``), reaching it through
:class:`.browser_host.BrowserHost`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from ..common.failure import describe_failure
from ..common.link_targets import copy_link, open_in_browser, open_in_web_page
from ..common.text import plain
from .browser_host import BrowserHost
from .link_follower import LinkFollower
from .space_files import SpaceFiles

__all__ = ["BrowserLinks", "notify_unexpected"]


def notify_unexpected(host: BrowserHost, what: str, exc: BaseException) -> None:
    """A failure with no pane of its own: a notification that names it."""
    host.notify(
        plain(f"{what}: {describe_failure(exc)}"), title="Error", severity="error", markup=False
    )


class BrowserLinks:
    """Following, opening and copying links (see the module)."""

    def __init__(self, host: BrowserHost, files: SpaceFiles, follower: LinkFollower) -> None:
        self._host = host
        self._files = files
        self.follower = follower

    def follow(self, href: str) -> None:
        """Act on a link of the open page (see :mod:`.link_follower`)."""
        self.follower.follow(href)

    def tree_link(self, url: str) -> None:
        self.follower.tree_link(url)

    def open_link(self) -> None:
        """``o``: the last external link offered (or the page) in a browser."""
        self._with_fresh_files(self._open_link)

    def copy_url(self) -> None:
        """``y``: the page's URL to the clipboard."""
        self._with_fresh_files(self.follower.copy_url)

    def _open_link(self) -> None:
        url = self.follower.link_to_open()
        if url is None:
            return
        host = self._host
        # (url passed the link checks: what is shown here is what is opened or copied)
        if open_in_web_page(host.app, url) or open_in_browser(url):
            host.notify("Opened " + url, timeout=3, markup=False)
        else:
            copy_link(host.app, url)
            host.notify("No browser here; copied " + url, timeout=5, markup=False)

    def _with_fresh_files(self, then: Callable[[], None]) -> None:
        """Run ``then`` (open or copy a link) — after reading the space's files again
        when their signed download URLs may have expired (see :mod:`.space_files`)."""
        current = self._host.current_page
        if current is not None and self._files.is_stale(current[0]):
            self._host.run_worker(
                partial(self._refresh_files, current[0], then),
                group="browser-files",
                exclusive=True,
                exit_on_error=False,
            )
        else:
            then()

    async def _refresh_files(self, space_id: str, then: Callable[[], None]) -> None:
        try:
            await self._files.refresh_if_stale(space_id)
        except Exception as exc:
            notify_unexpected(self._host, "Could not read the space's files again", exc)
        then()
