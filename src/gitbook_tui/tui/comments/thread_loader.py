"""ThreadLoader: the reading side of the Comments view — loading and refreshing threads.

The list loads with ``read="network"`` (the cache revalidates with an ETag and answers
when the server is unreachable); while the view is shown it is refreshed every
:data:`REFRESH_SECONDS` (doubling up to :data:`MAX_REFRESH_SECONDS` when rate-limited).
Threads and replies that appear meanwhile get a "new" mark; the cursor, the scroll and an
open composer are left alone. Replies load when a thread is shown.
"""

from __future__ import annotations

import asyncio

from textual import work
from textual.timer import Timer
from textual.widgets import Static

from ...api import APIStatusError, GitBookError, NotFoundError, RateLimitError, response_meta
from ...drafts import DraftStore
from ...drafts.keys import EDIT_COMMENT, EDIT_REPLY, REPLY
from ...models import Comment
from ..common.failure import load_failure
from ..common.status_bar import StatusBar
from ..common.text import inert, plain
from .optimistic_actions import OptimisticActions
from .thread_data import ThreadState, author_name, mine, more_replies_from_others
from .thread_list import ThreadList

__all__ = ["MAX_REFRESH_SECONDS", "PAGE_SIZE", "REFRESH_SECONDS", "ThreadLoader"]

REFRESH_SECONDS = 15.0
MAX_REFRESH_SECONDS = 240.0
PAGE_SIZE = 100


def _drafted_threads(store: DraftStore, space_id: str, change_request: str) -> set[str]:
    """Threads of the space (or its change request) with a saved reply or edit draft (file
    IO: run in a thread)."""
    found: set[str] = set()
    for draft in store.list():
        key = draft.key
        if key.space != space_id or key.change_request != change_request:
            continue
        if key.kind in (REPLY, EDIT_COMMENT):
            found.add(key.target)
        elif key.kind == EDIT_REPLY:
            found.add(key.target.split("/", 1)[0])
    return found


class ThreadLoader(OptimisticActions):
    """Loads what :class:`~.comments_screen.CommentsScreen` shows (state set up there)."""

    status: str
    author: str | None
    author_picked: str
    page_titles: dict[str, str]
    order: list[str]
    loaded: bool
    show_due: bool
    error: str | None
    cached_age: float
    _interval: float
    _timer: Timer | None
    _drafted: set[str]
    _denials: tuple[str | None, ...]

    @property
    def thread_list(self) -> ThreadList:
        return self.query_one(ThreadList)

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

    def show_error(self, message: str | None) -> None:
        self.error = message
        banner = self.query_one("#comments-error", Static)
        banner.update(inert(message or ""))
        banner.set_class(bool(message), "-shown")

    def _show_empty(self) -> None:
        self.thread_list.show_empty(self._empty_text())
        self.call_later(self.pane.show, None, empty=self._empty_text())

    def _empty_text(self) -> str:
        if self.space_id is None:
            return "No space open. Press 1 (Browse) and pick a space, then 3 for its comments."
        if not self.loaded:
            return "Loading threads…"
        if not self.order:
            return self._no_threads_text()
        if self.thread_list.needle and not self.thread_list.ids:
            return self.thread_list.no_match_text()
        return "Select a thread (j/k, enter)."

    def _author_label(self) -> str:
        """Who the threads shown are by: "anyone", or the chosen author's name (from their
        threads, else as picked — they may have none in this scope)."""
        if not self.author:
            return "anyone"
        match = next(
            (
                t.comment.postedBy
                for t in self.threads.values()
                if t.comment.postedBy and t.comment.postedBy.id == self.author
            ),
            None,
        )
        return author_name(match) if match else self.author_picked or "one author"

    def _no_threads_text(self) -> str:
        which = {"open": "open threads", "resolved": "resolved threads"}.get(self.status, "threads")
        where = "in this space"
        if self.change_request is not None:
            where = "on this change request"
        elif self.page_scope is not None:
            where = "on this page"
        by = f" by {self._author_label()}" if self.author else ""
        # only what the caller may do: a reader is not told that c starts one
        steps = [] if self.new_thread_denial() is not None else ["c starts one"]
        if self.status == "open":
            steps.append("f shows resolved ones")
        return f"No {which} {where}{by}" + (f" — {', '.join(steps)}." if steps else ".")

    # -- loading --------------------------------------------------------------------------------
    @work(exclusive=True, group="comments-load", exit_on_error=False)
    async def _load(self, live: bool = False) -> None:
        space_id = self.space_id
        if space_id is None:
            self.loaded = True
            self._draw_title()
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
                self.query_one(StatusBar).set_user(author_name(self.me))
                self._load_members()
            pager = client.comments.list(
                space_id,
                change_request=self.change_request,
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
            self.show_error(f"{load_failure('comments', exc, client.base_url)} (r retries)")
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
        cr = self.change_request or ""
        drafted = await asyncio.to_thread(_drafted_threads, store, space_id, cr)
        for comment in comments:
            comment_drafted = comment.id in drafted
            state = self.threads.get(comment.id)
            if state is not None:
                state.drafted = comment_drafted
        self._drafted = drafted
        self.settle_replays()
        await self._apply(comments, live=live)
        if self.quote is not None:
            self.call_after_refresh(self.run_action, "compose")  # ``c`` in the review pane

    async def _apply(self, comments: list[Comment], *, live: bool) -> None:
        previous = self.threads
        me = self.me.id if self.me is not None else None
        threads: dict[str, ThreadState] = {}
        shown = previous.get(self.selected_id or "")
        shown_before = (shown.comment, shown.stale) if shown is not None else None
        for comment in comments:
            if comment.id in self.gone:
                continue
            old = previous.get(comment.id)
            if old is None:
                # my own thread (sent from the offline queue, say) is never new to me
                threads[comment.id] = ThreadState(
                    comment,
                    new=live and self.loaded and not mine(comment, me),
                    drafted=comment.id in self._drafted,
                )
                continue
            more = (comment.replies or 0) > (old.comment.replies or 0)
            same_replies = (comment.replies or 0) == len(old.replies or []) and not more
            if live and more and old.new_replies_from is None:
                old.new_replies_from = old.comment.replies or 0
            # only replies by others make a row "new" (the thread pane marks the same ones)
            old.new = old.new or (live and more_replies_from_others(old.comment, comment, me))
            old.comment = comment
            if not same_replies and old.replies is not None:
                old.stale = True  # shown as they are until the new ones arrive
            threads[comment.id] = old
        # a thread being written to stays until the server's answer settles it
        for thread_id, state in previous.items():
            if thread_id not in threads and state.pending:
                threads[thread_id] = state
        self.threads = threads
        self.order = list(threads)
        self.loaded = True
        self._note_page_titles(comments)
        keep = self.selected_id if self.selected_id in threads else None
        self.thread_list.show([threads[i] for i in self.order], selected=keep)
        if not self.order:
            self.thread_list.show_empty(self._empty_text())
        if keep is None and self.order:
            self.selected_id = self.thread_list.selected_id
        self._draw_title()
        selected = self.selected
        on_screen = self.pane.thread
        if (
            selected is None
            or selected.stale
            or shown_before != (selected.comment, False)
            or on_screen is None  # e.g. "Loading threads…" after a change of scope
            or on_screen.id != selected.id
        ):
            # the list paints first; the thread follows in the next turn (a refresh that
            # changed nothing in it leaves it, and its scroll position, alone)
            self.show_due = True
            self.call_after_refresh(self.show_selected)

    async def show_selected(self) -> None:
        """Show the selected thread in the pane (loading its replies when needed)."""
        self.show_due = False
        thread = self.selected
        if thread is None:
            await self.pane.show(None, empty=self._empty_text())
            self.refresh_denials()
            return
        await self.pane.show(thread)
        self.refresh_denials()
        if (thread.replies is None or thread.stale) and (thread.comment.replies or 0) > 0:
            self._load_replies(thread.id)
        elif thread.replies is None:
            thread.replies = []

    def _note_page_titles(self, comments: list[Comment]) -> None:
        """Keep the titles of the pages the threads are on (the page scope's title names
        that page); a scoped page with no thread has its title read once."""
        for comment in comments:
            page = comment.target.page if comment.target is not None else None
            if page is not None and page.id and page.title:
                self.page_titles[page.id] = page.title
        scope, space_id = self.page_scope, self.space_id
        if scope is not None and space_id is not None and scope not in self.page_titles:
            self.page_titles[scope] = ""  # asked once: "this page" until the answer
            self._load_page_title(space_id, scope)

    @work(group="comments-page-title", exit_on_error=False)
    async def _load_page_title(self, space_id: str, page_id: str) -> None:
        try:
            page = await self.client.content.get_page(
                space_id, page_id, format="markdown", read="prefer-cache"
            )  # what the browser read (its cached copy, when there is a cache)
        except GitBookError:
            return  # the title says "this page"
        if page.title and not self.page_titles.get(page_id):
            self.page_titles[page_id] = page.title
            self._draw_title()

    @work(exclusive=True, group="comments-replies", exit_on_error=False)
    async def _load_replies(self, thread_id: str) -> None:
        space_id = self.space_id
        if space_id is None:
            return
        try:
            pager = self.client.comments.replies(
                space_id, thread_id, change_request=self.change_request, limit=PAGE_SIZE
            )
            # (a read sent before a reply was deleted here still lists it)
            replies = [reply async for reply in pager if reply.id not in self.gone]
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
        thread.replies, thread.stale = [*replies, *pending], False
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
        self.gone.add(thread_id)
        if self.threads.pop(thread_id, None) is None:
            return
        self.order = [i for i in self.order if i != thread_id]
        if self.selected_id == thread_id:
            self.selected_id = None
        self.thread_list.show([self.threads[i] for i in self.order])
        if not self.order:
            self.thread_list.show_empty(self._empty_text())
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
