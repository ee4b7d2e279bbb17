"""CommentsScreen: view 3 — the threads of a space or page, the selected thread, a composer.

At 100 columns and more the thread list (~38 %) sits left of the thread and its composer;
below that the list is full width, ``enter`` opens the thread full width and ``escape``
goes back. The list loads with ``read="network"`` (the cache revalidates with an ETag and
answers when the server is unreachable); while the view is shown it is refreshed every
:data:`REFRESH_SECONDS` (doubling up to :data:`MAX_REFRESH_SECONDS` when rate-limited).
Threads and replies that appear meanwhile get a "new" mark; the cursor, the scroll and an
open composer are left alone. Writes are in :mod:`.comment_actions`.
"""

from __future__ import annotations

import asyncio
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.timer import Timer
from textual.widgets import OptionList, Static

from ...api import APIStatusError, GitBookError, NotFoundError, RateLimitError, response_meta
from ...drafts import DraftStore
from ...drafts.keys import EDIT_COMMENT, EDIT_REPLY, REPLY
from ...models import Comment, Space, User
from ..common.composer import Composer
from ..common.hint_footer import HintFooter
from ..common.navigator import Navigator
from ..common.status_bar import format_age
from ..common.text import inert, plain
from .author_picker import AuthorPicker
from .comment_actions import CommentActions
from .thread_data import ThreadState, author_name
from .thread_list import ThreadList
from .thread_pane import ThreadPane

__all__ = ["CommentsScreen"]

REFRESH_SECONDS = 15.0
MAX_REFRESH_SECONDS = 240.0
STATUSES = ("open", "resolved", "all")
PAGE_SIZE = 100
FOLLOW_SECONDS = 0.04


def _drafted_threads(store: DraftStore, space_id: str) -> set[str]:
    """Threads of the space with a saved reply or edit draft (file IO: run in a thread)."""
    found: set[str] = set()
    for draft in store.list():
        key = draft.key
        if key.space != space_id or key.change_request:
            continue
        if key.kind in (REPLY, EDIT_COMMENT):
            found.add(key.target)
        elif key.kind == EDIT_REPLY:
            found.add(key.target.split("/", 1)[0])
    return found


class CommentsScreen(CommentActions):
    """The Comments view (see the module doc)."""

    AUTO_FOCUS = "#thread-list"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]

    DEFAULT_CSS = """
    CommentsScreen #comments-title { height: 1; background: $panel; padding: 0 1; }
    CommentsScreen #comments-error { height: auto; background: $error-muted; padding: 0 1;
                                     display: none; }
    CommentsScreen #comments-error.-shown { display: block; }
    CommentsScreen #comments-body { height: 1fr; }
    CommentsScreen #thread-list { width: 38%; border-right: vkey $panel-lighten-2; }
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
        Binding("ctrl+o", "toggle_scope", "Page/space", id="comments.scope"),
        Binding("J", "step_thread(1)", "Next thread", id="comments.next"),
        Binding("K", "step_thread(-1)", "Previous thread", id="comments.previous"),
        Binding("p", "open_page", "Open page", id="comments.open_page"),
        Binding("escape", "close_thread", "Back to list", id="comments.back"),
        Binding("r", "reload", "Reload", show=False, id="comments.reload"),
    ]

    def __init__(self, nav: Navigator) -> None:
        super().__init__()
        self.nav = nav
        self.client = nav.client
        self.space_id: str | None = None
        self.space: Space | None = None
        self.page_scope: str | None = None  # a page id: only its threads
        self.status = "open"
        self.author: str | None = None
        self.me: User | None = None
        self.threads: dict[str, ThreadState] = {}
        self.order: list[str] = []
        self.selected_id: str | None = None
        self.loaded = False
        self.error: str | None = None
        self.offline = False
        self.cached_age = 0.0  # seconds: how old the list shown offline is
        self.queued = 0
        self._interval = REFRESH_SECONDS
        self._timer: Timer | None = None
        self._requested_scope: str | None = None
        self._follow: Timer | None = None
        self._denials: tuple[str | None, ...] = ()
        self._drafted: set[str] = set()

    def compose(self) -> ComposeResult:
        yield Static(id="comments-title", markup=False)
        yield Static(id="comments-error", markup=False)
        with Horizontal(id="comments-body"):
            yield ThreadList(id="thread-list")
            with Vertical(id="thread-side"):
                yield ThreadPane(id="thread-pane")
                yield Composer(id="composer")
        yield HintFooter(compact=True)

    @property
    def thread_list(self) -> ThreadList:
        return self.query_one(ThreadList)

    @property
    def busy(self) -> bool:
        """A load or write of this view is running (tests and benchmarks wait on it)."""
        if self._follow is not None:
            return True
        return any(w.is_running and w.node is self for w in self.app.workers)

    # -- showing --------------------------------------------------------------------------------
    def set_scope(self, scope: str) -> None:
        """``"page"``: the open page's threads (``C``); anything else: the whole space (``3``)."""
        self._requested_scope = scope

    def on_screen_resume(self) -> None:
        space, page = self.nav.space_id, self.nav.page_id
        scope, self._requested_scope = self._requested_scope, None
        changed = space != self.space_id
        if changed:
            self.space_id, self.space, self.selected_id = space, None, None
            self.threads, self.order, self.page_scope = {}, [], None
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

    def on_screen_suspend(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _start_timer(self) -> None:
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_interval(self._interval, self._tick)

    def _tick(self) -> None:
        if self.is_current:
            self._load(live=True)

    def _draw_title(self) -> None:
        where = "this page" if self.page_scope else "whole space"
        space = self.space.title if self.space is not None else ""
        author = "anyone"
        if self.author:
            match = next(
                (
                    t.comment.postedBy
                    for t in self.threads.values()
                    if t.comment.postedBy and t.comment.postedBy.id == self.author
                ),
                None,
            )
            author = author_name(match) if match else "one author"
        parts = [
            inert("Comments", style="bold"),
            inert(f" · {space}" if space else ""),
            inert(f" · {self.status} · {where} · {author}", style="$text-accent"),
            inert(f" · {len(self.order)} threads" if self.loaded else " · loading…", style="dim"),
        ]
        if self.offline:
            cached = f", cached {format_age(self.cached_age)}" if self.cached_age else ""
            parts.append(inert(f" · offline{cached}", style="$warning"))
        if self.queued:
            parts.append(inert(f" · {self.queued} queued", style="bold $warning"))
        self.query_one("#comments-title", Static).update(Content("").join(parts))

    def show_error(self, message: str | None) -> None:
        self.error = message
        banner = self.query_one("#comments-error", Static)
        banner.update(inert(message or ""))
        banner.set_class(bool(message), "-shown")

    def _show_empty(self) -> None:
        self.thread_list.show([])
        self.call_later(self.pane.show, None, empty=self._empty_text())

    def _empty_text(self) -> str:
        if self.space_id is None:
            return "Open a space in Browse (1) to see its comments."
        if not self.loaded:
            return "Loading threads…"
        if not self.order:
            return "No threads here. c starts one, f shows resolved threads."
        return "Select a thread (j/k, enter)."

    # -- loading --------------------------------------------------------------------------------
    @work(exclusive=True, group="comments-load", exit_on_error=False)
    async def _load(self, live: bool = False) -> None:
        space_id = self.space_id
        if space_id is None:
            self.loaded = True
            self._show_empty()
            return
        client = self.client
        comments: list[Comment] = []
        offline, age = False, 0.0
        try:
            if self.space is None:
                self.space = await client.spaces.get(space_id, read="prefer-cache")
            if self.me is None:
                self.me = await client.users.me(read="prefer-cache")
                self.thread_list.me = self.pane.me = self.me.id
                self._load_members()
            pager = client.comments.list(
                space_id,
                status=None if self.status == "all" else self.status,
                target_page=self.page_scope,
                authors=[self.author] if self.author else None,
                limit=PAGE_SIZE,
            )
            async for page in pager.pages():
                meta = response_meta(page)
                if meta is not None and meta.offline:
                    offline, age = True, max(age, meta.age)
                comments.extend(page.items)
        except RateLimitError:
            self._interval = min(self._interval * 2, MAX_REFRESH_SECONDS)
            self._start_timer()
            return
        except GitBookError as exc:
            self.offline = not isinstance(exc, APIStatusError)
            self.show_error(f"Could not load comments from {client.base_url}: {exc} (r retries)")
            self.loaded = True
            self._draw_title()
            return
        if space_id != self.space_id:
            return
        if self._interval != REFRESH_SECONDS:
            self._interval = REFRESH_SECONDS
            self._start_timer()
        self.offline, self.cached_age = offline, age
        self.show_error(None)
        store = self.composer.debouncer.store
        drafted = await asyncio.to_thread(_drafted_threads, store, space_id)
        for comment in comments:
            comment_drafted = comment.id in drafted
            state = self.threads.get(comment.id)
            if state is not None:
                state.drafted = comment_drafted
        self._drafted = drafted
        await self._apply(comments, live=live)
        if not offline:
            await self.replay_outbox()
        else:
            await self.count_queued()

    async def _apply(self, comments: list[Comment], *, live: bool) -> None:
        previous = self.threads
        threads: dict[str, ThreadState] = {}
        for comment in comments:
            old = previous.get(comment.id)
            if old is None:
                threads[comment.id] = ThreadState(
                    comment, new=live and self.loaded, drafted=comment.id in self._drafted
                )
                continue
            more = (comment.replies or 0) > (old.comment.replies or 0)
            same_replies = (comment.replies or 0) == len(old.replies or []) and not more
            if live and more and old.new_replies_from is None:
                old.new_replies_from = old.comment.replies or 0
            old.comment = comment
            old.new = old.new or (live and more)
            if not same_replies:
                old.replies = None
            threads[comment.id] = old
        # a thread being written to stays until the server's answer settles it
        for thread_id, state in previous.items():
            if thread_id not in threads and state.pending:
                threads[thread_id] = state
        self.threads = threads
        self.order = list(threads)
        self.loaded = True
        keep = self.selected_id if self.selected_id in threads else None
        self.thread_list.show([threads[i] for i in self.order], selected=keep)
        if keep is None and self.order:
            self.selected_id = self.thread_list.selected_id
        self._draw_title()
        # the list paints first; the thread follows in the next turn
        self.call_after_refresh(self.show_selected)

    async def show_selected(self) -> None:
        """Show the selected thread in the pane (loading its replies when needed)."""
        thread = self.selected
        if thread is None:
            await self.pane.show(None, empty=self._empty_text())
            self.refresh_denials()
            return
        await self.pane.show(thread)
        self.refresh_denials()
        if thread.replies is None and (thread.comment.replies or 0) > 0:
            self._load_replies(thread.id)
        elif thread.replies is None:
            thread.replies = []

    @work(exclusive=True, group="comments-replies", exit_on_error=False)
    async def _load_replies(self, thread_id: str) -> None:
        space_id = self.space_id
        if space_id is None:
            return
        try:
            pager = self.client.comments.replies(space_id, thread_id, limit=PAGE_SIZE)
            replies = [reply async for reply in pager]
        except NotFoundError:
            self.forget_thread(thread_id, "This thread was deleted meanwhile.")
            return
        except GitBookError as exc:
            self.notify(plain(f"Could not load the replies: {exc}"), severity="error", markup=False)
            return
        thread = self.threads.get(thread_id)
        if thread is None:
            return
        pending = [r for r in thread.replies or [] if r.id in thread.pending]
        thread.replies = [*replies, *pending]
        if self.selected_id == thread_id:
            await self.pane.show(thread)

    @work(exclusive=True, group="comments-members", exit_on_error=False)
    async def _load_members(self) -> None:
        """Organization members, for ``@`` completion in the composer."""
        org = self.nav.organization_id
        if not org:
            return
        try:
            pager = self.client.orgs.members(org, limit=PAGE_SIZE, read="prefer-cache")
            members = [m async for m in pager]
        except GitBookError:
            return  # no completion; typing still works
        names = sorted({author_name(m.user) for m in members if m.user is not None})
        self.composer.set_members(names)

    def forget_thread(self, thread_id: str, message: str) -> None:
        """Drop a thread the server no longer has (deleted meanwhile)."""
        if self.threads.pop(thread_id, None) is None:
            return
        self.order = [i for i in self.order if i != thread_id]
        if self.selected_id == thread_id:
            self.selected_id = None
        self.thread_list.show([self.threads[i] for i in self.order])
        self.selected_id = self.thread_list.selected_id
        self.notify(message, severity="warning", markup=False)
        self._draw_title()
        self.call_later(self.show_selected)

    def redraw_thread(self, thread: ThreadState) -> None:
        """Re-show a thread changed locally (optimistic update, rollback, server answer)."""
        self.thread_list.replace_row(thread)
        if self.selected_id == thread.id:
            self.call_later(self.pane.show, thread)
        self.refresh_denials()

    def refresh_denials(self) -> None:
        """Redraw the footer only when what is denied changed (a footer rebuild per cursor
        move would cost more than the move)."""
        actions = ("compose", "edit", "delete", "resolve", "react")
        denials = tuple(self.denial_reason(action) for action in actions)
        if denials != self._denials:
            self._denials = denials
            self.refresh_bindings()

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

    @on(OptionList.OptionSelected, "#thread-list")
    async def _opened(self, event: OptionList.OptionSelected) -> None:
        thread = self.threads.get(event.option.id or "")
        if thread is None:
            return
        self.add_class("-thread-open")
        self.pane.focus()

    def action_close_thread(self) -> None:
        if self.has_class("-thread-open") or self.pane.has_focus:
            self.remove_class("-thread-open")
            self.thread_list.focus()

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

    def action_cycle_status(self) -> None:
        self.status = STATUSES[(STATUSES.index(self.status) + 1) % len(STATUSES)]
        self._reload()

    def action_toggle_scope(self) -> None:
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
            return
        try:
            pager = self.client.comments.commenters(self.space_id, limit=PAGE_SIZE)
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
        self._reload()

    def action_open_page(self) -> None:
        thread = self.selected
        page = thread.comment.target.page if thread and thread.comment.target else None
        if self.space_id is None or page is None or page.id is None:
            self.notify("This thread is not on a page.", timeout=3)
            return
        node = thread.comment.target.node if thread and thread.comment.target else None
        space_id = self.space_id
        self.app.pop_screen()  # back to Browse, where the page opens (at the block, if any)
        self.nav.open_page(space_id, page.id, node.id if node is not None else None)

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
