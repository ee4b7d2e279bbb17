"""BrowserScreen: the workspace tree on the left, the open page on the right.

Pages load ``prefer-cache`` (a cached page at once, re-shown when the server's answer
differs); ``alt+left``/``backspace`` and ``alt+right`` walk the page history. Pages of
the space open from links, http(s) links are only *offered* (``o``, ``y``). A page chosen
in the tree takes the focus; ``h``/``←``/``escape`` go back; ``tab``/``w``/``ctrl+w``/
``f6`` switch panes. Below :data:`WIDE` columns the tree is a drawer (``\\``), below
:data:`ONE_PANE` one pane shows at a time. Failures to open a page stay in the page
pane's :class:`~..common.error_banner.ErrorBanner` until a page opens.

By composition: the screen makes the panes and holds plain helpers, to which its key and
message handlers delegate — ``panes`` (:class:`.pane_layout.PaneLayout`), ``pages``
(:class:`.browser_pages.BrowserPages`: loading, showing, history), ``links``
(:class:`.browser_links.BrowserLinks`), ``counts`` (:class:`.browser_counts.BrowserCommentCounts`),
``intents`` (:class:`.browser_intents.BrowserIntents`: keys leading to other views) and
``startup`` (:class:`.browser_startup.BrowserStartup`). Reads live in the data modules
(:mod:`.page_loader`, :mod:`.space_files`, :mod:`.comment_counts`, :mod:`.browse_reads`).
"""

from __future__ import annotations

import contextlib
from typing import ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Tree

from ...api import AsyncGitBook
from ...models import RevisionPage
from ..common.breakpoints import preset_breakpoints
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
from .browser_start import state_of
from .browser_startup import BrowserStartup
from .comment_counts import CommentCounts
from .link_follower import LinkFollower
from .page_header import PageHeader
from .page_viewer import PageViewer
from .pane_layout import ONE_PANE, WIDE, PaneLayout
from .sidebar import Sidebar
from .space_files import SpaceFiles
from .tree.workspace_tree import ROOT, WorkspaceTree, org_key, space_key

__all__ = ["ONE_PANE", "WIDE", "BrowserScreen"]


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
        preset_breakpoints(self)
        self.client = client
        self.org_id = org_id
        self._store = store
        self._account = account
        self._state = state or AccountState()
        # The panes are made once, with the screen, and kept: a query could fail while the
        # screen is still composing or already being removed (a test, a worker, a handler
        # resuming after an await), and these are asked for all the time.
        self._sidebar = Sidebar(
            client, org_id=org_id, show_hidden=show_hidden, id="browser-sidebar", classes=PANE_CLASS
        )
        self._page_banner = ErrorBanner(id="page-error")
        self._header = PageHeader(id="page-header")
        self._viewer = PageViewer(id="page-viewer")
        self._status = StatusBar(view="browse", id="status-bar")
        self.files = SpaceFiles(client)
        self.panes = PaneLayout(self)
        follower = LinkFollower(self)
        self.counts = BrowserCommentCounts(self, client)
        self.pages = BrowserPages(
            self,
            client,
            files=self.files,
            follower=follower,
            panes=self.panes,
            counts=self.counts,
            banner=self._page_banner,
        )
        self.links = BrowserLinks(self, self.files, follower)
        self.intents = BrowserIntents(self, self.panes)
        self.startup = BrowserStartup(
            self,
            client,
            org_id=org_id,
            state=self._state,
            start=start,
            pages=self.pages,
            panes=self.panes,
        )

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
    def leaving(self) -> bool:
        """Whether the screen is being removed (its widgets may be gone)."""
        return is_leaving(self)

    # -- the open page (kept by .pages) ---------------------------------------------------------
    @property
    def current_page(self) -> tuple[str, str] | None:
        """(space id, page id) of the page shown."""
        return self.pages.current

    @property
    def page_open(self) -> bool:
        return self.pages.current is not None

    @property
    def page(self) -> RevisionPage | None:
        return self.pages.page

    @property
    def history(self) -> tuple[list[tuple[str, str]], int]:
        return self.pages.history.entries, self.pages.history.index

    @property
    def page_banner(self) -> ErrorBanner:
        return self._page_banner

    @property
    def page_error(self) -> bool:
        """Whether the page pane shows an error (``r`` retries it)."""
        return self._page_banner.showing

    @property
    def pending_url(self) -> str | None:
        """The last external link offered (what ``o`` opens)."""
        return self.links.follower.pending_url

    @property
    def comment_counts(self) -> CommentCounts:
        return self.counts.comment_counts

    def open_page(
        self,
        space_id: str,
        page_id: str,
        anchor: str | None = None,
        *,
        record: bool = True,
        revision: str | None = None,
    ) -> None:
        """Show a page (see :meth:`.browser_pages.BrowserPages.open_page`)."""
        self.pages.open_page(space_id, page_id, anchor, record=record, revision=revision)

    def open_page_at_path(self, space_id: str, path: str, anchor: str | None) -> None:
        """Open the page at ``path`` of the space (a link the tree does not know yet)."""
        self.pages.open_page_at_path(space_id, path, anchor)

    def open_space(self, space_id: str) -> None:
        """Reveal a space in the tree and open its first page."""
        self.startup.open_start(StartTarget(space_id))

    def follow_link(self, href: str) -> None:
        """Act on a link of the open page (see :mod:`.link_follower`)."""
        self.links.follow(href)

    # -- start ----------------------------------------------------------------------------
    async def on_mount(self) -> None:
        await self.startup.mount()

    def on_screen_resume(self, _: events.ScreenResume) -> None:
        self.counts.screen_resumed()

    # -- messages of the panes --------------------------------------------------------------------
    @on(WorkspaceTree.PageSelected)
    def _tree_page(self, event: WorkspaceTree.PageSelected) -> None:
        """A page chosen in the tree opens and takes the focus (escape or h goes back),
        unless l only unfolded its sub-pages."""
        event.stop()
        self.open_page(event.space_id, event.page_id)
        if event.focus:
            if self.size.width < WIDE:
                self.panes.tree_choice = None  # a narrow screen's drawer closes on the page
            self.panes.focus_page()

    @on(PageViewer.LeaveRequested)
    def _leave_page(self, event: PageViewer.LeaveRequested) -> None:
        event.stop()
        self.panes.focus_tree()

    @on(WorkspaceTree.Loaded)
    def _tree_loaded(self, event: WorkspaceTree.Loaded) -> None:
        event.stop()
        self.status.show_freshness(event.freshness)
        if event.key == ROOT:
            self.show_org()
        if self.pages.current is not None:  # the open page's space may be listed now (``e``)
            self.refresh_bindings()

    @on(PageViewer.LinkActivated)
    def _link_activated(self, event: PageViewer.LinkActivated) -> None:
        event.stop()
        self.links.follow(event.href)

    @on(WorkspaceTree.LinkSelected)
    def _tree_link(self, event: WorkspaceTree.LinkSelected) -> None:
        event.stop()
        self.links.tree_link(event.url)

    # -- the open space (what 2, 3, search and the palette take as "this space": .intents) ----
    @on(Tree.NodeHighlighted)
    @on(events.DescendantFocus)
    def _sync_open_space(self) -> None:
        self.intents.sync_open_space()

    @property
    def shown_org(self) -> str | None:
        """The organization shown: the browser's, or (every organization listed, as after
        ``gitbook-tui open``) the organization of the open page's space, once known."""
        org_id = self.org_id
        current = self.pages.current
        if org_id is None and current is not None:
            data = self.workspace_tree.node_data(space_key(current[0]))
            org_id = data.org_id if data is not None else None
        return org_id

    def show_org(self) -> None:
        """The status bar names the organization shown."""
        org_id = self.shown_org
        self.status.set_org(self.workspace_tree.title_of(org_key(org_id)) if org_id else "")

    # -- panes and focus (.panes) ----------------------------------------------------------------
    def focus_tree(self) -> None:
        self.panes.focus_tree()

    def focus_page(self) -> None:
        self.panes.focus_page()

    def reveal_binding_ids(self) -> tuple[str, ...]:
        return self.panes.reveal_binding_ids()

    def on_resize(self) -> None:
        self.panes.layout()

    def on_descendant_focus(self) -> None:
        self.panes.layout()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "escape":
            return self.focused is not self.workspace_tree
        return True

    def denial_reason(self, action: str) -> str | None:
        """``e`` is dimmed where the open page's space may not be edited, as the tree listed
        it (a reader, a locked space); the flow itself reads the space again."""
        current = self.pages.current
        if action != "suggest_edit" or current is None:
            return None
        if self.pages.revision is not None:
            return "This is a past revision of the page (backspace: its current text)."
        data = self.workspace_tree.node_data(space_key(current[0]))
        space = data.space if data is not None else None
        return edit_denial(space) if space is not None else None

    # -- keys (each delegates to the helper that owns it) -----------------------------------------
    def action_escape(self) -> None:
        """Back to the tree (the tree's filter stays as it is)."""
        self.panes.focus_tree()

    def action_switch_focus(self) -> None:
        self.panes.switch_focus()

    def action_toggle_tree(self) -> None:
        self.panes.toggle_tree()

    def action_back(self) -> None:
        self.pages.back()

    def action_forward(self) -> None:
        self.pages.forward()

    def action_open_link(self) -> None:
        self.links.open_link()

    def action_copy_url(self) -> None:
        self.links.copy_url()

    def action_page_comments(self) -> None:
        self.intents.page_comments()

    def action_history(self) -> None:
        self.intents.history()

    def action_blame(self) -> None:
        self.intents.blame()

    def action_permissions(self) -> None:
        self.intents.permissions()

    def action_switch_org(self) -> None:
        self.intents.switch_org()

    @gated
    def action_suggest_edit(self) -> None:
        """``e``: the open page in ``$EDITOR``, posted as a change request (review desk)."""
        nav = navigator_of(self.app)
        if self.pages.current is None or nav is None:
            self.notify("Open a page to suggest an edit of it.", timeout=5)
            return
        nav.navigate(SuggestEdit(*self.pages.current))  # the review feature's flow

    # -- state ----------------------------------------------------------------------------------
    def save_state(self) -> None:
        """Remember the tree and the page for the next start (ids and keys only)."""
        if not self.is_mounted:
            return
        # a page shown at a past revision is not "the last page read"
        saved = self._state.page
        page = self.pages.current
        if self.pages.revision is not None:
            page = (saved[0], saved[1]) if saved else None
        state = state_of(self.workspace_tree, self.shown_org or self._state.org_id, page)
        state.choices = self._store.load(self._account).choices  # other views' choices stay
        self._state = state
        self._store.save(self._account, state)

    def on_unmount(self) -> None:
        with contextlib.suppress(Exception):
            self.save_state()
