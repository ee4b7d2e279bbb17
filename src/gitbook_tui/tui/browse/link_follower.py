"""LinkFollower: what the browser does with a link of the open page or of the tree.

``/pages/<id>`` and relative ``.md`` paths open that page of the space; ``#anchor`` scrolls
to the heading; http(s) links are only *offered* — ``o`` opens the last one in a browser
(the screen does, or copies it when there is no browser), ``y`` copies the page's URL (OSC 52); other schemes are
refused. With no link chosen, ``o`` opens the page itself. A URL with control or bidi
characters is refused with a message wherever it comes from (page, tree, the page's own
URL, a file's download URL): it never reaches the opener or the clipboard, and what is
shown, opened and copied is one string. Link classification lives in
:mod:`..common.link_targets`. The screen is reached through :class:`LinkHost`.
"""

from __future__ import annotations

from typing import Any, Protocol

from textual.app import App
from textual.widget import Widget

from ...models import RevisionPage
from ..common.link_targets import LinkTarget, classify_link, copy_link
from ..common.screen_host import ScreenHost
from ..common.text import plain
from .page_viewer import PageViewer
from .space_files import SpaceFiles
from .tree.model import page_key
from .tree.workspace_tree import WorkspaceTree

__all__ = ["LinkFollower", "LinkHost"]


class LinkHost(ScreenHost, Protocol):
    """What the link follower needs of the screen showing the page (the browser screen)."""

    files: SpaceFiles

    @property
    def app(self) -> App[Any]: ...
    @property
    def focused(self) -> Widget | None: ...
    @property
    def page(self) -> RevisionPage | None: ...
    @property
    def current_page(self) -> tuple[str, str] | None: ...
    @property
    def viewer(self) -> PageViewer: ...
    @property
    def workspace_tree(self) -> WorkspaceTree: ...

    def open_page(self, space_id: str, page_id: str, anchor: str | None = None) -> None: ...
    def open_page_at_path(self, space_id: str, path: str, anchor: str | None) -> object:
        """Open the page at ``path`` of the space (looked up in a worker), or say it is missing."""
        ...


class LinkFollower:
    """Follows links for a :class:`LinkHost` and remembers the last external one."""

    def __init__(self, screen: LinkHost) -> None:
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

    def page_title(self, href: str) -> str | None:
        """The title of the page of the space ``href`` leads to, if the tree knows it
        (what mentions, content refs and cards show instead of a file name)."""
        screen = self._screen
        current = screen.current_page
        if current is None:
            return None
        target = self._classify(href)
        tree = screen.workspace_tree
        node = None
        if target.kind == "path":
            node = tree.page_at_git_path(current[0], target.file) or tree.page_at_path(
                current[0], target.path
            )
        elif target.kind == "page":
            node = tree.node_data(page_key(current[0], target.page_id))
        title = getattr(node, "title", None)
        return title if isinstance(title, str) and title else None

    def follow(self, href: str) -> None:
        """Act on a link of the open page (see the module docstring)."""
        screen = self._screen
        current = screen.current_page
        target = self._classify(href)
        if target.kind == "external":
            self.offer_external(target.url)
        elif target.kind == "refused":
            self._refuse(target)
        elif target.kind == "anchor" and target.anchor:
            if not screen.viewer.scroll_to_anchor(target.anchor):
                screen.notify(
                    plain(f"No heading #{target.anchor} on this page"), timeout=3, markup=False
                )
        elif current is None:
            return
        elif target.kind == "page":
            screen.open_page(current[0], target.page_id, target.anchor)
        elif target.kind == "path":
            tree = screen.workspace_tree
            node = tree.page_at_git_path(current[0], target.file) or tree.page_at_path(
                current[0], target.path
            )
            if node is not None:
                screen.open_page(current[0], node.id, target.anchor)
            else:
                screen.open_page_at_path(current[0], target.path, target.anchor)
        elif target.kind == "file":
            raw = screen.files.download_url(current[0], target.path) or ""
            download = self._external(raw) if raw else None
            if download is not None:
                self.offer_external(download)
            elif not raw:
                screen.notify(
                    plain(f"{target.path} is a file: open it in GitBook"), timeout=4, markup=False
                )
        else:
            screen.notify(plain(f"Broken link: {href}"), severity="warning", markup=False)

    def offer_external(self, url: str) -> None:
        """Remember ``url`` for ``o`` and say so."""
        self.pending_url = url
        self._screen.notify(
            "press o to open " + plain(url),
            title="External link",
            timeout=6,
            markup=False,
        )

    def tree_link(self, url: str) -> None:
        """A link entry of the tree was chosen: offered if http(s), else refused."""
        external = self._external(url)
        if external is not None:
            self.offer_external(external)

    def _refuse(self, target: LinkTarget) -> None:
        """Say why a link is not opened (the URL is shown only when it is safe to)."""
        if target.reason:
            message = f"Refused a link: {target.reason}"
        else:
            message = f"Refused to open a {target.scheme}: link"
        self._screen.notify(plain(message), title="Link", severity="warning", markup=False)

    def _external(self, url: str) -> str | None:
        """``url`` when it may be opened (http(s), no control/bidi characters); else
        None after saying why."""
        target = classify_link(url, "", False)
        if target.kind == "external":
            return target.url
        if target.kind == "refused":
            self._refuse(target)
        else:
            self._screen.notify(
                plain(f"Refused to open {url}: not an http(s) link"),
                title="Link",
                severity="warning",
                markup=False,
            )
        return None

    def link_to_open(self) -> str | None:
        """``o``: the link entry under the tree cursor, the link chosen in the page (tab),
        the last link offered, else the open page's own URL — if it is http(s) (else
        None, and the user is told why)."""
        screen = self._screen
        url = None
        if screen.focused is screen.workspace_tree:
            node = screen.workspace_tree.cursor_node
            if node is not None and node.data is not None and node.data.kind == "link":
                url = node.data.url
        elif screen.focused is screen.viewer:
            url = self.chosen_url()
        url = url or self.pending_url or self._page_url()
        if not url:
            screen.notify("No link to open: choose a link first (enter), then press o", timeout=4)
            return None
        return self._external(url)

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
            return screen.files.download_url(current[0], target.path)
        return None

    def page_changed(self) -> None:
        """Another page is shown: a link offered on the previous one is forgotten."""
        self.pending_url = None

    def _page_url(self) -> str | None:
        page = self._screen.page
        return page.urls.app if page is not None and page.urls is not None else None

    def copy_url(self) -> None:
        """``y``: copy the URL of the link chosen in the page (tab), else of the page —
        refused (with a message) when it holds control or bidi characters."""
        screen = self._screen
        chosen = self.chosen_url() if screen.focused is screen.viewer else None
        url = chosen or self._page_url()
        if not url:
            screen.notify("No page open", timeout=2)
            return
        checked = self._external(url)
        if checked is None:
            return
        copy_link(screen.app, checked)
        screen.notify("Copied " + checked, timeout=3, markup=False)
