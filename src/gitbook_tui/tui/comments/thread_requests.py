"""The Comments view's network and disk work: reads, writes, outbox entries, drafted threads —
plain async functions over the client and the draft store (no Textual here)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from ...api import AsyncGitBook, response_meta
from ...drafts import DraftKey, DraftStore, OutboxAction
from ...drafts.keys import EDIT_COMMENT, EDIT_REPLY, REPLY
from ...models import Comment, CommentReply, Space, User
from .thread_data import Post, author_name

__all__ = [
    "PAGE_SIZE",
    "CommentWrites",
    "ThreadsRead",
    "drafted_threads",
    "read_commenters",
    "read_drafted_threads",
    "read_me",
    "read_member_names",
    "read_page_title",
    "read_replies",
    "read_space",
    "read_threads",
]

PAGE_SIZE = 100


@dataclass(frozen=True)
class ThreadsRead:
    """The threads of a scope as read, and whether the answer came from the cache offline
    (``age``: how old that copy is, in seconds)."""

    comments: list[Comment]
    offline: bool = False
    age: float = 0.0


async def read_space(client: AsyncGitBook, space_id: str) -> Space:
    return await client.spaces.get(space_id, read="prefer-cache")


async def read_me(client: AsyncGitBook) -> User:
    return await client.users.me(read="prefer-cache")


async def read_threads(
    client: AsyncGitBook,
    space_id: str,
    *,
    change_request: str | None = None,
    status: str = "open",
    page: str | None = None,
    author: str | None = None,
) -> ThreadsRead:
    """Every thread of the space (or its change request, or one ``page``) with ``status``
    (``"all"``: any) by ``author`` (``None``: anyone), every page of the answer followed;
    the cache revalidates and answers when the server is unreachable."""
    pager = client.comments.list(
        space_id,
        change_request=change_request,
        status=None if status == "all" else status,
        target_page=page,
        authors=[author] if author else None,
        limit=PAGE_SIZE,
    )
    comments: list[Comment] = []
    offline, age = False, 0.0
    async for answer in pager.pages():
        meta = response_meta(answer)
        if meta is not None and meta.offline:
            offline, age = True, max(age, meta.age)
        comments.extend(answer.items)
    return ThreadsRead(comments, offline, age)


async def read_replies(
    client: AsyncGitBook,
    space_id: str,
    thread_id: str,
    *,
    change_request: str | None = None,
    gone: set[str] | frozenset[str] = frozenset(),
) -> list[CommentReply]:
    """The replies of a thread, without those in ``gone`` (deleted here: a read sent before
    the delete still lists them)."""
    pager = client.comments.replies(
        space_id, thread_id, change_request=change_request, limit=PAGE_SIZE
    )
    return [reply async for reply in pager if reply.id not in gone]


async def read_commenters(
    client: AsyncGitBook, space_id: str, *, change_request: str | None = None
) -> list[User]:
    """Who has commented in the space (or its change request): the author picker's list."""
    pager = client.comments.commenters(space_id, change_request=change_request, limit=PAGE_SIZE)
    return [m.user async for m in pager if m.user is not None]


async def read_member_names(client: AsyncGitBook, organization_id: str) -> list[str]:
    """The organization's members' names, sorted (``@`` completion in the composer)."""
    pager = client.orgs.members(organization_id, limit=PAGE_SIZE, read="prefer-cache")
    return sorted({author_name(m.user) async for m in pager if m.user is not None})


async def read_page_title(client: AsyncGitBook, space_id: str, page_id: str) -> str:
    """A page's title, as the browser read it (its cached copy, when there is a cache)."""
    page = await client.content.get_page(space_id, page_id, format="markdown", read="prefer-cache")
    return page.title or ""


def drafted_threads(store: DraftStore, space_id: str, change_request: str) -> set[str]:
    """Threads of the space (or its change request) with a saved reply or edit draft."""
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


async def read_drafted_threads(store: DraftStore, space_id: str, change_request: str) -> set[str]:
    """:func:`drafted_threads`, its file reads off the event loop."""
    return await asyncio.to_thread(drafted_threads, store, space_id, change_request)


class CommentWrites:
    """The writes of one space (or change request) and the outbox entries that stand for
    them while the server is unreachable."""

    def __init__(self, client: AsyncGitBook, space_id: str, change_request: str | None) -> None:
        self.client = client
        self.space_id = space_id
        self.change_request = change_request

    async def create(self, text: str, *, page: str | None) -> Comment:
        return await self.client.comments.create(
            self.space_id, text, page=page, change_request=self.change_request
        )

    async def reply(self, thread_id: str, text: str) -> CommentReply:
        return await self.client.comments.create_reply(
            self.space_id, thread_id, text, change_request=self.change_request
        )

    async def edit(self, thread_id: str, post: Post, text: str) -> Post:
        """``post`` (the thread's comment or one of its replies) with ``text`` as its body."""
        return await self.update(thread_id, post, markdown=text)

    async def update(self, thread_id: str, post: Post, **changes: Any) -> Post:
        comments, cr = self.client.comments, self.change_request
        if isinstance(post, Comment):
            return await comments.update(self.space_id, post.id, change_request=cr, **changes)
        return await comments.update_reply(
            self.space_id, thread_id, post.id, change_request=cr, **changes
        )

    async def resolve(self, thread_id: str, *, resolved: bool) -> Comment:
        return await self.client.comments.update(
            self.space_id, thread_id, resolved=resolved, change_request=self.change_request
        )

    async def react(self, thread_id: str, post: Post, emoji: str, *, added: bool) -> Post:
        """Add (or remove) my ``emoji`` on ``post``."""
        field = "added_reactions" if added else "removed_reactions"
        return await self.update(thread_id, post, **{field: [emoji]})

    async def delete(self, thread_id: str, post: Post) -> None:
        """Delete ``post``: the thread's comment deletes the thread and its replies."""
        comments, cr = self.client.comments, self.change_request
        if isinstance(post, Comment):
            await comments.delete(self.space_id, thread_id, change_request=cr)
        else:
            await comments.delete_reply(self.space_id, thread_id, post.id, change_request=cr)

    # -- what the outbox keeps instead, while the server is unreachable -----------------------
    def queued_comment(self, text: str, *, page: str | None, draft: DraftKey) -> OutboxAction:
        return OutboxAction.new_comment(
            self.space_id,
            text,
            page=page,
            change_request=self.change_request,
            draft=draft,
            label="a new thread",
        )

    def queued_reply(self, thread_id: str, text: str, *, draft: DraftKey, to: str) -> OutboxAction:
        return OutboxAction.new_reply(
            self.space_id,
            thread_id,
            text,
            change_request=self.change_request,
            draft=draft,
            label=f"a reply to {to}",
        )

    def queued_resolve(self, thread_id: str, *, resolved: bool) -> OutboxAction:
        return OutboxAction.new_resolve(
            self.space_id, thread_id, resolved=resolved, change_request=self.change_request
        )

    def queued_reaction(
        self, thread_id: str, post: Post, emoji: str, *, added: bool
    ) -> OutboxAction:
        return OutboxAction.new_reaction(
            self.space_id,
            thread_id,
            reply=None if isinstance(post, Comment) else post.id,
            added=[emoji] if added else [],
            removed=[] if added else [emoji],
            change_request=self.change_request,
        )
