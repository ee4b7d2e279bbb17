"""CommentActions: the base of the Comments view holding its writes — post, reply, edit,
delete, resolve, react.

Every action is permission-aware (:meth:`denial_reason` from the items' ``permissions``,
:func:`gated`). Reactions, resolves and new replies show at once with a pending mark and
are rolled back with a notification when the server refuses them. When the server is
unreachable, comments, replies, reactions and resolves go to the app's outbox
(:class:`~gitbook_tui.drafts.ReplayLoop`: "n queued" in every view's status bar), replayed
in order when the server is back; an item refused on replay is notified and its text
becomes a draft again. Edits and deletes are never queued.
"""

from __future__ import annotations

import hashlib
import itertools

from textual import work
from textual.screen import Screen

from ...api import APIConnectionError, AsyncGitBook, GitBookError, NotFoundError
from ...drafts import DraftKey, OutboxAction, OutboxItem, ReplayLoop
from ...drafts.keys import COMMENT, EDIT_COMMENT, EDIT_REPLY, REPLY
from ...models import Comment, CommentReply, DocumentBody, Space, User
from ..common.composer import Composer
from ..common.confirm_screen import ConfirmScreen
from ..common.denial import gated
from ..common.navigator import Navigator
from ..common.text import plain
from .thread_data import Post, ThreadState, author_name, utc_now
from .thread_pane import ThreadPane

__all__ = ["NO_SPACE", "READ_ONLY", "CommentActions"]

READ_ONLY = "You have read access to this space: you can't comment here."
NO_SPACE = "No space open: press 1 (Browse) and pick a space, then 3 for its comments."
_local_ids = itertools.count(1)


class CommentActions(Screen[None]):
    """The writes of :class:`~.comments_screen.CommentsScreen`, which sets the state below
    and implements the view's reading side (the methods that raise here)."""

    composing_new = False
    _replays_seen = 0
    nav: Navigator
    client: AsyncGitBook
    space_id: str | None
    change_request: str | None
    """A change request's id: its threads (``None``: the space's)."""
    quote: tuple[str | None, str] | None
    """A new thread to start quoting a block: (page id, the quote as markdown)."""
    space: Space | None
    page_scope: str | None
    me: User | None
    threads: dict[str, ThreadState]
    selected_id: str | None
    gone: set[str]
    offline: bool

    @property
    def selected(self) -> ThreadState | None:
        return self.threads.get(self.selected_id) if self.selected_id else None

    @property
    def pane(self) -> ThreadPane:
        return self.query_one(ThreadPane)

    @property
    def composer(self) -> Composer:
        return self.query_one(Composer)

    def _draw_title(self) -> None:
        raise NotImplementedError

    def _load(self, live: bool = False) -> object:
        raise NotImplementedError

    def redraw_thread(self, thread: ThreadState) -> None:
        raise NotImplementedError

    def forget_thread(self, thread_id: str, message: str) -> None:
        raise NotImplementedError

    def refresh_denials(self) -> None:
        raise NotImplementedError

    # -- what may be done -----------------------------------------------------------------------
    def _target_post(self) -> Post | None:
        """The post the cursor is on: a reply when the thread pane has focus."""
        thread = self.selected
        if thread is None:
            return None
        if self.pane.has_focus and self.pane.thread is not None:
            return self.pane.selected
        return thread.comment

    def _replying(self) -> bool:
        return self.selected is not None and (
            self.pane.has_focus or (self.has_class("-narrow") and self.has_class("-thread-open"))
        )

    def denial_reason(self, action: str) -> str | None:
        thread, post = self.selected, self._target_post()
        perms = post.permissions if post is not None else None
        thread_perms = thread.comment.permissions if thread is not None else None
        can_comment = thread_perms is None or bool(thread_perms.reply)
        if action == "compose":
            if self._replying():
                return None if can_comment else READ_ONLY
            return self.new_thread_denial()
        if post is None or perms is None:
            return None
        if action == "edit" and not perms.edit:
            return "Only the author can edit this." if can_comment else READ_ONLY
        if action == "delete" and not perms.delete:
            return "Only the author or a space admin can delete this."
        if action in ("resolve", "react") and not can_comment:
            return READ_ONLY
        if action in ("edit", "delete", "react") and post.id.startswith("local-"):
            return "Wait until the server has it."
        return None

    def new_thread_denial(self) -> str | None:
        """Why the caller may not start a thread here (``None``: they may): the space's
        ``comment`` permission, as ``c`` is gated on it."""
        space_perms = self.space.permissions if self.space is not None else None
        if space_perms is not None and space_perms.comment is False:
            return READ_ONLY
        return None

    def nothing_selected(self) -> bool:
        """No thread to act on: say why (no space open, or no thread selected)."""
        if self.space_id is not None and self.selected is not None:
            return False
        message = NO_SPACE if self.space_id is None else "Select a thread first."
        self.notify(message, timeout=4, markup=False)
        return True

    # -- the outbox (the app's: one queue and replayer for every view) -----------------------
    @property
    def replay_loop(self) -> ReplayLoop | None:
        loop = getattr(self.app, "outbox_replay", None)
        return loop if isinstance(loop, ReplayLoop) else None

    @property
    def queued(self) -> int:
        """How many writes wait in the account's outbox (the status bar shows it)."""
        loop = self.replay_loop
        return loop.queued if loop is not None else 0

    async def _enqueue(self, action: OutboxAction) -> OutboxItem:
        loop = self.replay_loop
        if loop is None:
            raise RuntimeError("the server is unreachable and this app has no outbox")
        item = await loop.enqueue(action)
        self.offline = True
        self._draw_title()
        self.notify("Server unreachable: queued, sent when it is back.", timeout=4)
        return item

    def outbox_replayed(self) -> None:
        """The app replayed queued writes while this view is shown: show the server's copies."""
        if self.settle_replays():
            self._load(live=True)

    def settle_replays(self) -> bool:
        """Whether queued writes were replayed since this view last looked; if so, their
        local copies give way to the server's (the threads reload)."""
        loop = self.replay_loop
        if loop is None or loop.replays == self._replays_seen:
            return False
        self._replays_seen = loop.replays
        for thread in self.threads.values():
            local = {i for i in thread.pending if i.startswith("local-")}
            if local:
                thread.pending -= local
                thread.stale = True
        return True

    # -- compose / reply / edit ---------------------------------------------------------------
    @gated
    async def action_compose(self) -> None:
        if self.space_id is None:
            self.notify(NO_SPACE, timeout=4, markup=False)
            return
        thread = self.selected
        if self._replying() and thread is not None:
            key = self._key(REPLY, thread.id)
            title = f"Reply to {author_name(thread.comment.postedBy)}"
            self.composing_new = False
            await self.composer.open(key, title, lambda text: self._send_reply(thread.id, text))
            return
        page, initial, variant = self.page_scope, "", ""
        if self.quote is not None:
            (page, initial), self.quote = self.quote, None
            variant = f"quote-{hashlib.sha256(initial.encode()).hexdigest()[:16]}"
            title = "New thread quoting a block"
        elif self.change_request is not None:
            title = "New thread on the change request"
        else:
            if page is None and self.nav.space_id == self.space_id:
                page = self.nav.page_id
            title = "New thread on this page" if page else "New thread on the whole space"
        key = self._key(COMMENT, page or "", variant=variant)
        self.composing_new = True
        self.add_class("-thread-open")
        await self.composer.open(
            key, title, lambda text: self._send_new(page, key, text), initial=initial
        )

    def _key(self, kind: str, target: str, *, variant: str = "") -> DraftKey:
        """The draft key of a composer of this view (space, change request, target)."""
        cr = self.change_request or ""
        return DraftKey(
            kind, space=self.space_id or "", change_request=cr, target=target, variant=variant
        )

    async def _send_new(self, page: str | None, key: DraftKey, text: str) -> None:
        assert self.space_id is not None
        try:
            created = await self.client.comments.create(
                self.space_id, text, page=page, change_request=self.change_request
            )
        except APIConnectionError:
            await self._enqueue(
                OutboxAction.new_comment(
                    self.space_id,
                    text,
                    page=page,
                    change_request=self.change_request,
                    draft=key,
                    label="a new thread",
                )
            )
            return
        self.threads[created.id] = ThreadState(created, replies=[])
        self.selected_id = created.id
        self._load(live=True)

    async def _send_reply(self, thread_id: str, text: str) -> None:
        assert self.space_id is not None
        thread = self.threads.get(thread_id)
        if thread is None:
            raise RuntimeError("this thread is no longer listed")
        local = CommentReply(
            id=f"local-{next(_local_ids)}",
            postedBy=self.me,
            postedAt=utc_now(),
            body=DocumentBody(markdown=text),
        )
        thread.replies = [*(thread.replies or []), local]
        thread.pending.add(local.id)
        self.redraw_thread(thread)
        try:
            reply = await self.client.comments.create_reply(
                self.space_id, thread_id, text, change_request=self.change_request
            )
        except APIConnectionError:
            key = self._key(REPLY, thread_id)
            label = f"a reply to {author_name(thread.comment.postedBy)}"
            await self._enqueue(
                OutboxAction.new_reply(
                    self.space_id,
                    thread_id,
                    text,
                    change_request=self.change_request,
                    draft=key,
                    label=label,
                )
            )
            return
        except GitBookError as exc:
            thread.replies = [r for r in thread.replies or [] if r.id != local.id]
            thread.pending.discard(local.id)
            self.redraw_thread(thread)
            if isinstance(exc, NotFoundError):
                self.forget_thread(thread_id, "This thread was deleted meanwhile.")
                # nothing typed is lost: the text becomes a new thread's draft on its page
                self.call_later(self._rescue_reply, thread, text)
                raise RuntimeError(
                    "this thread was deleted meanwhile — opening your text as a new thread"
                ) from None
            raise
        thread.pending.discard(local.id)
        thread.replies = [reply if r.id == local.id else r for r in thread.replies or []]
        thread.comment = thread.comment.model_copy(
            update={"replies": (thread.comment.replies or 0) + 1}
        )
        self.redraw_thread(thread)

    async def _rescue_reply(self, thread: ThreadState, text: str) -> None:
        """A reply whose thread was deleted meanwhile: its draft moves to the new-thread key
        of the thread's page (after a draft already there) and that composer opens with it."""
        target = thread.comment.target
        page = target.page.id if target is not None and target.page is not None else None
        old, key = self._key(REPLY, thread.id), self._key(COMMENT, page or "")
        debouncer = self.composer.debouncer
        existing = await debouncer.load(key)
        if existing is not None and existing.text.strip() and text not in existing.text:
            text = f"{existing.text.rstrip()}\n\n{text}"
        where = "this page" if page else "the whole space"
        title = f"Thread deleted: post your reply as a new thread on {where}?"
        debouncer.schedule(key, text, title=title)
        await debouncer.flush(key)
        self.composing_new = True
        self.add_class("-thread-open")
        await self.composer.open(key, title, lambda t: self._send_new(page, key, t))
        await debouncer.discard(old)
        self.notify(
            "The thread was deleted meanwhile: your reply is now a new-thread draft "
            f"on {where} (ctrl+s posts it, escape keeps the draft for c).",
            severity="warning",
            timeout=8,
            markup=False,
        )

    @gated
    async def action_edit(self) -> None:
        if self.nothing_selected():
            return
        thread, post = self.selected, self._target_post()
        if thread is None or post is None or self.space_id is None:
            return
        space_id, thread_id, post_id = self.space_id, thread.id, post.id
        cr = self.change_request
        if isinstance(post, Comment):
            key = self._key(EDIT_COMMENT, post_id)
        else:
            key = self._key(EDIT_REPLY, f"{thread_id}/{post_id}")

        async def send(text: str) -> None:
            comments = self.client.comments
            try:
                if isinstance(post, Comment):
                    updated: Post = await comments.update(
                        space_id, post_id, markdown=text, change_request=cr
                    )
                else:
                    updated = await comments.update_reply(
                        space_id, thread_id, post_id, markdown=text, change_request=cr
                    )
            except APIConnectionError as exc:
                raise RuntimeError(f"{exc} — edits are not queued; the draft is kept") from None
            except NotFoundError:
                self.forget_thread(thread_id, "This comment was deleted meanwhile.")
                raise
            self._replace_post(thread_id, updated)

        self.composing_new = False
        await self.composer.open(key, "Edit your comment", send, initial=post.body.markdown or "")

    def _replace_post(self, thread_id: str, post: Post) -> None:
        thread = self.threads.get(thread_id)
        if thread is None:
            return
        if isinstance(post, Comment):
            thread.comment = post
        else:
            thread.replies = [post if r.id == post.id else r for r in thread.replies or []]
        self.redraw_thread(thread)

    # -- delete ---------------------------------------------------------------------------------
    @gated
    @work(exclusive=True, group="comments-delete", exit_on_error=False)
    async def action_delete(self) -> None:
        if self.nothing_selected():
            return
        thread, post = self.selected, self._target_post()
        if thread is None or post is None or self.space_id is None:
            return
        is_thread = isinstance(post, Comment)
        what = "this thread and its replies" if is_thread else "this reply"
        effect = f"Deletes {what} by {author_name(post.postedBy)}. The API has no undo."
        ok = await self.app.push_screen_wait(
            ConfirmScreen("Delete?", effect, confirm_label="Delete")
        )
        if not ok:
            return
        comments, cr = self.client.comments, self.change_request
        try:
            if is_thread:
                await comments.delete(self.space_id, thread.id, change_request=cr)
            else:
                await comments.delete_reply(self.space_id, thread.id, post.id, change_request=cr)
        except NotFoundError:
            self.notify("It was already deleted.", timeout=4)
        except GitBookError as exc:
            self.notify(plain(f"Not deleted: {exc}"), severity="error", markup=False)
            return
        if is_thread:
            self.forget_thread(thread.id, "Thread deleted.")
            return
        self.gone.add(post.id)
        thread.replies = [r for r in thread.replies or [] if r.id != post.id]
        count = max(0, (thread.comment.replies or 0) - 1)
        thread.comment = thread.comment.model_copy(update={"replies": count})
        self.redraw_thread(thread)
