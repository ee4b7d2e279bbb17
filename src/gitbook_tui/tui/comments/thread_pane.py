"""ThreadPane: the selected thread — its comment and replies; j/k pick the post acted on."""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widgets import Static

from ..common.text import inert
from .mark_colours import mark_colours
from .post_view import PostView
from .thread_data import Post, ThreadState, author_name, mine

__all__ = ["ThreadPane"]


def _is_new(thread: ThreadState, index: int, post: Post, me: str | None) -> bool:
    """Post ``index`` (0 = the comment) arrived since the thread was last looked at; what
    ``me`` posted (sent from the offline queue, say) is never new to me."""
    if mine(post, me):
        return False
    if index == 0:
        return thread.new and thread.new_replies_from is None
    return thread.new_replies_from is not None and index > thread.new_replies_from


class ThreadPane(VerticalScroll, can_focus=True):
    """Shows one :class:`ThreadState`; ``cursor`` is the selected post (0 = the comment)."""

    class PostChosen(Message):
        """The post acted on changed (shown, moved to, or the thread replaced): what may be
        done with it may differ."""

    DEFAULT_CSS = """
    ThreadPane { height: 1fr; }
    ThreadPane > #thread-heading { padding: 0 1; color: $text-muted; height: auto; }
    ThreadPane > #thread-empty { padding: 1 2; color: $text-muted; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j,down", "move(1)", "Next post", show=False, id="thread.next_post"),
        Binding("k,up", "move(-1)", "Previous post", show=False, id="thread.prev_post"),
        Binding("g,home", "first", "First post", show=False, id="thread.first"),
        Binding("G,end", "last", "Last post", show=False, id="thread.last"),
        Binding("enter", "screen.open_page", "Open page", id="thread.open_page"),
        Binding("h,left", "screen.close_thread", "Back to list", show=False, id="thread.back"),
        # the pager keys (common/pager.py) that the Comments view leaves free (d is delete)
        Binding("space,ctrl+f", "pager_pages(1)", "Page down", show=False, id="thread.page_down"),
        Binding("b,ctrl+b", "pager_pages(-1)", "Page up", show=False, id="thread.page_up"),
        Binding("ctrl+d", "pager_half(1)", "Half page down", show=False, id="thread.half_down"),
        Binding("ctrl+u", "pager_half(-1)", "Half page up", show=False, id="thread.half_up"),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.thread: ThreadState | None = None
        self.cursor = 0
        self.me: str | None = None
        self.now: datetime | None = None
        self._showing = asyncio.Lock()

    @property
    def posts(self) -> list[PostView]:
        return list(self.query(PostView))

    @property
    def selected(self) -> Post | None:
        posts = self.posts
        if not posts:
            return None
        return posts[min(self.cursor, len(posts) - 1)].post

    async def show(self, thread: ThreadState | None, *, empty: str = "") -> None:
        """Show ``thread`` (keeping the cursor on the same post when it is the same thread)."""
        async with self._showing:  # one rebuild at a time (refreshes and writes overlap)
            await self._show(thread, empty)

    async def _show(self, thread: ThreadState | None, empty: str) -> None:
        same = thread is not None and self.thread is not None and thread.id == self.thread.id
        previous = self.selected.id if same and self.selected is not None else None
        scroll = self.scroll_y
        self.thread = thread
        with self.app.batch_update():
            await self.remove_children()
            if thread is None:
                await self.mount(Static(inert(empty), id="thread-empty", markup=False))
                return
            views = [
                PostView(
                    post,
                    me=self.me,
                    reply=index > 0,
                    pending=post.id in thread.pending,
                    new=_is_new(thread, index, post, self.me),
                    now=self.now,
                )
                for index, post in enumerate(thread.posts())
            ]
            await self.mount(Static(self._heading(thread), id="thread-heading", markup=False))
            await self.mount_all(views)
            ids = [v.post.id for v in views]
            self.cursor = ids.index(previous) if previous in ids else 0
            if same:  # a refresh of the thread on screen: stay where the reader is
                self.call_after_refresh(self.scroll_to, y=scroll, animate=False)
            else:
                self.scroll_home(animate=False)
            self._mark()

    def _heading(self, thread: ThreadState) -> Content:
        comment = thread.comment
        target = comment.target
        page = target.page if target is not None else None
        parts = [inert((page.title if page and page.title else "whole space"), style="bold")]
        if page is not None and page.outdated:
            warning = (mark_colours(self) or ("$text-warning",))[0]
            parts.append(inert(" · page changed since", style=warning))
        if target is not None and target.node is not None and target.node.id:
            parts.append(inert(f" · on ¶ {target.node.id}", style="$text-muted"))
        if comment.is_resolved:
            who = f" by {author_name(comment.resolvedBy)}" if comment.resolvedBy else ""
            parts.append(inert(f" · ✓ resolved{who}", style="$success"))
        else:
            parts.append(inert(" · open", style="$text-muted"))
        if thread.replies is None and (comment.replies or 0) > 0:
            parts.append(inert(f" · loading {comment.replies} replies…", style="$text-muted"))
        return Content("").join(parts)

    def refresh_post(self, post: Post, *, pending: bool) -> None:
        for view in self.posts:
            if view.post.id == post.id:
                view.refresh_post(post, pending=pending)
        if self.thread is not None:
            self.query_one("#thread-heading", Static).update(self._heading(self.thread))

    def _mark(self) -> None:
        for index, view in enumerate(self.posts):
            view.set_class(index == self.cursor, "-selected")
        self.post_message(self.PostChosen())

    def select(self, index: int) -> None:
        posts = self.posts
        if not posts:
            return
        self.cursor = max(0, min(index, len(posts) - 1))
        self._mark()
        self.scroll_to_widget(posts[self.cursor], animate=False, top=False)

    def action_move(self, delta: int) -> None:
        self.select(self.cursor + delta)

    def action_first(self) -> None:
        if self.posts:
            self.cursor = 0
            self._mark()
        self.scroll_home(animate=False, immediate=True)  # the heading too

    def _page(self) -> int:
        return max(1, self.scrollable_content_region.height)

    def action_pager_pages(self, step: int) -> None:
        self.scroll_relative(y=step * self._page(), animate=False, immediate=True)

    def action_pager_half(self, step: int) -> None:
        self.scroll_relative(y=step * max(1, self._page() // 2), animate=False, immediate=True)

    def action_last(self) -> None:
        self.select(len(self.posts) - 1)
