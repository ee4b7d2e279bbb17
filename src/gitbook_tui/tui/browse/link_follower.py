"""LinkFollower: what the browser does with a link of the open page or of the tree.

``/pages/<id>`` and relative ``.md`` paths open that page of the space; ``#anchor`` scrolls
to the heading; http(s) links are only *offered* — ``o`` opens the last one in a browser
(the screen does, or copies it when there is no browser), ``y`` copies the page's URL (OSC 52); other schemes are
refused. With no link chosen, ``o`` opens the page itself. Link classification lives in :mod:`.links`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.content import Content

from ...api import GitBookError
from ..common.text import inert
from .link_targets import LinkTarget, classify_link, external_url

if TYPE_CHECKING:
    from .browser_screen import BrowserScreen

__all__ = ["LinkFollower"]


class LinkFollower:
    """Follows links for a :class:`BrowserScreen` and remembers the last external one."""

    def __init__(self, screen: BrowserScreen) -> None:
        self._screen = screen
        self.pending_url: str | None = None
        """The last external link offered (what ``o`` opens)."""

    def _classify(self, href: str) -> LinkTarget:
        """Where ``href`` leads from the open page."""
        page = self._screen.page
        return classify_link(
            href,
            (page.path or "") if page else "",
            bool(page.pages) if page else False,
            page.git.path if page is not None and page.git is not None else None,
        )

    def follow(self, href: str) -> None:
        """Act on a link of the open page (see the module docstring)."""
        screen = self._screen
        current = screen.current_page
        target = self._classify(href)
        if target.kind == "external":
            self.offer_external(target.url)
        elif target.kind == "refused":
            screen.notify(
                inert(f"Refused to open a {target.scheme}: link"),
                title="Link",
                severity="warning",
            )
        elif target.kind == "anchor" and target.anchor:
            if not screen.viewer.scroll_to_anchor(target.anchor):
                screen.notify(inert(f"No heading #{target.anchor} on this page"), timeout=3)
        elif current is None:
            return
        elif target.kind == "page":
            screen.open_page(current[0], target.page_id, target.anchor)
        elif target.kind == "path":
            tree = screen.tree
            node = tree.page_at_git_path(current[0], target.file) or tree.page_at_path(
                current[0], target.path
            )
            if node is not None:
                screen.open_page(current[0], node.id, target.anchor)
            else:
                screen.run_worker(
                    self._open_path(current[0], target.path, target.anchor),
                    name="open_path",
                    group="browser-link",
                    exclusive=True,
                    exit_on_error=False,
                )
        elif target.kind == "file":
            url = external_url(screen.files.download_url(current[0], target.path) or "")
            if url is not None:
                self.offer_external(url)
            else:
                screen.notify(inert(f"{target.path} is a file: open it in GitBook"), timeout=4)
        else:
            screen.notify(inert(f"Broken link: {href}"), severity="warning")

    async def _open_path(self, space_id: str, path: str, anchor: str | None) -> None:
        screen = self._screen
        try:
            page = await screen.client.content.page_by_path(space_id, path, read="prefer-cache")
        except GitBookError:
            screen.notify(inert(f"Broken link: no page at {path}"), severity="warning")
            return
        screen.open_page(space_id, page.id, anchor)

    def offer_external(self, url: str) -> None:
        """Remember ``url`` for ``o`` and say so."""
        self.pending_url = url
        self._screen.notify(
            Content("press o to open ") + inert(url),
            title="External link",
            timeout=6,
        )

    def tree_link(self, url: str) -> None:
        """A link entry of the tree was chosen: offered if http(s), else refused."""
        external = external_url(url)
        if external is not None:
            self.offer_external(external)
        else:
            self._screen.notify(inert(f"Refused to open the link {url}"), severity="warning")

    def link_to_open(self) -> str | None:
        """``o``: the link entry under the tree cursor, the link chosen in the page (tab),
        the last link offered, else the open page's own URL — if it is http(s) (else
        None, and the user is told why)."""
        screen = self._screen
        url = None
        if screen.focused is screen.tree:
            node = screen.tree.cursor_node
            if node is not None and node.data is not None and node.data.kind == "link":
                url = node.data.url
        elif screen.focused is screen.viewer:
            url = self.chosen_url()
        url = url or self.pending_url or self._page_url()
        if not url:
            screen.notify("No link to open: choose a link first (enter), then press o", timeout=4)
            return None
        external = external_url(url)
        if external is None:
            screen.notify(inert(f"Refused to open {url}"), severity="warning")
        return external

    def chosen_url(self) -> str | None:
        """The http(s) URL of the link chosen in the page (tab): an external link, or a
        file of the space (its download URL)."""
        screen = self._screen
        chosen = screen.viewer.focused_target
        href = chosen.target.href if chosen is not None else None
        if not href:
            return None
        current = screen.current_page
        target = self._classify(href)
        if target.kind == "external":
            return target.url
        if target.kind == "file" and current is not None:
            return external_url(screen.files.download_url(current[0], target.path) or "")
        return None

    def page_changed(self) -> None:
        """Another page is shown: a link offered on the previous one is forgotten."""
        self.pending_url = None

    def _page_url(self) -> str | None:
        page = self._screen.page
        return page.urls.app if page is not None and page.urls is not None else None

    def copy_url(self) -> None:
        """``y``: copy the URL of the link chosen in the page (tab), else of the page."""
        screen = self._screen
        chosen = self.chosen_url() if screen.focused is screen.viewer else None
        url = chosen or self._page_url()
        if not url:
            screen.notify("No page open", timeout=2)
            return
        screen.app.copy_to_clipboard(url)
        screen.notify(Content("Copied ") + inert(url), timeout=3)
