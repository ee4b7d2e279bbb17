"""CommentActions: the writes of the Comments view — post, reply, edit, delete — what may be
done, and the outbox.

Every action is permission-aware (:meth:`CommentActions.denial_reason` from the items'
``permissions``; the screen's actions are :func:`~..common.denial.gated`). New replies show
at once with a pending mark and are rolled back with a notification when the server refuses
them. When the server is unreachable, comments and replies go to the app's outbox
(:class:`~gitbook_tui.drafts.ReplayLoop`: "n queued" in every view's status bar), replayed
in order when the server is back; an item refused on replay is notified and its text
becomes a draft again. Edits and deletes are never queued. Resolves and reactions are in
:mod:`.optimistic_actions`; the requests in :mod:`.thread_requests`.
"""

from __future__ import annotations

import hashlib
import itertools

from ...api import APIConnectionError, GitBookError, NotFoundError
from ...drafts import DraftKey, OutboxAction, OutboxItem, ReplayLoop
from ...drafts.keys import COMMENT, EDIT_COMMENT, EDIT_REPLY, REPLY
from ...models import Comment, CommentReply, DocumentBody
from ..common.confirm_screen import ConfirmScreen
from ..common.text import plain
from .comments_host import CommentsHost
from .thread_data import Post, ThreadState, author_name, utc_now
from .thread_loader import ThreadLoader
from .thread_requests import CommentWrites

__all__ = ["NO_SPACE", "READ_ONLY", "CommentActions"]

READ_ONLY = "You have read access to this space: you can't comment here."
NO_SPACE = "No space open: press 1 (Browse) and pick a space, then 3 for its comments."
_local_ids = itertools.count(1)


class CommentActions:
    """The writes of the Comments screen (``host``); ``loader`` drops threads found gone
    and reloads after a new thread."""

    def __init__(self, host: CommentsHost, loader: ThreadLoader) -> None:
        self.host = host
        self.state = host.state
        self.loader = loader
        self.composing_new = False
        """The composer open is a new thread's (closing it goes back to the list)."""
        self.replays_seen = 0

    def note_replays(self) -> None:
        """Replays of the outbox so far are already in what this view reads (on mount)."""
        loop = self.replay_loop
        self.replays_seen = loop.replays if loop is not None else 0

    def writes(self) -> CommentWrites:
        """The requests that write to the space (or change request) shown."""
        state = self.state
        if state.space_id is None:
            raise RuntimeError("no space open")
        return CommentWrites(self.host.client, state.space_id, state.change_request)

    # -- what may be done -----------------------------------------------------------------------
    def target_post(self) -> Post | None:
        """The post the cursor is on: a reply when the thread pane has focus."""
        thread, pane = self.state.selected, self.host.pane
        if thread is None:
            return None
        if pane.has_focus and pane.thread is not None:
            return pane.selected
        return thread.comment

    @property
    def replying(self) -> bool:
        """A ``c`` now replies to the selected thread (its pane is shown and focused)."""
        host = self.host
        return self.state.selected is not None and (
            host.pane.has_focus or (host.has_class("-narrow") and host.has_class("-thread-open"))
        )

    def denial_reason(self, action: str) -> str | None:
        thread, post = self.state.selected, self.target_post()
        perms = post.permissions if post is not None else None
        thread_perms = thread.comment.permissions if thread is not None else None
        can_comment = thread_perms is None or bool(thread_perms.reply)
        if action == "compose":
            if self.replying:
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
        space = self.state.space
        space_perms = space.permissions if space is not None else None
        if space_perms is not None and space_perms.comment is False:
            return READ_ONLY
        return None

    def nothing_selected(self) -> bool:
        """No thread to act on: say why (no space open, or no thread selected)."""
        if self.state.space_id is not None and self.state.selected is not None:
            return False
        message = NO_SPACE if self.state.space_id is None else "Select a thread first."
        self.host.notify(message, timeout=4, markup=False)
        return True

    # -- the outbox (the app's: one queue and replayer for every view) -----------------------
    @property
    def replay_loop(self) -> ReplayLoop | None:
        loop = getattr(self.host.app, "outbox_replay", None)
        return loop if isinstance(loop, ReplayLoop) else None

    @property
    def queued(self) -> int:
        """How many writes wait in the account's outbox (the status bar shows it)."""
        loop = self.replay_loop
        return loop.queued if loop is not None else 0

    async def enqueue(self, action: OutboxAction) -> OutboxItem:
        loop = self.replay_loop
        if loop is None:
            raise RuntimeError("the server is unreachable and this app has no outbox")
        item = await loop.enqueue(action)
        self.state.offline = True
        self.host.draw_title()
        self.host.notify("Server unreachable: queued, sent when it is back.", timeout=4)
        return item

    def settle_replays(self) -> bool:
        """Whether queued writes were replayed since this view last looked; if so, their
        local copies give way to the server's (the threads reload)."""
        loop = self.replay_loop
        if loop is None or loop.replays == self.replays_seen:
            return False
        self.replays_seen = loop.replays
        self.state.settle_local_posts()
        return True

    # -- compose / reply / edit ---------------------------------------------------------------
    async def compose(self) -> None:
        host, state = self.host, self.state
        if state.space_id is None:
            host.notify(NO_SPACE, timeout=4, markup=False)
            return
        thread = state.selected
        if self.replying and thread is not None:
            key = self.key(REPLY, thread.id)
            title = f"Reply to {author_name(thread.comment.postedBy)}"
            self.composing_new = False
            await host.composer.open(key, title, lambda text: self._send_reply(thread.id, text))
            return
        page, initial, variant = state.page_scope, "", ""
        if state.quote is not None:
            (page, initial), state.quote = state.quote, None
            variant = f"quote-{hashlib.sha256(initial.encode()).hexdigest()[:16]}"
            title = "New thread quoting a block"
        elif state.change_request is not None:
            title = "New thread on the change request"
        else:
            if page is None and host.nav.space_id == state.space_id:
                page = host.nav.page_id
            title = "New thread on this page" if page else "New thread on the whole space"
        key = self.key(COMMENT, page or "", variant=variant)
        self.composing_new = True
        host.open_composer_full()
        await host.composer.open(
            key, title, lambda text: self._send_new(page, key, text), initial=initial
        )

    def key(self, kind: str, target: str, *, variant: str = "") -> DraftKey:
        """The draft key of a composer of this view (space, change request, target)."""
        cr = self.state.change_request or ""
        return DraftKey(
            kind, space=self.state.space_id or "", change_request=cr, target=target, variant=variant
        )

    async def _send_new(self, page: str | None, key: DraftKey, text: str) -> None:
        writes = self.writes()
        try:
            created = await writes.create(text, page=page)
        except APIConnectionError:
            await self.enqueue(writes.queued_comment(text, page=page, draft=key))
            return
        self.state.threads[created.id] = ThreadState(created, replies=[])
        self.state.selected_id = created.id
        self.loader.load(live=True)

    async def _send_reply(self, thread_id: str, text: str) -> None:
        host, writes = self.host, self.writes()
        thread = self.state.threads.get(thread_id)
        if thread is None:
            raise RuntimeError("this thread is no longer listed")
        local = CommentReply(
            id=f"local-{next(_local_ids)}",
            postedBy=self.state.me,
            postedAt=utc_now(),
            body=DocumentBody(markdown=text),
        )
        thread.replies = [*(thread.replies or []), local]
        thread.pending.add(local.id)
        host.redraw_thread(thread)
        try:
            reply = await writes.reply(thread_id, text)
        except APIConnectionError:
            to = author_name(thread.comment.postedBy)
            draft = self.key(REPLY, thread_id)
            await self.enqueue(writes.queued_reply(thread_id, text, draft=draft, to=to))
            return
        except GitBookError as exc:
            thread.replies = [r for r in thread.replies or [] if r.id != local.id]
            thread.pending.discard(local.id)
            host.redraw_thread(thread)
            if isinstance(exc, NotFoundError):
                self.loader.forget_thread(thread_id, "This thread was deleted meanwhile.")
                # nothing typed is lost: the text becomes a new thread's draft on its page
                host.call_later(self._rescue_reply, thread, text)
                raise RuntimeError(
                    "this thread was deleted meanwhile — opening your text as a new thread"
                ) from None
            raise
        thread.pending.discard(local.id)
        thread.replies = [reply if r.id == local.id else r for r in thread.replies or []]
        thread.comment = thread.comment.model_copy(
            update={"replies": (thread.comment.replies or 0) + 1}
        )
        host.redraw_thread(thread)

    async def _rescue_reply(self, thread: ThreadState, text: str) -> None:
        """A reply whose thread was deleted meanwhile: its draft moves to the new-thread key
        of the thread's page (after a draft already there) and that composer opens with it."""
        host = self.host
        target = thread.comment.target
        page = target.page.id if target is not None and target.page is not None else None
        old, key = self.key(REPLY, thread.id), self.key(COMMENT, page or "")
        debouncer = host.composer.debouncer
        existing = await debouncer.load(key)
        if existing is not None and existing.text.strip() and text not in existing.text:
            text = f"{existing.text.rstrip()}\n\n{text}"
        where = "this page" if page else "the whole space"
        title = f"Thread deleted: post your reply as a new thread on {where}?"
        debouncer.schedule(key, text, title=title)
        await debouncer.flush(key)
        self.composing_new = True
        host.open_composer_full()
        await host.composer.open(key, title, lambda t: self._send_new(page, key, t))
        await debouncer.discard(old)
        host.notify(
            "The thread was deleted meanwhile: your reply is now a new-thread draft "
            f"on {where} (ctrl+s posts it, escape keeps the draft for c).",
            severity="warning",
            timeout=8,
            markup=False,
        )

    async def edit(self) -> None:
        if self.nothing_selected():
            return
        thread, post = self.state.selected, self.target_post()
        if thread is None or post is None:
            return
        writes, thread_id = self.writes(), thread.id
        if isinstance(post, Comment):
            key = self.key(EDIT_COMMENT, post.id)
        else:
            key = self.key(EDIT_REPLY, f"{thread_id}/{post.id}")

        async def send(text: str) -> None:
            try:
                updated = await writes.edit(thread_id, post, text)
            except APIConnectionError as exc:
                raise RuntimeError(f"{exc} — edits are not queued; the draft is kept") from None
            except NotFoundError:
                self.loader.forget_thread(thread_id, "This comment was deleted meanwhile.")
                raise
            self.replace_post(thread_id, updated)

        self.composing_new = False
        initial = post.body.markdown or ""
        await self.host.composer.open(key, "Edit your comment", send, initial=initial)

    def replace_post(self, thread_id: str, post: Post) -> None:
        thread = self.state.threads.get(thread_id)
        if thread is None:
            return
        if isinstance(post, Comment):
            thread.comment = post
        else:
            thread.replies = [post if r.id == post.id else r for r in thread.replies or []]
        self.host.redraw_thread(thread)

    # -- delete ---------------------------------------------------------------------------------
    async def delete(self) -> None:
        host = self.host
        if self.nothing_selected():
            return
        thread, post = self.state.selected, self.target_post()
        if thread is None or post is None:
            return
        is_thread = isinstance(post, Comment)
        what = "this thread and its replies" if is_thread else "this reply"
        effect = f"Deletes {what} by {author_name(post.postedBy)}. The API has no undo."
        ok = await host.app.push_screen_wait(
            ConfirmScreen("Delete?", effect, confirm_label="Delete")
        )
        if not ok:
            return
        try:
            await self.writes().delete(thread.id, post)
        except NotFoundError:
            host.notify("It was already deleted.", timeout=4)
        except GitBookError as exc:
            host.notify(plain(f"Not deleted: {exc}"), severity="error", markup=False)
            return
        if is_thread:
            self.loader.forget_thread(thread.id, "Thread deleted.")
            return
        self.state.gone.add(post.id)
        thread.replies = [r for r in thread.replies or [] if r.id != post.id]
        count = max(0, (thread.comment.replies or 0) - 1)
        thread.comment = thread.comment.model_copy(update={"replies": count})
        host.redraw_thread(thread)
