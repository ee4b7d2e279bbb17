"""Whether an earlier send of a queued item landed, asked of the server before sending again.

An item whose send started (``attempts`` > 0) and never finished — the app died while the
server answered, or the answer came after the client's timeout — may be on the server
already. Its sends carry an ``Idempotency-Key``, which a server that honours it answers
with the first result; one that ignores it would post it twice, so the Replayer asks this
first: a comment or reply of the signed-in user with the same text in the same thread,
posted since the item was queued (less :data:`CLOCK_SLACK`), and not one an item sent
before made; a reaction or resolve whose state the thread already has.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Set
from datetime import UTC, datetime, timedelta

from ..api import AsyncGitBook
from ..models import Comment, CommentReply
from .outbox_action import OutboxAction
from .outbox_state import OutboxItem

__all__ = ["CLOCK_SLACK", "Landed", "client_landed", "same_text"]

CLOCK_SLACK = timedelta(minutes=10)
"""The queue time is this machine's clock, ``postedAt`` the server's: they may disagree."""

Landed = Callable[[OutboxItem, Set[str]], Awaitable[str | None]]
"""``landed(item, claimed)``: the id of what an earlier send of ``item`` made ("" for a
change with no id of its own), or None when it did not land; ``claimed``: ids of posts
items sent before made (never one of those)."""

_LOOSE = re.compile(r"[\W_]+")


def same_text(posted: str | None, queued: str) -> bool:
    """Whether ``posted`` is ``queued`` as a server may give it back: whitespace, or the
    markdown punctuation a server that stores documents rewrites (``*a*`` to ``_a_``)."""
    if posted is None:
        return False
    if " ".join(posted.split()) == " ".join(queued.split()):
        return True
    loose = _LOOSE.sub("", queued).casefold()
    return bool(loose) and _LOOSE.sub("", posted).casefold() == loose


def _at(moment: datetime | None) -> datetime | None:
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)  # a server that leaves the zone out means UTC


def _mine(post: Comment | CommentReply, me: str, since: datetime, claimed: Set[str]) -> bool:
    posted = _at(post.postedAt)
    author = post.postedBy.id if post.postedBy is not None else None
    return author == me and posted is not None and posted >= since and post.id not in claimed


def client_landed(client: AsyncGitBook) -> Landed:
    """The check, through ``client`` (network reads: a cached list would not show it)."""
    me: list[str] = []

    async def my_id() -> str:
        if not me:
            me.append((await client.users.me(read="network")).id)
        return me[0]

    async def landed(item: OutboxItem, claimed: Set[str]) -> str | None:
        a = item.action
        since = _at(item.created)
        assert since is not None
        since -= CLOCK_SLACK
        if a.kind == "reply":
            return await _reply(a, await my_id(), since, claimed)
        if a.kind == "comment":
            return await _comment(a, await my_id(), since, claimed)
        if a.kind == "reaction":
            return await _reaction(a, await my_id())
        thread = await client.comments.get(
            a.space, str(a.comment), change_request=a.change_request, read="network"
        )
        return "" if thread.is_resolved == bool(a.resolved) else None

    async def _reply(a: OutboxAction, me: str, since: datetime, claimed: Set[str]) -> str | None:
        assert a.comment is not None and a.markdown is not None
        replies = client.comments.replies(
            a.space, a.comment, change_request=a.change_request, format="markdown", read="network"
        )
        async for reply in replies:  # oldest first: the first that fits
            if _mine(reply, me, since, claimed) and same_text(reply.body.markdown, a.markdown):
                return reply.id
        return None

    async def _comment(a: OutboxAction, me: str, since: datetime, claimed: Set[str]) -> str | None:
        assert a.markdown is not None
        comments = client.comments.list(
            a.space,
            change_request=a.change_request,
            order="desc",
            authors=[me],
            target_page=a.page,
            format="markdown",
            read="network",
        )
        found = None
        async for comment in comments:  # newest first: stop at the queue time
            posted = _at(comment.postedAt)
            if posted is not None and posted < since:
                break
            target = comment.target
            node = target.node.id if target is not None and target.node is not None else None
            if a.node is not None and node is not None and node != a.node:
                continue
            if _mine(comment, me, since, claimed) and same_text(comment.body.markdown, a.markdown):
                found = comment.id  # keep going: the oldest that fits, as for replies
        return found

    async def _reaction(a: OutboxAction, me: str) -> str | None:
        assert a.comment is not None
        post: Comment | CommentReply
        if a.reply is not None:
            post = await client.comments.get_reply(
                a.space, a.comment, a.reply, change_request=a.change_request, read="network"
            )
        else:
            post = await client.comments.get(
                a.space, a.comment, change_request=a.change_request, read="network"
            )
        mine: dict[str, bool | None] = {}
        for reaction in post.reactions:
            users = [u.user.id for u in reaction.users if u.user is not None]
            unknown = not users and (reaction.count or 0) > 0  # users not listed
            mine[reaction.emoji] = None if unknown else me in users
        added = all(mine.get(emoji) is True for emoji in a.added_reactions)
        removed = all(mine.get(emoji, False) is False for emoji in a.removed_reactions)
        return "" if added and removed else None

    return landed
