"""BrowserScreen: the workspace tree on the left, the open page on the right.

Pages load in a worker through :class:`.page_loader.PageLoader` with ``read="prefer-cache"``
(a cached page is shown at once and re-shown when the background refresh brings a newer
one); each answer's freshness goes to the status bar in one call. ``alt+left``/``backspace`` and
``alt+right`` walk the page history (:mod:`.page_history`). Links of the page and of the
tree are handled by :mod:`.link_follower`: pages of the space open, http(s) links are
only *offered* (``o`` opens the last one, ``y`` copies the page's URL), other schemes are
refused. The footer shows a few hints chosen for the focused widget
(:mod:`..common.hint_footer`).

Focus: a page chosen in the tree takes the focus; ``h``/``←``/``escape`` in the page go
back to the tree; ``tab``/``w``/``ctrl+w``/``f6`` switch panes; the focused pane has an accent
bar. Below :data:`WIDE` columns the tree is a drawer (``\\``), below :data:`ONE_PANE`
one pane shows at a time. Failures to open a page stay in the page pane's
:class:`~..common.error_banner.ErrorBanner` until the page opens.

The page pane's loading and history are :class:`.browser_pages.BrowserPages`, the links
:class:`.browser_links.BrowserLinks`, the open comment threads counted in the header and
the tree :class:`.browser_counts.BrowserCommentCounts`, the keys that lead to other views
:class:`.browser_intents.BrowserIntents` (mixins of this screen).
"""

from __future__ import annotations

import contextlib
from functools import partial
from typing import ClassVar

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.content import Content
from textual.widgets import Tree

from ...api import AsyncGitBook, GitBookError, response_meta
from ...models import RevisionPage
from ..common.denial import gated
from ..common.edit_rights import edit_denial
from ..common.error_banner import ErrorBanner, ErrorPane
from ..common.hint_footer import HintFooter
from ..common.intents import SuggestEdit
from ..common.navigator import navigator_of
from ..common.pane_group import PANE_CLASS, pane_switch_binding
from ..common.state import AccountState, StartTarget, StateStore
from ..common.status_bar import StatusBar
from ..textual_compat import is_leaving
from .browser_counts import BrowserCommentCounts
from .browser_intents import BrowserIntents
from .browser_links import BrowserLinks
from .browser_pages import BrowserPages
from .browser_start import resolve_start, state_of
from .link_follower import LinkFollower
from .page_header import PageHeader
from .page_history import PageHistory
from .page_loader import PageLoader
from .page_viewer import PageViewer
from .pane_layout import ONE_PANE, WIDE, PaneLayout
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


class BrowserScreen(BrowserLinks, BrowserPages, BrowserCommentCounts, BrowserIntents, PaneLayout):
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
        pane_switch_binding("browser.switch_focus", "Tree/page"),
        Binding("backslash", "toggle_tree", "Tree", id="browser.toggle_tree"),
        Binding("ctrl+o", "switch_org", "Organizations", show=False, id="browser.switch_org"),
        Binding("escape", "escape", "To the tree", show=False, id="browser.escape"),
        Binding("C", "page_comments", "Page comments", id="browser.comments"),
        Binding("e", "suggest_edit", "Suggest edit", show=False, id="browser.suggest_edit"),
        Binding("H", "history", "History", show=False, id="browser.history"),
        Binding("B", "blame", "Blame", show=False, id="browser.blame"),
        Binding("P", "permissions", "Who has access", show=False, id="browser.permissions"),
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
        self._revision: str | None = None
        self._sidebar = Sidebar(
            client, org_id=org_id, show_hidden=show_hidden, id="browser-sidebar", classes=PANE_CLASS
        )
        self._page_banner = ErrorBanner(id="page-error")
        self._header = PageHeader(id="page-header")
        self._viewer = PageViewer(id="page-viewer")
        self._status = StatusBar(view="browse", id="status-bar")
        self._init_counts()

    # -- layout ----------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with Horizontal(id="browser-body"):
            yield self._sidebar
            with ErrorPane(id="browser-page", classes=PANE_CLASS):
                yield self._page_banner
                yield self._header
                yield self._viewer
        yield self._status
        yield HintFooter(compact=True)

    # The panes are made once, with the screen, and kept: a query could fail while the
    # screen is still composing or already being removed (a test, a worker, a handler
    # resuming after an await), and these are asked for all the time.
    @property
    def workspace_tree(self) -> WorkspaceTree:
        return self._sidebar.workspace_tree

    @property
    def sidebar(self) -> Sidebar:
        return self._sidebar

    @property
    def viewer(self) -> PageViewer:
        return self._viewer

    @property
    def header(self) -> PageHeader:
        return self._header

    @property
    def status(self) -> StatusBar:
        return self._status

    @property
    def current_page(self) -> tuple[str, str] | None:
        """(space id, page id) of the page shown."""
        return self._current

    @property
    def page_open(self) -> bool:
        return self._current is not None

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
        if is_leaving(self):  # removed while it composed (the app closing at once)
            return
        self.status.follow(self.client)
        self.header.show_message(
            Content.styled("Choose a page in the tree (enter).", "$text-muted")
        )
        expanded = list(self._state.expanded)
        if not expanded and self.org_id is not None:
            expanded = [org_key(self.org_id)]
        tree = self.workspace_tree
        # the tree's pane follows its widest title as nodes open and load
        self.watch(tree, "virtual_size", lambda _size: self.fit_tree(), init=False)
        await tree.warm_start(expanded, self._state.selected)
        # Each await lets the app run on: the screen may have been switched away (a second
        # show_browser) or the app closed meanwhile, its widgets removed child first — a
        # query then fails (NoMatches 'Breadcrumb' in tests under load).
        if is_leaving(self):
            return
        self._update_org()
        tree.focus()
        self._layout()
        if self._start is None and self._state.page:
            space_id, page_id = self._state.page
            await self._show_cached(space_id, page_id)
            if is_leaving(self):
                return
        self.call_after_refresh(self._after_first_frame)

    def _after_first_frame(self) -> None:
        if is_leaving(self):
            return
        self.workspace_tree.start_refresh()
        self._load_user()
        if self._start is not None:
            self._open_start(self._start)
        elif self._current is not None:
            self._load_page(*self._current, None)

    async def _show_cached(self, space_id: str, page_id: str) -> None:
        try:
            loaded = await self._pages.load(space_id, page_id, read="cache-only")
        except Exception:  # not cached, unreadable or a bug: the page loads from the server
            return
        await self.files.load(space_id, read="cache-only")
        if is_leaving(self):
            return
        self._history.visit((space_id, page_id))
        self._present(space_id, loaded, None)

    @work(exclusive=True, exit_on_error=False, group="browser-user")
    async def _load_user(self) -> None:
        try:
            user = await self.client.users.me(read="prefer-cache")
        except GitBookError:
            return  # the status bar goes without the name; the panes say what failed
        except Exception as exc:
            self._unexpected("Could not read the signed-in user", exc)
            return
        self.status.set_user(user.displayName or user.email or user.id)
        meta = response_meta(user)
        if meta is not None and meta.refresh is not None:
            try:
                fresh = await meta.refresh
            except Exception:  # the refresh of a name already shown
                return
            if fresh is not None:
                self.status.set_user(fresh.displayName or fresh.email or fresh.id)

    @work(exclusive=True, exit_on_error=False, group="browser-reveal")
    async def _open_start(self, target: StartTarget) -> None:
        """``gitbook-tui open``: reveal the space (and page) in the tree and open it."""
        try:
            found = await resolve_start(self.client, self.workspace_tree, target, self.notify)
        except Exception as exc:
            self.page_failed(
                f"Could not open {target.space_id}",
                exc,
                retry=partial(self._open_start, target),
            )
            return
        if found is not None:
            self.workspace_tree.select_key(page_key(*found))
            self.open_page(*found)

    def open_space(self, space_id: str) -> None:
        """Reveal a space in the tree and open its first page."""
        self._open_start(StartTarget(space_id))

    # -- tree events ------------------------------------------------------------------------------
    @on(WorkspaceTree.PageSelected)
    def _tree_page(self, event: WorkspaceTree.PageSelected) -> None:
        """A page chosen in the tree opens and takes the focus (escape or h goes back),
        unless l only unfolded its sub-pages."""
        event.stop()
        self.open_page(event.space_id, event.page_id)
        if event.focus:
            if self.size.width < WIDE:
                self.tree_choice = None  # a narrow screen's drawer closes on the page
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
        if self._current is not None:  # the open page's space may be listed now (``e``)
            self.refresh_bindings()

    # -- the open space (what 2, 3, search and the palette take as "this space") ---------------
    @property
    def selected_space(self) -> str | None:
        """The space of the tree's cursor row: a space, or a page or status line in one."""
        tree = self.workspace_tree
        node = tree.cursor_node
        data = node.data if node is not None else None
        if data is not None and data.kind == "status":
            data = tree.node_data(data.id)  # (a status line's id is its parent's key)
        if data is None:
            return None
        return data.id if data.kind == "space" else data.space_id or None

    @property
    def open_space_id(self) -> str | None:
        """The space the reader is in: while the tree has the focus the cursor row's (a
        space selected counts as open), else — or on a row in no space — the open page's."""
        page_space = self._current[0] if self._current is not None else None
        if self._focus_in_tree() or page_space is None:
            return self.selected_space or page_space
        return page_space

    def _sync_open_space(self) -> None:
        nav = navigator_of(self.app)
        if nav is not None and not is_leaving(self):
            nav.space_id = self.open_space_id

    @on(Tree.NodeHighlighted)
    def _row_highlighted(self) -> None:
        self._sync_open_space()

    @on(events.DescendantFocus)
    def _focus_moved(self) -> None:
        self._sync_open_space()

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

    def denial_reason(self, action: str) -> str | None:
        """``e`` is dimmed where the open page's space may not be edited, as the tree listed
        it (a reader, a locked space); the flow itself reads the space again."""
        if action != "suggest_edit" or self._current is None:
            return None
        if self._revision is not None:
            return "This is a past revision of the page (backspace: its current text)."
        data = self.workspace_tree.node_data(space_key(self._current[0]))
        space = data.space if data is not None else None
        return edit_denial(space) if space is not None else None

    @gated
    def action_suggest_edit(self) -> None:
        """``e``: the open page in ``$EDITOR``, posted as a change request (review desk)."""
        nav = navigator_of(self.app)
        if self._current is None or nav is None:
            self.notify("Open a page to suggest an edit of it.", timeout=5)
            return
        nav.navigate(SuggestEdit(*self._current))  # the review feature's flow

    # -- state ----------------------------------------------------------------------------------
    def save_state(self) -> None:
        """Remember the tree and the page for the next start (ids and keys only)."""
        if not self.is_mounted:
            return
        # a page shown at a past revision is not "the last page read"
        saved = self._state.page
        page = self._current
        if self._revision is not None:
            page = (saved[0], saved[1]) if saved else None
        state = state_of(self.workspace_tree, self.shown_org or self._state.org_id, page)
        state.choices = self._store.load(self._account).choices  # other views' choices stay
        self._state = state
        self._store.save(self._account, state)

    def on_unmount(self) -> None:
        with contextlib.suppress(Exception):
            self.save_state()
