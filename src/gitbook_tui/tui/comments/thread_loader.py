"""ThreadLoader: the reading side of the Comments view — loading and refreshing threads.

The list loads with ``read="network"`` (the cache revalidates with an ETag and answers
when the server is unreachable); while the view is shown it is refreshed every
:data:`REFRESH_SECONDS` (doubling up to :data:`MAX_REFRESH_SECONDS` when rate-limited).
Threads and replies that appear meanwhile get a "new" mark; the cursor, the scroll and an
open composer are left alone. Replies load when a thread is shown. The reads themselves are
in :mod:`.thread_requests`, the merge in :mod:`.comments_state`.
"""

from __future__ import annotations

from functools import partial

from textual.timer import Timer

from ...api import APIStatusError, GitBookError, NotFoundError, RateLimitError
from ...models import Comment
from ..common.failure import load_failure
from ..common.text import plain
from .comments_host import CommentsHost
from .thread_data import author_name
from .thread_requests import (
    read_drafted_threads,
    read_me,
    read_member_names,
    read_page_title,
    read_replies,
    read_space,
    read_threads,
)

__all__ = ["MAX_REFRESH_SECONDS", "REFRESH_SECONDS", "ThreadLoader"]

REFRESH_SECONDS = 15.0
MAX_REFRESH_SECONDS = 240.0


class ThreadLoader:
    """Loads what the Comments screen (``host``) shows into its state, and shows it."""

    def __init__(self, host: CommentsHost) -> None:
        self.host = host
        self.state = host.state
        self.interval = REFRESH_SECONDS
        self.timer: Timer | None = None
        self.show_due = False
        """The list changed and the selected thread is shown again after the next refresh."""

    # -- the live refresh -----------------------------------------------------------------------
    def start_timer(self) -> None:
        self.stop_timer()
        self.timer = self.host.set_interval(self.interval, self._tick)

    def stop_timer(self) -> None:
        if self.timer is not None:
            self.timer.stop()
            self.timer = None

    def _tick(self) -> None:
        if self.host.is_current:
            self.load(live=True)

    # -- loading --------------------------------------------------------------------------------
    def load(self, live: bool = False) -> None:
        """Read the threads (``live``: a refresh of those shown, new ones marked)."""
        self.host.run_worker(
            partial(self._load, live), group="comments-load", exclusive=True, exit_on_error=False
        )

    async def _load(self, live: bool) -> None:
        host, state = self.host, self.state
        space_id = state.space_id
        if space_id is None:
            state.loaded = True
            host.draw_title()
            self.show_empty()
            return
        client = host.client
        try:
            if state.space is None:
                state.space = await read_space(client, space_id)
            if state.me is None:
                state.me = await read_me(client)
                host.thread_list.me = host.pane.me = state.me.id
                host.show_user(author_name(state.me))
                self._load_members()
            read = await read_threads(
                client,
                space_id,
                change_request=state.change_request,
                status=state.status,
                page=state.page_scope,
                author=state.author,
            )
        except RateLimitError:
            self.interval = min(self.interval * 2, MAX_REFRESH_SECONDS)
            self.start_timer()
            return
        except GitBookError as exc:
            state.offline = not isinstance(exc, APIStatusError)
            host.show_error(f"{load_failure('comments', exc, client.base_url)} (r retries)")
            state.loaded = True
            host.draw_title()
            return
        if space_id != state.space_id:
            return
        if self.interval != REFRESH_SECONDS:
            self.interval = REFRESH_SECONDS
            self.start_timer()
        state.offline, state.cached_age = read.offline, read.age
        host.show_error(None)
        store = host.composer.debouncer.store
        drafted = await read_drafted_threads(store, space_id, state.change_request or "")
        for comment in read.comments:
            thread = state.threads.get(comment.id)
            if thread is not None:
                thread.drafted = comment.id in drafted
        state.drafted = drafted
        host.settle_replays()
        await self.apply(read.comments, live=live)
        if state.quote is not None:
            host.call_after_refresh(host.run_action, "compose")  # ``c`` in the review pane

    async def apply(self, comments: list[Comment], *, live: bool) -> None:
        """Show a read of the threads: the list at once, the thread in the next turn."""
        host, state = self.host, self.state
        shown = state.threads.get(state.selected_id or "")
        shown_before = (shown.comment, shown.stale) if shown is not None else None
        state.merge(comments, live=live)
        scope, space_id = state.page_scope, state.space_id
        if scope is not None and space_id is not None and scope not in state.page_titles:
            state.page_titles[scope] = ""  # asked once: "this page" until the answer
            host.run_worker(
                partial(self._load_page_title, space_id, scope),
                group="comments-page-title",
                exit_on_error=False,
            )
        keep = state.selected_id if state.selected_id in state.threads else None
        host.thread_list.show([state.threads[i] for i in state.order], selected=keep)
        if not state.order:
            host.thread_list.show_empty(host.empty_text())
        if keep is None and state.order:
            state.selected_id = host.thread_list.selected_id
        host.draw_title()
        selected = state.selected
        on_screen = host.pane.thread
        if (
            selected is None
            or selected.stale
            or shown_before != (selected.comment, False)
            or on_screen is None  # e.g. "Loading threads…" after a change of scope
            or on_screen.id != selected.id
        ):
            # the list paints first; the thread follows in the next turn (a refresh that
            # changed nothing in it leaves it, and its scroll position, alone)
            self.show_selected_soon()

    def show_selected_soon(self) -> None:
        self.show_due = True
        self.host.call_after_refresh(self.show_selected)

    async def show_selected(self) -> None:
        """Show the selected thread in the pane (loading its replies when needed)."""
        self.show_due = False
        host, thread = self.host, self.state.selected
        if thread is None:
            await host.pane.show(None, empty=host.empty_text())
            host.refresh_denials()
            return
        await host.pane.show(thread)
        host.refresh_denials()
        if (thread.replies is None or thread.stale) and (thread.comment.replies or 0) > 0:
            self.load_replies(thread.id)
        elif thread.replies is None:
            thread.replies = []

    def show_empty(self) -> None:
        host = self.host
        host.thread_list.show_empty(host.empty_text())
        host.call_later(host.pane.show, None, empty=host.empty_text())

    async def _load_page_title(self, space_id: str, page_id: str) -> None:
        try:
            title = await read_page_title(self.host.client, space_id, page_id)
        except GitBookError:
            return  # the title says "this page"
        if title and not self.state.page_titles.get(page_id):
            self.state.page_titles[page_id] = title
            self.host.draw_title()

    def load_replies(self, thread_id: str) -> None:
        self.host.run_worker(
            partial(self._load_replies, thread_id),
            group="comments-replies",
            exclusive=True,
            exit_on_error=False,
        )

    async def _load_replies(self, thread_id: str) -> None:
        host, state = self.host, self.state
        space_id = state.space_id
        if space_id is None:
            return
        try:
            replies = await read_replies(
                host.client,
                space_id,
                thread_id,
                change_request=state.change_request,
                gone=state.gone,
            )
        except NotFoundError:
            self.forget_thread(thread_id, "This thread was deleted meanwhile.")
            return
        except GitBookError as exc:
            host.notify(plain(f"Could not load the replies: {exc}"), severity="error", markup=False)
            return
        # (a read sent before a reply was deleted here listed it: filter again)
        replies = [reply for reply in replies if reply.id not in state.gone]
        thread = state.threads.get(thread_id)
        if thread is None:
            return
        pending = [r for r in thread.replies or [] if r.id in thread.pending]
        thread.replies, thread.stale = [*replies, *pending], False
        if state.selected_id == thread_id:
            await host.pane.show(thread)

    def _load_members(self) -> None:
        """Organization members, for ``@`` completion in the composer."""
        org = self.host.nav.organization_id
        if org:
            self.host.run_worker(
                partial(self._read_members, org),
                group="comments-members",
                exclusive=True,
                exit_on_error=False,
            )

    async def _read_members(self, org: str) -> None:
        try:
            names = await read_member_names(self.host.client, org)
        except GitBookError:
            return  # no completion; typing still works
        self.host.composer.set_members(names)

    def forget_thread(self, thread_id: str, message: str) -> None:
        """Drop a thread the server no longer has (deleted meanwhile)."""
        host, state = self.host, self.state
        if not state.forget(thread_id):
            return
        host.thread_list.show([state.threads[i] for i in state.order])
        if not state.order:
            host.thread_list.show_empty(host.empty_text())
        state.selected_id = host.thread_list.selected_id
        host.notify(message, severity="warning", markup=False)
        host.draw_title()
        host.call_later(self.show_selected)
