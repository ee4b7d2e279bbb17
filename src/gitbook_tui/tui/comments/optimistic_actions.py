"""OptimisticActions: resolve / reopen and reactions in the Comments view — shown at once with
a pending mark, rolled back with a notification when the server refuses them, queued in the
account's outbox when it is unreachable."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import partial

from ...api import APIConnectionError, GitBookError, NotFoundError
from ...drafts import OutboxAction
from ...models import Comment, CommentStatus
from ..common.text import plain
from .comment_actions import CommentActions
from .comments_host import CommentsHost
from .reaction_picker import ReactionPicker
from .thread_data import Post, ThreadState, author_name, reacted, toggle_reaction

__all__ = ["OptimisticActions"]


class OptimisticActions:
    """The optimistic writes of the Comments screen (``host``); ``actions`` has the rest
    (what is selected, the outbox)."""

    def __init__(self, host: CommentsHost, actions: CommentActions) -> None:
        self.host = host
        self.state = host.state
        self.actions = actions

    async def resolve(self) -> None:
        if self.actions.nothing_selected():
            return
        thread = self.state.selected
        if thread is None:
            return
        writes = self.actions.writes()
        before = thread.comment
        resolved = not before.is_resolved
        status = CommentStatus.resolved if resolved else CommentStatus.open
        thread.comment = before.model_copy(update={"status": status, "resolvedBy": self.state.me})
        self._optimistic(
            thread,
            before,
            lambda: writes.resolve(thread.id, resolved=resolved),
            writes.queued_resolve(thread.id, resolved=resolved),
            "resolve" if resolved else "reopen",
        )

    async def react(self) -> None:
        if self.actions.nothing_selected():
            return
        thread, post = self.state.selected, self.actions.target_post()
        if thread is None or post is None:
            return
        me = self.state.me_id
        mine = {r.emoji for r in post.reactions if reacted(r, me)}
        emoji = await self.host.app.push_screen_wait(
            ReactionPicker(mine, f"{author_name(post.postedBy)}'s post")
        )
        if not emoji or self.state.space_id is None:
            return
        writes, thread_id = self.actions.writes(), thread.id
        added, reactions = toggle_reaction(post, emoji, self.state.me)
        before: Post
        if isinstance(post, Comment):
            before = thread.comment
            thread.comment = thread.comment.model_copy(update={"reactions": reactions})
        else:
            before = post
            new = post.model_copy(update={"reactions": reactions})
            thread.replies = [new if r.id == post.id else r for r in thread.replies or []]
        self._optimistic(
            thread,
            before,
            lambda: writes.react(thread_id, post, emoji, added=added),
            writes.queued_reaction(thread_id, post, emoji, added=added),
            "reaction",
        )

    def _optimistic(
        self,
        thread: ThreadState,
        before: Post,
        call: Callable[[], Awaitable[Post]],
        queued: OutboxAction,
        what: str,
    ) -> None:
        thread.pending.add(before.id)
        self.host.redraw_thread(thread)
        self.host.run_worker(
            partial(self._settle, thread.id, before, call, queued, what),
            group="comments-write",
            exit_on_error=False,
        )

    async def _settle(
        self,
        thread_id: str,
        before: Post,
        call: Callable[[], Awaitable[Post]],
        queued: OutboxAction,
        what: str,
    ) -> None:
        try:
            answer = await call()
        except APIConnectionError:
            await self.actions.enqueue(queued)
            thread = self.state.threads.get(thread_id)
            if thread is not None:
                thread.pending.discard(before.id)
                self.host.redraw_thread(thread)
            return
        except GitBookError as exc:
            thread = self.state.threads.get(thread_id)
            if thread is not None:
                thread.pending.discard(before.id)
                self.actions.replace_post(thread_id, before)  # roll back
            self.host.notify(
                plain(f"The server refused the {what}: {exc}"),
                markup=False,
                title="Undone",
                severity="error",
                timeout=8,
            )
            if isinstance(exc, NotFoundError):
                self.actions.loader.forget_thread(thread_id, "This thread was deleted meanwhile.")
            return
        thread = self.state.threads.get(thread_id)
        if thread is not None:
            thread.pending.discard(before.id)
            self.actions.replace_post(thread_id, answer)
