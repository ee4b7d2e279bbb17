"""CommentsScreen: view 3 — the threads of a space or page, the selected thread, a composer.

At 100 columns and more the thread list sits left of the thread, as wide as its rows need
(:meth:`ThreadList.fit_to`); narrower, ``enter`` opens the thread full width and ``escape``
goes back. The screen composes its widgets and holds its :class:`CommentsState` and helpers:
:class:`ThreadLoader` (reads, live refresh), :class:`ThreadScope` (filters),
:class:`CommentActions` and :class:`OptimisticActions` (writes); requests are in
:mod:`.thread_requests`.
"""

from __future__ import annotations

from typing import ClassVar

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Input, OptionList, Static

from ...drafts.keys import EDIT_COMMENT, EDIT_REPLY, REPLY
from ..common.composer import Composer
from ..common.denial import gated
from ..common.filter_box import FilterBox
from ..common.hint_footer import HintFooter
from ..common.navigator import Navigator
from ..common.pane_group import PANE_CLASS, pane_switch_binding
from ..common.status_bar import StatusBar
from ..common.text import inert
from .comment_actions import CommentActions
from .comments_state import CommentsState
from .comments_title import CommentsTitle, title_parts
from .optimistic_actions import OptimisticActions
from .thread_data import ThreadState
from .thread_list import WIDE_CELLS, ThreadList
from .thread_loader import ThreadLoader
from .thread_pane import ThreadPane
from .thread_scope import ThreadScope

__all__ = ["CommentsScreen"]

FOLLOW_SECONDS = 0.1


class CommentsScreen(Screen[None]):
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
        self.state = CommentsState(
            space_id=space_id, change_request=change_request, label=label, quote=quote
        )
        self._requested_scope: str | None = None
        self._follow: Timer | None = None
        self.loader = ThreadLoader(self)
        self.actions = CommentActions(self, self.loader)
        self.optimistic = OptimisticActions(self, self.actions)
        self.scope = ThreadScope(self, self.loader)

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
        self.actions.note_replays()

    # -- what the helpers, the app and tests read ----------------------------------------------
    @property
    def thread_list(self) -> ThreadList:
        return self.query_one(ThreadList)

    @property
    def pane(self) -> ThreadPane:
        return self.query_one(ThreadPane)

    @property
    def composer(self) -> Composer:
        return self.query_one(Composer)

    @property
    def space_id(self) -> str | None:
        return self.state.space_id

    @property
    def change_request(self) -> str | None:
        return self.state.change_request

    @property
    def page_scope(self) -> str | None:
        return self.state.page_scope

    @property
    def loaded(self) -> bool:
        return self.state.loaded

    @property
    def selected(self) -> ThreadState | None:
        return self.state.selected

    @property
    def queued(self) -> int:
        return self.actions.queued

    @property
    def busy(self) -> bool:
        """A load or write of this view is running (tests and benchmarks wait on it)."""
        if self._follow is not None or self.loader.show_due:
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
        state = self.state
        scope, self._requested_scope = self._requested_scope, None
        changed = state.rescope(self.nav.space_id, self.nav.page_id, scope)
        self.draw_title()
        if changed or not state.loaded:
            state.loaded = False
            self.loader.show_empty()
        self.loader.load(live=not changed and state.loaded)
        self.loader.start_timer()

    def on_screen_suspend(self) -> None:
        self.loader.stop_timer()

    def draw_title(self) -> None:
        listed = self.thread_list
        parts = title_parts(self.state, needle=listed.needle, listed=len(listed.ids))
        self.query_one(CommentsTitle).show(parts)

    def show_error(self, message: str | None) -> None:
        self.state.error = message
        banner = self.query_one("#comments-error", Static)
        banner.update(inert(message or ""))
        banner.set_class(bool(message), "-shown")

    def show_user(self, name: str) -> None:
        self.query_one(StatusBar).set_user(name)

    def empty_text(self) -> str:
        state, listed = self.state, self.thread_list
        if state.space_id is None:
            return "No space open. Press 1 (Browse) and pick a space, then 3 for its comments."
        if not state.loaded:
            return "Loading threads…"
        if not state.order:  # only what the caller may do: a reader's c is refused
            return state.no_threads_text(may_start=self.actions.new_thread_denial() is None)
        if listed.needle and not listed.ids:
            return listed.no_match_text()
        return "Select a thread (j/k, enter)."

    _empty_text = empty_text  # (a name tests of other views read)

    def redraw_thread(self, thread: ThreadState) -> None:
        """Re-show a thread changed locally (optimistic update, rollback, server answer)."""
        self.thread_list.replace_row(thread)
        if self.state.selected_id == thread.id:
            self.call_later(self.pane.show, thread)
        self.refresh_denials()

    def denial_reason(self, action: str) -> str | None:
        return self.actions.denial_reason(action)

    def refresh_denials(self) -> None:
        """The footer asks again what is denied. Every time: it may have asked while the
        pane was between two threads (no post under its cursor: nothing denied), so a
        denial equal to the last one computed here may not be the one it shows; and it
        changes only the keys whose hints changed."""
        self.refresh_bindings()

    def settle_replays(self) -> bool:
        return self.actions.settle_replays()

    def outbox_replayed(self) -> None:
        """The app replayed queued writes while this view is shown: show the server's copies."""
        if self.settle_replays():
            self.loader.load(live=True)

    def open_composer_full(self) -> None:
        self.add_class("-thread-open")

    # -- layout ---------------------------------------------------------------------------------
    def on_resize(self, event: events.Resize) -> None:
        self.thread_list.fit_to(self.size.width)

    @on(ThreadList.Measured)
    def _rows_measured(self) -> None:
        self.thread_list.fit_to(self.size.width)

    # -- selection ------------------------------------------------------------------------------
    @on(OptionList.OptionHighlighted, "#thread-list")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id is None or event.option.id == self.state.selected_id:
            return
        seen = self.state.select(event.option.id)
        if seen is not None:  # its "new" marks went
            self.thread_list.replace_row(seen)
        self.refresh_denials()
        # The list repaints now; the thread follows once the cursor rests (holding j
        # does not rebuild a thread per row).
        if self._follow is not None:
            self._follow.stop()
        self._follow = self.set_timer(FOLLOW_SECONDS, self._follow_cursor)

    async def _follow_cursor(self) -> None:
        self._follow = None
        await self.loader.show_selected()

    @on(ThreadPane.PostChosen)
    @on(events.DescendantFocus)
    def _acting_on_moved(self) -> None:
        # e, d, :… act on the list's comment, or on the post under the pane's cursor
        self.refresh_denials()

    @on(OptionList.OptionSelected, "#thread-list")
    def _opened(self, event: OptionList.OptionSelected) -> None:
        if event.option.id in self.state.threads:
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
        elif self.state.change_request is not None:
            self.dismiss(None)  # back to the review pane

    def action_switch_focus(self) -> None:
        """The kit's pane switch: the thread under the cursor, or back to the list."""
        if self.pane.has_focus_within:
            self.action_close_thread()
        elif self.thread_list.selected_id is not None:
            self.add_class("-thread-open")
            self.pane.focus()

    def action_step_thread(self, delta: int) -> None:
        self.thread_list.step(delta, self.state.selected_id)

    # -- filters (the scope helper's) ----------------------------------------------------------
    def action_filter(self) -> None:
        self.remove_class("-thread-open")
        self.query_one("#comments-filter", FilterBox).open()

    @on(Input.Changed, "#comments-filter")
    def _filtered(self, event: Input.Changed) -> None:
        self.scope.refilter(event.value.strip())

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
        if isinstance(event, FilterBox.Cleared) or self.thread_list.selected_id is None:
            self.thread_list.focus()  # (nothing to open: the list says why)
        else:
            self.thread_list.action_select()  # OptionSelected: the thread opens

    def action_cycle_status(self) -> None:
        self.scope.cycle_status()

    def action_toggle_scope(self) -> None:
        self.scope.toggle_scope()

    def action_reload(self) -> None:
        self.loader.load(live=True)

    @work(exclusive=True, group="comments-authors", exit_on_error=False)
    async def action_pick_author(self) -> None:
        await self.scope.pick_author()

    def action_open_page(self) -> None:
        self.scope.open_page()

    # -- writes (the helpers') ----------------------------------------------------------------
    @gated
    async def action_compose(self) -> None:
        await self.actions.compose()

    @gated
    async def action_edit(self) -> None:
        await self.actions.edit()

    @gated
    @work(exclusive=True, group="comments-delete", exit_on_error=False)
    async def action_delete(self) -> None:
        await self.actions.delete()

    @gated
    async def action_resolve(self) -> None:
        await self.optimistic.resolve()

    @gated
    @work(exclusive=True, group="comments-react", exit_on_error=False)
    async def action_react(self) -> None:
        await self.optimistic.react()

    @on(Composer.Hidden)
    @on(Composer.Sent)
    def _composer_closed(self, event: Composer.Hidden | Composer.Sent) -> None:
        key = self.composer.key
        if key is not None and key.kind in (REPLY, EDIT_COMMENT, EDIT_REPLY):
            thread = self.state.threads.get(key.target.split("/", 1)[0])
            if thread is not None:
                thread.drafted = isinstance(event, Composer.Hidden) and bool(
                    self.composer.text.strip()
                )
                self.thread_list.replace_row(thread)
        if self.actions.composing_new:
            self.actions.composing_new = False
            self.remove_class("-thread-open")
            self.thread_list.focus()
        else:
            self.pane.focus()
