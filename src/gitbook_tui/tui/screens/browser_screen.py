"""BrowserScreen: the workspace tree on the left, the open page on the right.

Pages load in a worker with ``read="prefer-cache"`` (a cached page is shown at once and
re-shown when the background refresh brings a newer one). ``alt+left``/``backspace`` and
``alt+right`` walk the page history. Links of the page: ``/pages/<id>`` and relative
``.md`` paths open that page of the space; http(s) links are only *offered* — ``o`` opens
the last one in a browser, ``y`` copies the page's URL (OSC 52); other schemes are refused.
Link classification lives in :mod:`..links` (``LinkTarget`` and ``classify_link`` are
re-exported here for existing imports).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, Input

from ...api import APIConnectionError, AsyncGitBook, GitBookError, response_meta
from ...markdown import Document, parse
from ...models import RevisionPage
from ..links import LinkTarget, classify_link, external_url, open_in_browser
from ..navigation import navigator_of
from ..state import AccountState, StartTarget, StateStore
from ..text import inert
from ..widgets.page_header import PageHeader
from ..widgets.page_viewer import PageViewer
from ..widgets.status_bar import StatusBar
from ..widgets.workspace_tree import (
    ROOT,
    WorkspaceTree,
    org_key,
    page_key,
    space_key,
)

__all__ = ["BrowserScreen", "LinkTarget", "classify_link"]


class BrowserScreen(Screen[None]):
    """Tree + page pane + status bar + footer for one organization (or all)."""

    # The hidden filter input comes first in the layout; without this it would take the
    # first keys typed while the tree loads.
    AUTO_FOCUS = "#workspace-tree"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("alt+left,backspace", "back", "Back", id="browser.back"),
        Binding("alt+right", "forward", "Forward", id="browser.forward"),
        Binding("o", "open_link", "Open link", id="browser.open_link"),
        Binding("y", "copy_url", "Copy URL", id="browser.copy_url"),
        Binding("f6", "switch_focus", "Tree/page", id="browser.switch_focus"),
        Binding("ctrl+o", "switch_org", "Organizations", show=False, id="browser.switch_org"),
        Binding("escape", "escape", "Clear filter", show=False, id="browser.escape"),
    ]

    def __init__(
        self,
        client: AsyncGitBook,
        *,
        org_id: str | None,
        store: StateStore,
        account: str,
        state: AccountState | None = None,
        start: StartTarget | None = None,
        show_hidden: bool = False,
    ) -> None:
        super().__init__()
        self.client = client
        self.org_id = org_id
        self._store = store
        self._account = account
        self._state = state or AccountState()
        self._start = start
        self._show_hidden = show_hidden
        self._history: list[tuple[str, str]] = []
        self._history_index = -1
        self._current: tuple[str, str] | None = None
        self._page: RevisionPage | None = None
        self._shown_markdown: str | None = None
        self._pending_url: str | None = None

    # -- layout ----------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with Horizontal(id="browser-body"):
            with Vertical(id="browser-sidebar"):
                yield Input(placeholder="filter", id="tree-filter", select_on_focus=False)
                yield WorkspaceTree(
                    self.client,
                    org_id=self.org_id,
                    show_hidden=self._show_hidden,
                    id="workspace-tree",
                )
            with Vertical(id="browser-page"):
                yield PageHeader(id="page-header")
                yield PageViewer(id="page-viewer")
        yield StatusBar(id="status-bar")
        yield Footer()

    @property
    def tree(self) -> WorkspaceTree:
        return self.query_one(WorkspaceTree)

    @property
    def viewer(self) -> PageViewer:
        return self.query_one(PageViewer)

    @property
    def header(self) -> PageHeader:
        return self.query_one(PageHeader)

    @property
    def status(self) -> StatusBar:
        return self.query_one(StatusBar)

    @property
    def current_page(self) -> tuple[str, str] | None:
        """(space id, page id) of the page shown."""
        return self._current

    @property
    def page(self) -> RevisionPage | None:
        return self._page

    @property
    def pending_url(self) -> str | None:
        return self._pending_url

    @property
    def history(self) -> tuple[list[tuple[str, str]], int]:
        return list(self._history), self._history_index

    # -- start ----------------------------------------------------------------------------
    async def on_mount(self) -> None:
        """Warm start: the remembered tree (and page) come from the cache only, so they
        are in the first frame; the network starts after it."""
        self.query_one("#tree-filter", Input).display = False
        self.status.track_rate_limit(self.client.rate_limit)
        self.header.show_message(Content.styled("Choose a page in the tree (enter).", "dim"))
        expanded = list(self._state.expanded)
        if not expanded and self.org_id is not None:
            expanded = [org_key(self.org_id)]
        tree = self.tree
        await tree.warm_start(expanded, self._state.selected)
        self._update_org()
        tree.focus()
        if self._start is None and self._state.page:
            space_id, page_id = self._state.page
            await self._show_cached(space_id, page_id)
        self.call_after_refresh(self._after_first_frame)

    def _after_first_frame(self) -> None:
        self.tree.start_refresh()
        self._load_user()
        if self._start is not None:
            self._open_start(self._start)
        elif self._current is not None:
            self._load_page(*self._current, None)

    async def _show_cached(self, space_id: str, page_id: str) -> None:
        try:
            page = await self.client.content.get_page(
                space_id, page_id, format="markdown", read="cache-only"
            )
        except GitBookError:
            return
        document = await asyncio.to_thread(parse, page.markdown or "")
        self._visit((space_id, page_id))
        self._present(space_id, page, None, document=document)

    @work(exclusive=True, exit_on_error=False, group="browser-user")
    async def _load_user(self) -> None:
        try:
            user = await self.client.users.me(read="prefer-cache")
        except GitBookError:
            return
        self.status.set_user(user.displayName or user.email or user.id)
        meta = response_meta(user)
        if meta is not None and meta.refresh is not None:
            try:
                fresh = await meta.refresh
            except GitBookError:
                return
            if fresh is not None:
                self.status.set_user(fresh.displayName or fresh.email or fresh.id)

    @work(exclusive=True, exit_on_error=False, group="browser-reveal")
    async def _open_start(self, target: StartTarget) -> None:
        """``gitbook-tui open``: reveal the space (and page) in the tree and open it."""
        try:
            space = await self.client.spaces.get(target.space_id, read="prefer-cache")
        except GitBookError as exc:
            self.notify(inert(f"Cannot open {target.space_id}: {exc}"), severity="error")
            return
        tree = self.tree
        await tree.reveal(space)
        page_id = target.page_id
        if page_id is None and target.path:
            node = tree.page_at_path(space.id, target.path)
            if node is not None:
                page_id = node.id
            else:
                try:
                    found = await self.client.content.page_by_path(
                        space.id, target.path, read="prefer-cache"
                    )
                    page_id = found.id
                except GitBookError:
                    self.notify(
                        inert(f"No page at {target.path}: showing the space"),
                        severity="warning",
                    )
        if page_id is None:
            first = tree.first_document(space.id)
            page_id = first.id if first is not None else None
        if page_id is None:
            return
        tree.select_key(page_key(space.id, page_id))
        self.open_page(space.id, page_id)

    # -- pages ------------------------------------------------------------------------------
    def _visit(self, entry: tuple[str, str]) -> None:
        if 0 <= self._history_index < len(self._history) and (
            self._history[self._history_index] == entry
        ):
            return
        del self._history[self._history_index + 1 :]
        self._history.append(entry)
        self._history_index = len(self._history) - 1

    def open_page(
        self, space_id: str, page_id: str, anchor: str | None = None, *, record: bool = True
    ) -> None:
        """Show a page (remembered in the history unless ``record`` is False)."""
        if record:
            self._visit((space_id, page_id))
        self._load_page(space_id, page_id, anchor)

    def open_space(self, space_id: str) -> None:
        """Reveal a space in the tree and open its first page."""
        self._open_start(StartTarget(space_id))

    @work(exclusive=True, exit_on_error=False, group="browser-page")
    async def _load_page(self, space_id: str, page_id: str, anchor: str | None) -> None:
        client = self.client
        try:
            page = await client.content.get_page(
                space_id, page_id, format="markdown", read="prefer-cache"
            )
        except GitBookError as exc:
            if isinstance(exc, APIConnectionError):
                self.status.mark_offline(None)
            self.notify(inert(f"Could not open the page: {exc}"), title="Page", severity="error")
            return
        tree = self.tree
        if not tree.is_loaded(space_key(space_id)):
            try:
                space = await client.spaces.get(space_id, read="prefer-cache")
                await tree.reveal(space, page_id)
            except GitBookError:
                pass
        else:
            tree.select_key(page_key(space_id, page_id))
        document = await asyncio.to_thread(parse, page.markdown or "")
        self._present(space_id, page, anchor, document=document)
        meta = response_meta(page)
        if meta is None or meta.refresh is None:
            if meta is not None and meta.offline:
                self.status.mark_offline(meta.age)
            elif meta is not None and meta.source == "network":
                self.status.mark_online()
            return
        self.status.mark_cached(meta.age)
        try:
            fresh = await meta.refresh
        except APIConnectionError:
            self.status.mark_offline(meta.age)
            return
        except GitBookError:
            return
        self.status.mark_online()
        if fresh is not None and self._current == (space_id, page_id):
            document = await asyncio.to_thread(parse, fresh.markdown or "")
            self._present(space_id, fresh, None, document=document)

    def _present(
        self, space_id: str, page: RevisionPage, anchor: str | None, *, document: Document
    ) -> None:
        self._current = (space_id, page.id)
        self._page = page
        tree = self.tree
        trail = [d.title for d in tree.trail(space_key(space_id))]
        header_trail = [*trail, page.path or page.slug or ""]
        self.header.show_page(
            header_trail,
            title=page.title or "Untitled",
            emoji=page.emoji,
            description=page.description,
            updated=page.updatedAt,
        )
        markdown = page.markdown or ""
        if markdown != self._shown_markdown or anchor:
            self._shown_markdown = markdown
            self.viewer.show(document, anchor=anchor)
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
        if self._history_index > 0:
            self._history_index -= 1
            self._load_page(*self._history[self._history_index], None)
        else:
            self.notify("No earlier page", timeout=2)

    def action_forward(self) -> None:
        if self._history_index + 1 < len(self._history):
            self._history_index += 1
            self._load_page(*self._history[self._history_index], None)
        else:
            self.notify("No later page", timeout=2)

    # -- links ----------------------------------------------------------------------------------
    @on(PageViewer.LinkActivated)
    def _link_activated(self, event: PageViewer.LinkActivated) -> None:
        event.stop()
        self.follow_link(event.href)

    def follow_link(self, href: str) -> None:
        """Act on a link of the open page (see the module docstring)."""
        page = self._page
        current = self._current
        target = classify_link(
            href,
            (page.path or "") if page else "",
            bool(page.pages) if page else False,
            page.git.path if page is not None and page.git is not None else None,
        )
        if target.kind == "external":
            self._offer_external(target.url)
        elif target.kind == "refused":
            self.notify(
                inert(f"Refused to open a {target.scheme}: link"),
                title="Link",
                severity="warning",
            )
        elif target.kind == "anchor" and target.anchor:
            if not self.viewer.scroll_to_anchor(target.anchor):
                self.notify(inert(f"No heading #{target.anchor} on this page"), timeout=3)
        elif current is None:
            return
        elif target.kind == "page":
            self.open_page(current[0], target.page_id, target.anchor)
        elif target.kind == "path":
            tree = self.tree
            node = tree.page_at_git_path(current[0], target.file) or tree.page_at_path(
                current[0], target.path
            )
            if node is not None:
                self.open_page(current[0], node.id, target.anchor)
            else:
                self._open_path(current[0], target.path, target.anchor)
        elif target.kind == "file":
            self.notify(inert(f"{target.path} is a file: open it in GitBook"), timeout=4)
        else:
            self.notify(inert(f"Broken link: {href}"), severity="warning")

    @work(exclusive=True, exit_on_error=False, group="browser-link")
    async def _open_path(self, space_id: str, path: str, anchor: str | None) -> None:
        try:
            page = await self.client.content.page_by_path(space_id, path, read="prefer-cache")
        except GitBookError:
            self.notify(inert(f"Broken link: no page at {path}"), severity="warning")
            return
        self.open_page(space_id, page.id, anchor)

    def _offer_external(self, url: str) -> None:
        self._pending_url = url
        self.notify(
            Content("press o to open ") + inert(url),
            title="External link",
            timeout=6,
        )

    @on(WorkspaceTree.LinkSelected)
    def _tree_link(self, event: WorkspaceTree.LinkSelected) -> None:
        event.stop()
        url = external_url(event.url)
        if url is not None:
            self._offer_external(url)
        else:
            self.notify(inert(f"Refused to open the link {event.url}"), severity="warning")

    def action_open_link(self) -> None:
        url = None
        if self.focused is self.tree:
            node = self.tree.cursor_node
            if node is not None and node.data is not None and node.data.kind == "link":
                url = node.data.url
        url = url or self._pending_url
        if not url:
            self.notify("No link to open: choose a link first (enter), then press o", timeout=4)
            return
        external = external_url(url)
        if external is None:
            self.notify(inert(f"Refused to open {url}"), severity="warning")
            return
        if open_in_browser(external):
            self.notify(Content("Opened ") + inert(external), timeout=3)
        else:
            self.app.copy_to_clipboard(external)
            self.notify(Content("No browser here; copied ") + inert(external), timeout=5)

    def action_copy_url(self) -> None:
        page = self._page
        url = page.urls.app if page is not None and page.urls is not None else None
        if not url:
            self.notify("No page open", timeout=2)
            return
        self.app.copy_to_clipboard(url)
        self.notify(Content("Copied ") + inert(url), timeout=3)

    # -- tree events ------------------------------------------------------------------------------
    @on(WorkspaceTree.PageSelected)
    def _tree_page(self, event: WorkspaceTree.PageSelected) -> None:
        event.stop()
        self.open_page(event.space_id, event.page_id)

    @on(WorkspaceTree.Loaded)
    def _tree_loaded(self, event: WorkspaceTree.Loaded) -> None:
        event.stop()
        if event.offline:
            self.status.mark_offline(event.age)
        elif event.source == "network":
            self.status.mark_online()
        else:
            self.status.mark_cached(event.age or 0.0)
        if event.key == ROOT:
            self._update_org()

    @property
    def shown_org(self) -> str | None:
        """The organization shown: the browser's, or (every organization listed, as after
        ``gitbook-tui open``) the organization of the open page's space, once known."""
        org_id = self.org_id
        if org_id is None and self._current is not None:
            data = self.tree.node_data(space_key(self._current[0]))
            org_id = data.org_id if data is not None else None
        return org_id

    def _update_org(self) -> None:
        org_id = self.shown_org
        self.status.set_org(self.tree.title_of(org_key(org_id)) if org_id else "")

    # -- filter -----------------------------------------------------------------------------------
    @on(WorkspaceTree.FilterRequested)
    def _filter_requested(self, event: WorkspaceTree.FilterRequested) -> None:
        event.stop()
        box = self.query_one("#tree-filter", Input)
        box.display = True
        box.value = box.value + event.text
        box.focus()
        box.cursor_position = len(box.value)

    @on(Input.Changed, "#tree-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self.tree.set_filter(event.value)

    @on(Input.Submitted, "#tree-filter")
    def _filter_submitted(self, event: Input.Submitted) -> None:
        self.tree.focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "escape":
            return bool(self.tree.filter_text) or self.focused is not self.tree
        return True

    def action_escape(self) -> None:
        box = self.query_one("#tree-filter", Input)
        if self.tree.filter_text or box.display:
            box.value = ""
            box.display = False
            self.tree.set_filter("")
        self.tree.focus()

    def action_switch_focus(self) -> None:
        if self.focused is self.viewer:
            self.tree.focus()
        else:
            self.viewer.focus()

    def action_switch_org(self) -> None:
        switch = getattr(self.app, "action_switch_org", None)
        if callable(switch):
            switch()

    # -- state ----------------------------------------------------------------------------------
    def save_state(self) -> None:
        """Remember the tree and the page for the next start (ids and keys only)."""
        if not self.is_mounted:
            return
        tree = self.tree
        state = AccountState(
            org_id=self.shown_org or self._state.org_id,
            expanded=[k for k in tree.expanded_keys if k != ROOT],
            selected=tree.selected_key,
            page=list(self._current) if self._current else None,
        )
        self._state = state
        self._store.save(self._account, state)

    def on_unmount(self) -> None:
        with contextlib.suppress(Exception):
            self.save_state()
