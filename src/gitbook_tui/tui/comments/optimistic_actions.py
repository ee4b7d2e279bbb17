"""OptimisticActions: resolve / reopen and reactions in the Comments view — shown at once with
a pending mark, rolled back with a notification when the server refuses them, queued in the
account's outbox when it is unreachable."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from textual import work

from ...api import APIConnectionError, GitBookError, NotFoundError
from ...drafts import OutboxAction
from ...models import Comment, CommentStatus
from ..common.denial import gated
from ..common.text import plain
from .comment_actions import CommentActions
from .reaction_picker import ReactionPicker
from .thread_data import Post, ThreadState, author_name, reacted, toggle_reaction

__all__ = ["OptimisticActions"]


class OptimisticActions(CommentActions):
    """The optimistic writes of the Comments view (the rest is in :class:`CommentActions`)."""

    @gated
    async def action_resolve(self) -> None:
        if self.nothing_selected():
            return
        thread = self.selected
        if thread is None or self.space_id is None:
            return
        before, cr = thread.comment, self.change_request
        resolved = not before.is_resolved
        status = CommentStatus.resolved if resolved else CommentStatus.open
        after = before.model_copy(update={"status": status, "resolvedBy": self.me})
        thread.comment = after
        self._optimistic(
            thread,
            before,
            lambda: self.client.comments.update(
                self.space_id or "", thread.id, resolved=resolved, change_request=cr
            ),
            OutboxAction.new_resolve(
                self.space_id, thread.id, resolved=resolved, change_request=cr
            ),
            "resolve" if resolved else "reopen",
        )

    @gated
    @work(exclusive=True, group="comments-react", exit_on_error=False)
    async def action_react(self) -> None:
        if self.nothing_selected():
            return
        thread, post = self.selected, self._target_post()
        if thread is None or post is None or self.space_id is None:
            return
        me = self.me.id if self.me else None
        mine = {r.emoji for r in post.reactions if reacted(r, me)}
        emoji = await self.app.push_screen_wait(
            ReactionPicker(mine, f"{author_name(post.postedBy)}'s post")
        )
        if not emoji or self.space_id is None:
            return
        added, reactions = toggle_reaction(post, emoji, self.me)
        changes: dict[str, Any] = {"added_reactions" if added else "removed_reactions": [emoji]}
        changes["change_request"] = self.change_request
        space_id, thread_id, post_id = self.space_id, thread.id, post.id
        comments = self.client.comments
        call: Callable[[], Awaitable[Post]]
        if isinstance(post, Comment):
            before: Post = thread.comment
            thread.comment = thread.comment.model_copy(update={"reactions": reactions})
            call = lambda: comments.update(space_id, thread_id, **changes)  # noqa: E731
        else:
            before = post
            new = post.model_copy(update={"reactions": reactions})
            thread.replies = [new if r.id == post_id else r for r in thread.replies or []]
            call = lambda: comments.update_reply(space_id, thread_id, post_id, **changes)  # noqa: E731
        queued = OutboxAction.new_reaction(
            space_id,
            thread_id,
            reply=None if isinstance(post, Comment) else post_id,
            added=[emoji] if added else [],
            removed=[] if added else [emoji],
            change_request=self.change_request,
        )
        self._optimistic(thread, before, call, queued, "reaction")

    def _optimistic(
        self,
        thread: ThreadState,
        before: Post,
        call: Any,
        queued: OutboxAction,
        what: str,
    ) -> None:
        thread.pending.add(before.id)
        self.redraw_thread(thread)
        self._settle(thread.id, before, call, queued, what)

    @work(group="comments-write", exit_on_error=False)
    async def _settle(
        self,
        thread_id: str,
        before: Post,
        call: Any,
        queued: OutboxAction,
        what: str,
    ) -> None:
        try:
            answer = await call()
        except APIConnectionError:
            await self._enqueue(queued)
            thread = self.threads.get(thread_id)
            if thread is not None:
                thread.pending.discard(before.id)
                self.redraw_thread(thread)
            return
        except GitBookError as exc:
            thread = self.threads.get(thread_id)
            if thread is not None:
                thread.pending.discard(before.id)
                self._replace_post(thread_id, before)  # roll back
            self.notify(
                plain(f"The server refused the {what}: {exc}"),
                markup=False,
                title="Undone",
                severity="error",
                timeout=8,
            )
            if isinstance(exc, NotFoundError):
                self.forget_thread(thread_id, "This thread was deleted meanwhile.")
            return
        thread = self.threads.get(thread_id)
        if thread is not None:
            thread.pending.discard(before.id)
            self._replace_post(thread_id, answer)
