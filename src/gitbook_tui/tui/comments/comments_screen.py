"""CommentsScreen: view 3 — the threads of a space or page, the selected thread, a composer.

At 100 columns and more the thread list sits left of the thread and its composer, as wide as
its longest rows need within :data:`LIST_SHARE` of the screen (the thread keeps
:data:`THREAD_MIN_CELLS`); below that the list is full width, ``enter`` opens the thread full width and ``escape``
goes back. Loading and the live refresh are in :mod:`.thread_loader`, writes in
:mod:`.comment_actions`; this module has the layout, selection and filters.
"""

from __future__ import annotations

import math
from typing import ClassVar

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.timer import Timer
from textual.widgets import Input, OptionList, Static

from ...api import GitBookError
from ...drafts.keys import EDIT_COMMENT, EDIT_REPLY, REPLY
from ...models import Space, User
from ..common.composer import Composer
from ..common.filter_box import FilterBox
from ..common.hint_footer import HintFooter
from ..common.intents import OpenPage
from ..common.navigator import Navigator
from ..common.pane_group import PANE_CLASS, pane_switch_binding
from ..common.status_bar import StatusBar, format_age
from ..common.text import count_of, plain
from .author_picker import AuthorPicker
from .comment_actions import NO_SPACE
from .comments_title import CommentsTitle, TitleParts
from .thread_data import ThreadState, author_name
from .thread_list import ThreadList
from .thread_loader import PAGE_SIZE, REFRESH_SECONDS, ThreadLoader
from .thread_pane import ThreadPane

__all__ = ["CommentsScreen"]

STATUSES = ("open", "resolved", "all")
FOLLOW_SECONDS = 0.1
WIDE_CELLS = 100
"""From this width on the list and the thread are side by side."""
LIST_SHARE = (0.4, 0.6)
"""The share of the screen the thread list takes at least and at most, side by side."""
THREAD_MIN_CELLS = 48
"""The thread pane never gets fewer cells than this (a readable line of a post)."""


class CommentsScreen(ThreadLoader):
    """The Comments view (see the module doc)."""

    AUTO_FOCUS = "#thread-list"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (WIDE_CELLS, "-wide")]

    DEFAULT_CSS = """
    CommentsScreen #comments-title { height: 1; background: $panel; padding: 0 1; }
    CommentsScreen #comments-error { height: auto; background: $error-muted; padding: 0 1;
                                     display: none; }
    CommentsScreen #comments-error.-shown { display: block; }
    CommentsScreen #comments-body { height: 1fr; }
    CommentsScreen #thread-list { width: 40%; border-right: vkey $panel-lighten-2; }
    CommentsScreen #thread-side { width: 1fr; }
    CommentsScreen.-narrow #thread-list { width: 100%; border-right: none; }
    CommentsScreen.-narrow #thread-side { display: none; }
    CommentsScreen.-narrow.-thread-open #thread-list { display: none; }
    CommentsScreen.-narrow.-thread-open #thread-side { display: block; width: 100%; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "compose", "Comment/reply", id="comments.compose"),
        Binding("e", "edit", "Edit", id="comments.edit"),
        Binding("d", "delete", "Delete", id="comments.delete"),
        Binding("x", "resolve", "Resolve/reopen", id="comments.resolve"),
        Binding("colon", "react", "React", id="comments.react"),
        Binding("f", "cycle_status", "Open/resolved/all", id="comments.status"),
        Binding("F", "pick_author", "Author", id="comments.author"),
        Binding("slash", "filter", "Filter", id="comments.filter"),
        Binding("ctrl+o", "toggle_scope", "Page/space", id="comments.scope"),
        Binding("J", "step_thread(1)", "Next thread", id="comments.next"),
        Binding("K", "step_thread(-1)", "Previous thread", id="comments.previous"),
        Binding("p", "open_page", "Open page", id="comments.open_page"),
        Binding("escape", "close_thread", "Back to list", id="comments.back"),
        pane_switch_binding("comments.switch_focus", "List/thread", show=False),
        Binding("r", "reload", "Reload", show=False, id="comments.reload"),
    ]

    def __init__(
        self,
        nav: Navigator,
        *,
        space_id: str | None = None,
        change_request: str | None = None,
        label: str = "",
        quote: tuple[str | None, str] | None = None,
    ) -> None:
        """``change_request`` (with its ``space_id`` and a ``label`` such as "#5 Fix"): that
        change request's threads, shown over its review pane (``escape`` goes back);
        ``quote``: start a new thread with it once loaded. Otherwise the space open in the
        browser (view 3)."""
        super().__init__()
        self.nav = nav
        self.client = nav.client
        self.space_id: str | None = space_id
        self.change_request = change_request
        self.label = label
        self.quote = quote
        self.space: Space | None = None
        self.page_scope: str | None = None  # a page id: only its threads
        self.status = "open"
        self.author: str | None = None
        self.author_picked = ""  # the chosen author's name as listed in the picker
        self.page_titles: dict[str, str] = {}  # page id → title, as last read
        self.me: User | None = None
        self.threads: dict[str, ThreadState] = {}
        self.order: list[str] = []
        self.selected_id: str | None = None
        self.loaded = False
        self.error: str | None = None
        self.offline = False
        self.cached_age = 0.0  # seconds: how old the list shown offline is
        self._interval = REFRESH_SECONDS
        self._timer: Timer | None = None
        self._requested_scope: str | None = None
        self._follow: Timer | None = None
        self.show_due = False
        """The list changed and the selected thread is shown again after the next refresh."""
        self._denials: tuple[str | None, ...] = ()
        self._drafted: set[str] = set()
        # threads and replies deleted here or found gone: a read sent before that does not
        # bring them back (ids are never reused)
        self.gone: set[str] = set()

    def compose(self) -> ComposeResult:
        yield CommentsTitle(id="comments-title")
        yield Static(id="comments-error", markup=False)
        yield FilterBox(placeholder="filter: page, author, text", id="comments-filter")
        with Horizontal(id="comments-body"):
            yield ThreadList(id="thread-list", classes=PANE_CLASS)
            with Vertical(id="thread-side", classes=PANE_CLASS):
                yield ThreadPane(id="thread-pane")
                yield Composer(id="composer")
        yield StatusBar(view="comments", id="comments-status")
        yield HintFooter(compact=True)

    def on_mount(self) -> None:
        self.query_one(StatusBar).follow(self.client)
        loop = self.replay_loop
        self._replays_seen = loop.replays if loop is not None else 0

    @property
    def busy(self) -> bool:
        """A load or write of this view is running (tests and benchmarks wait on it)."""
        if self._follow is not None or self.show_due:
            return True
        # a worker just started is PENDING until the loop runs it: still busy
        return any(not w.is_finished and w.node is self for w in self.app.workers)

    # -- showing --------------------------------------------------------------------------------
    def set_scope(self, scope: str) -> None:
        """``"page"``: the open page's threads (``C``); anything else: the whole space (``3``).
        Applied when the screen is next shown, or now if it is shown."""
        self._requested_scope = scope
        if self.is_current:
            self.on_screen_resume()

    def on_screen_resume(self) -> None:
        space, page = self.nav.space_id, self.nav.page_id
        if self.change_request is not None:  # a change request's threads: its space only
            space, page, self._requested_scope = self.space_id, None, None
        scope, self._requested_scope = self._requested_scope, None
        changed = space != self.space_id
        if changed:
            self.space_id, self.space, self.selected_id = space, None, None
            self.threads, self.order, self.page_scope = {}, [], None
            self.gone = set()
        if scope == "page" and page and self.page_scope != page:
            self.page_scope, changed = page, True
        elif scope is not None and scope != "page" and self.page_scope is not None:
            self.page_scope, changed = None, True
        self._draw_title()
        if changed or not self.loaded:
            self.loaded = False
            self._show_empty()
        self._load(live=not changed and self.loaded)
        self._start_timer()

    def _draw_title(self) -> None:
        where, named = "whole space", ""
        if self.change_request is not None:
            where, named = "change request", self.label
        elif self.page_scope is not None:
            named = self.page_titles.get(self.page_scope, "")
            where = "page" if named else "this page"
        offline = ""
        if self.offline:
            cached = f", cached {format_age(self.cached_age)}" if self.cached_age else ""
            offline = f" · offline{cached}"
        parts = TitleParts(
            space=(self.space.title or "") if self.space is not None else "",
            status=self.status,
            where=where,
            named=named,
            quoted=where == "page",
            author=self._author_label(),
            count=self._count_text(),
            offline=offline,
            needle=self.thread_list.needle,
        )
        self.query_one(CommentsTitle).show(parts)

    def _count_text(self) -> str:
        """The count of threads listed: "3 of 10 threads" while the filter hides some."""
        if self.space_id is None:
            return " · no space open (1: Browse)"
        if not self.loaded:
            return " · loading…"
        every = count_of(len(self.order), "thread")
        if self.thread_list.needle and self.order:
            return f" · {len(self.thread_list.ids)} of {every}"
        return f" · {every}"

    # -- layout ---------------------------------------------------------------------------------
    def on_resize(self, event: events.Resize) -> None:
        self._fit_panes()

    @on(ThreadList.Measured)
    def _rows_measured(self) -> None:
        self._fit_panes()

    def _fit_panes(self) -> None:
        """Side by side, the list takes what its longest rows need, within
        :data:`LIST_SHARE` of the width and leaving the thread :data:`THREAD_MIN_CELLS`."""
        lst, width = self.thread_list, self.size.width
        if width < WIDE_CELLS:
            lst.styles.width = None  # the stylesheet's: the whole width
            return
        # the focus marker's column, the border on the right, the scrollbar when rows overflow
        chrome = 2
        if 2 * len(lst.ids) > lst.scrollable_content_region.height:
            chrome += lst.styles.scrollbar_size_vertical
        low = math.ceil(width * LIST_SHARE[0])
        high = max(low, min(int(width * LIST_SHARE[1]), width - THREAD_MIN_CELLS))
        cells = max(low, min(lst.wanted + chrome, high))
        if lst.styles.width is None or lst.styles.width.cells != cells:
            lst.styles.width = cells

    # -- selection ------------------------------------------------------------------------------
    @on(OptionList.OptionHighlighted, "#thread-list")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id is None or event.option.id == self.selected_id:
            return
        left = self.selected
        if left is not None and (left.new or left.new_replies_from is not None):
            left.new, left.new_replies_from = False, None  # seen: the marks go
            self.thread_list.replace_row(left)
        self.selected_id = event.option.id
        self.refresh_denials()
        # The list repaints now; the thread follows once the cursor rests (holding j
        # does not rebuild a thread per row).
        if self._follow is not None:
            self._follow.stop()
        self._follow = self.set_timer(FOLLOW_SECONDS, self._follow_cursor)

    async def _follow_cursor(self) -> None:
        self._follow = None
        await self.show_selected()

    @on(ThreadPane.PostChosen)
    def _post_chosen(self) -> None:
        self.refresh_denials()  # e, d, :… follow the post under the pane's cursor

    @on(events.DescendantFocus)
    def _focus_moved(self) -> None:
        self.refresh_denials()  # the list acts on the comment, the pane on its cursor's post

    @on(OptionList.OptionSelected, "#thread-list")
    async def _opened(self, event: OptionList.OptionSelected) -> None:
        thread = self.threads.get(event.option.id or "")
        if thread is None:
            return
        self.add_class("-thread-open")
        self.pane.focus()

    def action_close_thread(self) -> None:
        """``escape`` closes the innermost thing first: the open thread, then a filter kept
        on the list, then (a change request's threads) this screen."""
        box = self.query_one("#comments-filter", FilterBox)
        if self.has_class("-thread-open") or self.pane.has_focus:
            self.remove_class("-thread-open")
            self.thread_list.focus()
        elif box.is_open or self.thread_list.needle:
            box.action_clear()  # Cleared: the list shows every thread again
        elif self.change_request is not None:
            self.dismiss(None)  # back to the review pane

    def action_switch_focus(self) -> None:
        """The kit's pane switch: the thread under the cursor, or back to the list."""
        if self.pane.has_focus_within:
            self.action_close_thread()
        elif self.thread_list.selected_id is not None:
            self.add_class("-thread-open")
            self.pane.focus()

    def action_step_thread(self, delta: int) -> None:
        ids = self.thread_list.ids
        if not ids:
            return
        index = ids.index(self.selected_id) if self.selected_id in ids else -1
        self.thread_list.highlighted = max(0, min(index + delta, len(ids) - 1))

    # -- filters --------------------------------------------------------------------------------
    def _reload(self) -> None:
        self.loaded = False
        self.threads, self.order, self.selected_id = {}, [], None
        self._draw_title()
        self._show_empty()
        self._load()

    def action_filter(self) -> None:
        self.remove_class("-thread-open")
        self.query_one("#comments-filter", FilterBox).open()

    @on(Input.Changed, "#comments-filter")
    def _filtered(self, event: Input.Changed) -> None:
        self.thread_list.refilter(event.value.strip())
        self.selected_id = self.thread_list.selected_id
        self._draw_title()
        if self.selected_id is None and self.order:
            # no match: the pane shows what the list says, not a thread it no longer has
            self.show_due = True
            self.call_after_refresh(self.show_selected)

    @on(FilterBox.Move, "#comments-filter")
    def _filter_move(self, event: FilterBox.Move) -> None:
        """``↓``/``↑``/``ctrl+n``/``ctrl+p`` in the filter: the cursor moves among the
        matches, the typing stays in the box."""
        event.stop()
        self.thread_list.action_pager_lines(event.step)

    @on(FilterBox.Done, "#comments-filter")
    @on(FilterBox.Cleared, "#comments-filter")
    def _filter_done(self, event: FilterBox.Done) -> None:
        """``enter`` opens the highlighted match (the filter stays applied, its box shows
        it); ``escape`` cleared it."""
        event.stop()
        if isinstance(event, FilterBox.Cleared):
            self.thread_list.focus()
        elif self.thread_list.selected_id is not None:
            self.thread_list.action_select()  # OptionSelected: the thread opens
        else:
            self.thread_list.focus()  # nothing to open: the list says why

    def action_cycle_status(self) -> None:
        self.status = STATUSES[(STATUSES.index(self.status) + 1) % len(STATUSES)]
        self._reload()

    def action_toggle_scope(self) -> None:
        if self.change_request is not None:
            self.notify("These are the change request's threads (escape: back).", timeout=3)
            return
        if self.page_scope is not None:
            self.page_scope = None
        elif self.nav.page_id and self.nav.space_id == self.space_id:
            self.page_scope = self.nav.page_id
        else:
            self.notify("Open a page of this space to see only its threads.", timeout=3)
            return
        self._reload()

    def action_reload(self) -> None:
        self._load(live=True)

    @work(exclusive=True, group="comments-authors", exit_on_error=False)
    async def action_pick_author(self) -> None:
        if self.space_id is None:
            self.notify(NO_SPACE, timeout=4, markup=False)
            return
        try:
            pager = self.client.comments.commenters(
                self.space_id, change_request=self.change_request, limit=PAGE_SIZE
            )
            members = [m async for m in pager]
        except GitBookError as exc:
            self.notify(
                plain(f"Could not list the commenters: {exc}"), severity="error", markup=False
            )
            return
        users = [m.user for m in members if m.user is not None]
        choice = await self.app.push_screen_wait(AuthorPicker(users, self.author))
        if choice is None:
            return
        self.author = choice or None
        picked = next((u for u in users if u.id == choice), None)
        self.author_picked = author_name(picked) if picked is not None else ""
        self._reload()

    def action_open_page(self) -> None:
        thread = self.selected
        page = thread.comment.target.page if thread and thread.comment.target else None
        if self.space_id is None or page is None or page.id is None:
            self.notify("This thread is not on a page.", timeout=3)
            return
        if self.change_request is not None:
            self.notify("The review pane shows this page's changes (escape: back).", timeout=3)
            return
        node = thread.comment.target.node if thread and thread.comment.target else None
        space_id = self.space_id  # Browse shows the page (at the block, if any)
        self.nav.navigate(OpenPage(space_id, page.id, node.id if node is not None else None))

    # -- composer -------------------------------------------------------------------------------
    @on(Composer.Hidden)
    @on(Composer.Sent)
    def _composer_closed(self, event: Composer.Hidden | Composer.Sent) -> None:
        key = self.composer.key
        if key is not None and key.kind in (REPLY, EDIT_COMMENT, EDIT_REPLY):
            thread = self.threads.get(key.target.split("/", 1)[0])
            if thread is not None:
                thread.drafted = isinstance(event, Composer.Hidden) and bool(
                    self.composer.text.strip()
                )
                self.thread_list.replace_row(thread)
        if self.composing_new:
            self.composing_new = False
            self.remove_class("-thread-open")
            self.thread_list.focus()
        else:
            self.pane.focus()
