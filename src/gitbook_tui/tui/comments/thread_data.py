"""What the comments view holds of a thread: its state, authors, ages, reactions (mine) — no
Textual here."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime

from ...markdown import clean_text
from ...models import Comment, CommentReply, Reaction, ReactionUser, User

__all__ = [
    "TOP_EMOJI",
    "Post",
    "ThreadState",
    "age",
    "author_name",
    "body_markdown",
    "first_line",
    "mine",
    "more_replies_from_others",
    "reacted",
    "reaction_count",
    "toggle_reaction",
]

TOP_EMOJI: tuple[str, ...] = ("👍", "❤️", "🎉", "😄", "👀", "🚀", "🔥", "👎")
"""The picker's 1–8 (GitBook's and GitHub's most used reactions)."""

Post = Comment | CommentReply
_EMPHASIS = re.compile(r"\*\*|__|`|~~")


def utc_now() -> datetime:
    """Now (tests freeze it: ages in snapshots never tick)."""
    return datetime.now(UTC)


@dataclass
class ThreadState:
    """A thread as the view holds it: the comment, its replies once loaded, local marks."""

    comment: Comment
    replies: list[CommentReply] | None = None
    new: bool = False  # appeared (or got replies) since the view was last looked at
    new_replies_from: int | None = None  # replies from this index on arrived meanwhile
    pending: set[str] = field(default_factory=set)  # post ids with a write in flight
    drafted: bool = False  # an unsent reply or edit of it is saved locally
    stale: bool = False  # the replies shown are older than the reply count: reload them

    @property
    def id(self) -> str:
        return self.comment.id

    def posts(self) -> list[Post]:
        return [self.comment, *(self.replies or [])]


def mine(post: Post, me: str | None) -> bool:
    """Whether ``me`` (a user id) posted ``post``: what I posted is never new to me."""
    return me is not None and post.postedBy is not None and post.postedBy.id == me


def more_replies_from_others(before: Comment, after: Comment, me: str | None) -> bool:
    """Whether ``after`` has replies ``before`` lacked that someone other than ``me`` posted,
    told from the comment alone (its repliers and their counts) so a list row can say
    "new" without loading the replies; when the server does not say who, any more is new."""
    if (after.replies or 0) <= (before.replies or 0):
        return False
    if me is None or not after.repliers:
        return True

    def counts(comment: Comment) -> dict[str, int | None]:
        return {c.user.id: c.count for c in comment.repliers if c.user is not None}

    now, then = counts(after), counts(before)
    if any(count is None for count in now.values()):
        return any(user != me for user in now)  # who replied, but not how often
    return any((count or 0) > (then.get(user) or 0) for user, count in now.items() if user != me)


def author_name(user: User | None) -> str:
    if user is None:
        return "someone"
    return clean_text(user.displayName or user.email or user.id)


def age(when: datetime | None, now: datetime | None = None) -> str:
    """``5m``, ``3h``, ``12d``, ``4mo``, ``2y`` (``now`` for tests)."""
    if when is None:
        return ""
    now = now or utc_now()
    seconds = max(0, int((now - when).total_seconds()))
    for size, unit in ((31_536_000, "y"), (2_592_000, "mo"), (86_400, "d"), (3_600, "h")):
        if seconds >= size:
            return f"{seconds // size}{unit}"
    return f"{max(1, seconds // 60)}m" if seconds >= 60 else "now"


def body_markdown(post: Post) -> str:
    return post.body.markdown or ""


def first_line(post: Post, limit: int = 80) -> str:
    """The first non-empty line of the body, without markdown marks (headings, lists,
    emphasis, code ticks)."""
    for line in clean_text(body_markdown(post)).splitlines():
        text = _EMPHASIS.sub("", line.strip().lstrip("#>*-+ ")).strip()
        if text:
            return text[:limit]
    return ""


def reacted(reaction: Reaction, me: str | None) -> bool:
    return me is not None and any(u.user is not None and u.user.id == me for u in reaction.users)


def reaction_count(reaction: Reaction) -> int:
    return reaction.count if reaction.count is not None else len(reaction.users)


def toggle_reaction(post: Post, emoji: str, me: User | None) -> tuple[bool, list[Reaction]]:
    """(added?, the reactions after toggling mine for ``emoji``): the optimistic view."""
    me_id = me.id if me is not None else None
    result: list[Reaction] = []
    found = False
    added = True
    for reaction in post.reactions:
        if reaction.emoji != emoji:
            result.append(reaction)
            continue
        found = True
        if reacted(reaction, me_id):
            added = False
            users = [u for u in reaction.users if u.user is None or u.user.id != me_id]
            if users:
                result.append(reaction.model_copy(update={"users": users, "count": len(users)}))
        else:
            users = [*reaction.users, _me(me)]
            result.append(reaction.model_copy(update={"users": users, "count": len(users)}))
    if not found:
        result.append(Reaction(emoji=emoji, count=1, users=[_me(me)]))
    return added, result


def _me(me: User | None) -> ReactionUser:
    return ReactionUser(user=me, reactedAt=utc_now())
