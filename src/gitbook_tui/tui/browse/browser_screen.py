"""BrowserScreen: the workspace tree on the left, the open page on the right.

Pages load in a worker through :class:`.page_loader.PageLoader` with ``read="prefer-cache"``
(a cached page is shown at once and re-shown when the background refresh brings a newer
one); each answer's freshness goes to the status bar in one call. ``alt+left``/``backspace`` and
``alt+right`` walk the page history (:mod:`.page_history`). Links of the page and of the
tree are handled by :mod:`.link_follower`: pages of the space open, http(s) links are
only *offered* (``o`` opens the last one, ``y`` copies the page's URL), other schemes are
refused. The footer shows a few hints chosen for the focused widget
(:mod:`..common.hint_footer`).
"""

from __future__ import annotations

import asyncio
import contextlib
from functools import partial
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.content import Content
from textual.screen import Screen

from ...api import APIConnectionError, AsyncGitBook, GitBookError, response_meta
from ...models import RevisionPage
from ..common.error_banner import ErrorBanner, ErrorPane
from ..common.freshness import Freshness
from ..common.hint_footer import HintFooter
from ..common.link_targets import open_in_browser
from ..common.navigator import navigator_of
from ..common.state import AccountState, StartTarget, StateStore
from ..common.status_bar import StatusBar
from ..common.text import plain
from ..render.viewport import ReadingPosition
from .browser_start import resolve_start, state_of
from .link_follower import LinkFollower
from .page_header import PageHeader
from .page_history import PageHistory
from .page_loader import LoadedPage, PageLoader
from .page_viewer import PageViewer
from .sidebar import Sidebar
from .space_files import SpaceFiles
from .tree.workspace_tree import (
    ROOT,
    WorkspaceTree,
    org_key,
    page_key,
    space_key,
)

__all__ = ["ONE_PANE", "WIDE", "BrowserScreen"]

WIDE = 100
r"""From this width the tree shows beside the page; below it the tree is a drawer (``\``)."""
ONE_PANE = 60
"""Below this width one pane shows at a time: the one with the focus."""


class BrowserScreen(Screen[None]):
    """Tree + page pane + status bar + footer for one organization (or all)."""

    # The hidden filter input comes first in the layout; without this it would take the
    # first keys typed while the tree loads.
    AUTO_FOCUS = "#workspace-tree"

    # "-tall" (the stylesheet gives the page description more lines) from 32 rows
    VERTICAL_BREAKPOINTS = [(0, "-short"), (32, "-tall")]

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("alt+left,backspace", "back", "Back", id="browser.back"),
        Binding("alt+right", "forward", "Forward", show=False, id="browser.forward"),
        Binding("o", "open_link", "Browser", id="browser.open_link"),
        Binding("y", "copy_url", "Copy URL", show=False, id="browser.copy_url"),
        Binding("w,ctrl+w,f6", "switch_focus", "Tree/page", id="browser.switch_focus"),
        Binding("backslash,ctrl+b", "toggle_tree", "Tree", id="browser.toggle_tree"),
        Binding("ctrl+o", "switch_org", "Organizations", show=False, id="browser.switch_org"),
        Binding("escape", "escape", "To the tree", show=False, id="browser.escape"),
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
        self._history = PageHistory()
        self._links = LinkFollower(self)
        self.files = SpaceFiles(client)
        self._pages = PageLoader(client)
        self._current: tuple[str, str] | None = None
        self._page: RevisionPage | None = None
        self._shown_markdown: str | None = None
        self._tree_shown: bool | None = None  # the reader's choice with \ (None: by width)

    # -- layout ----------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with Horizontal(id="browser-body"):
            yield Sidebar(
                self.client,
                org_id=self.org_id,
                show_hidden=self._show_hidden,
                id="browser-sidebar",
            )
            with ErrorPane(id="browser-page"):
                yield ErrorBanner(id="page-error")
                yield PageHeader(id="page-header")
                yield PageViewer(id="page-viewer")
        yield StatusBar(view="browse", id="status-bar")
        yield HintFooter(compact=True)

    @property
    def workspace_tree(self) -> WorkspaceTree:
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
        """The last external link offered (what ``o`` opens)."""
        return self._links.pending_url

    @property
    def history(self) -> tuple[list[tuple[str, str]], int]:
        return self._history.entries, self._history.index

    # -- start ----------------------------------------------------------------------------
    async def on_mount(self) -> None:
        """Warm start: the remembered tree (and page) come from the cache only, so they
        are in the first frame; the network starts after it."""
        self.status.track_rate_limit(self.client.rate_limit)
        self.header.show_message(Content.styled("Choose a page in the tree (enter).", "dim"))
        expanded = list(self._state.expanded)
        if not expanded and self.org_id is not None:
            expanded = [org_key(self.org_id)]
        tree = self.workspace_tree
        await tree.warm_start(expanded, self._state.selected)
        self._update_org()
        tree.focus()
        self._layout()
        if self._start is None and self._state.page:
            space_id, page_id = self._state.page
            await self._show_cached(space_id, page_id)
        self.call_after_refresh(self._after_first_frame)

    def _after_first_frame(self) -> None:
        self.workspace_tree.start_refresh()
        self._load_user()
        if self._start is not None:
            self._open_start(self._start)
        elif self._current is not None:
            self._load_page(*self._current, None)

    async def _show_cached(self, space_id: str, page_id: str) -> None:
        try:
            loaded = await self._pages.load(space_id, page_id, read="cache-only")
        except GitBookError:
            return
        await self.files.load(space_id, read="cache-only")
        self._history.visit((space_id, page_id))
        self._present(space_id, loaded, None)

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
        found = await resolve_start(self.client, self.workspace_tree, target, self.notify)
        if found is not None:
            self.workspace_tree.select_key(page_key(*found))
            self.open_page(*found)

    # -- pages ------------------------------------------------------------------------------
    def open_page(
        self, space_id: str, page_id: str, anchor: str | None = None, *, record: bool = True
    ) -> None:
        """Show a page (remembered in the history unless ``record`` is False)."""
        if record:
            self._history.remember(self.viewer.position)
            self._history.visit((space_id, page_id))
        self._load_page(space_id, page_id, anchor)

    @work(exclusive=True, exit_on_error=False, group="browser-link", name="open_path")
    async def open_page_at_path(self, space_id: str, path: str, anchor: str | None) -> None:
        """Open the page at ``path`` of the space (a link the tree does not know yet)."""
        try:
            page = await self.client.content.page_by_path(space_id, path, read="prefer-cache")
        except GitBookError:
            self.notify(plain(f"Broken link: no page at {path}"), severity="warning", markup=False)
            return
        self.open_page(space_id, page.id, anchor)

    def open_space(self, space_id: str) -> None:
        """Reveal a space in the tree and open its first page."""
        self._open_start(StartTarget(space_id))

    @work(exclusive=True, exit_on_error=False, group="browser-page")
    async def _load_page(
        self,
        space_id: str,
        page_id: str,
        anchor: str | None,
        position: ReadingPosition | None = None,
    ) -> None:
        # the space's files (placeholder details) load alongside the page, not after it
        files = asyncio.ensure_future(self.files.load(space_id))
        try:
            loaded = await self._pages.load(space_id, page_id)
        except GitBookError as exc:
            if isinstance(exc, APIConnectionError):
                self.status.show_freshness(Freshness.offline(None))
            self.notify(
                plain(f"Could not open the page: {exc}"),
                title="Page",
                severity="error",
                markup=False,
            )
            self.page_banner.show_error(
                "Could not open the page",
                exc,
                server=self.client.base_url,
                retry=partial(self._load_page, space_id, page_id, anchor, position),
            )
            return
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
        # a page shown from the cache is re-shown if the server's answer differs
        update = await self._pages.refreshed(loaded)
        if update is None:
            return
        self.status.show_freshness(update.freshness)
        if update.page is not loaded.page and self._current == (space_id, page_id):
            self._present(space_id, update, None)

    @property
    def page_banner(self) -> ErrorBanner:
        return self.query_one("#page-error", ErrorBanner)

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
        first = self._current is None
        self._current = (space_id, page.id)
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
        )
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
        """The previous page, where the reader left it (scroll and chosen link)."""
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

    # -- links (see .link_follower) ----------------------------------------------------------
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
        url = self._links.link_to_open()
        if url is None:
            return
        if open_in_browser(url):
            self.notify("Opened " + plain(url), timeout=3, markup=False)
        else:
            self.app.copy_to_clipboard(url)
            self.notify("No browser here; copied " + plain(url), timeout=5, markup=False)

    def action_copy_url(self) -> None:
        self._links.copy_url()

    # -- tree events ------------------------------------------------------------------------------
    @on(WorkspaceTree.PageSelected)
    def _tree_page(self, event: WorkspaceTree.PageSelected) -> None:
        """A page chosen in the tree opens and takes the focus (escape or h goes back),
        unless l only unfolded its sub-pages."""
        event.stop()
        self.open_page(event.space_id, event.page_id)
        if event.focus:
            if self.size.width < WIDE:
                self._tree_shown = None  # a narrow screen's drawer closes on the page
            self.focus_page()

    @on(PageViewer.LeaveRequested)
    def _leave_page(self, event: PageViewer.LeaveRequested) -> None:
        event.stop()
        self.focus_tree()

    @on(WorkspaceTree.Loaded)
    def _tree_loaded(self, event: WorkspaceTree.Loaded) -> None:
        event.stop()
        self.status.show_freshness(event.freshness)
        if event.key == ROOT:
            self._update_org()

    @property
    def shown_org(self) -> str | None:
        """The organization shown: the browser's, or (every organization listed, as after
        ``gitbook-tui open``) the organization of the open page's space, once known."""
        org_id = self.org_id
        if org_id is None and self._current is not None:
            data = self.workspace_tree.node_data(space_key(self._current[0]))
            org_id = data.org_id if data is not None else None
        return org_id

    def _update_org(self) -> None:
        org_id = self.shown_org
        self.status.set_org(self.workspace_tree.title_of(org_key(org_id)) if org_id else "")

    # -- focus and filter (the filter box: .sidebar) -------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "escape":
            return self.focused is not self.workspace_tree
        return True

    def action_escape(self) -> None:
        """Back to the tree (the tree's filter stays as it is)."""
        self.focus_tree()

    def action_switch_focus(self) -> None:
        if self._focus_in_tree():
            self.focus_page()
        else:
            self.focus_tree()

    def action_toggle_tree(self) -> None:
        r"""``\``: show or hide the tree (one pane at a time on a very narrow screen:
        switch panes)."""
        if self.size.width < ONE_PANE:
            self.action_switch_focus()
            return
        shown = not self.has_class("-tree-hidden")
        self._tree_shown = not shown
        if shown:
            self.focus_page()  # (the tree hides once the focus left it)
        else:
            self.focus_tree()
        self._layout()

    def focus_tree(self) -> None:
        """The tree takes the focus (shown while it has it, on a narrow screen too)."""
        self.remove_class("-tree-hidden")  # (a hidden widget cannot take the focus)
        self.workspace_tree.focus()

    def focus_page(self) -> None:
        self.remove_class("-page-hidden")
        self.viewer.focus()

    # -- narrow screens ---------------------------------------------------------------------------
    def _focus_in_tree(self) -> bool:
        focused = self.focused
        return focused is not None and self.query_one(Sidebar) in focused.ancestors_with_self

    def _layout(self) -> None:
        """Which panes show for this width (see :data:`WIDE` and :data:`ONE_PANE`)."""
        width = self.size.width
        if not width:
            return
        in_tree = self._focus_in_tree() or self.focused is None
        if width < ONE_PANE:
            show_tree, show_page = in_tree, not in_tree
        else:
            default = width >= WIDE or self._current is None  # (nothing to read yet)
            chosen = default if self._tree_shown is None else self._tree_shown
            show_tree = chosen or in_tree  # the tree never hides while it has the focus
            show_page = True
        self.set_class(not show_tree, "-tree-hidden")
        self.set_class(not show_page, "-page-hidden")
        self.set_class(width < WIDE, "-narrow")

    def on_resize(self) -> None:
        self._layout()

    def on_descendant_focus(self) -> None:
        self._layout()

    def action_switch_org(self) -> None:
        switch = getattr(self.app, "action_switch_org", None)
        if callable(switch):
            switch()

    # -- state ----------------------------------------------------------------------------------
    def save_state(self) -> None:
        """Remember the tree and the page for the next start (ids and keys only)."""
        if not self.is_mounted:
            return
        state = state_of(self.workspace_tree, self.shown_org or self._state.org_id, self._current)
        self._state = state
        self._store.save(self._account, state)

    def on_unmount(self) -> None:
        with contextlib.suppress(Exception):
            self.save_state()
