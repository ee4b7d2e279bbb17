"""State changes of comments and replies: permission checks, edits, reactions, resolving."""

from __future__ import annotations

from typing import Any, Literal

from ..core.errors import forbidden
from .schemas import CommentUpdate
from .threads import Thread
from .views import read_content


def check_update(thread: Thread, record: dict[str, Any], update: CommentUpdate) -> None:
    """Permission checks of a PUT, all before anything changes."""
    wants_comment_role = (
        update.resolved is not None
        or update.body is not None
        or bool(update.addedReactions)
        or bool(update.removedReactions)
    )
    if wants_comment_role:
        thread.require_comment()
    if update.body is not None and record["postedBy"] != thread.ctx.user_id:
        raise forbidden("Only the author can edit this comment.")


def apply_edits(thread: Thread, record: dict[str, Any], update: CommentUpdate) -> None:
    now, me = thread.ctx.now(), thread.ctx.user_id
    if update.body is not None:
        record["body"] = read_content(update.body)
        record["editedAt"] = now
    reactions: list[dict[str, Any]] = record.setdefault("reactions", [])
    for emoji in update.addedReactions or []:
        entry = next((e for e in reactions if e["emoji"] == emoji), None)
        if entry is None:
            entry = {"emoji": emoji, "users": []}
            reactions.append(entry)
        if all(u["user"] != me for u in entry["users"]):
            entry["users"].append({"user": me, "reactedAt": now})
    for emoji in update.removedReactions or []:
        for entry in reactions:
            if entry["emoji"] == emoji:
                entry["users"] = [u for u in entry["users"] if u["user"] != me]
    record["reactions"] = [e for e in reactions if e["users"]]


def set_resolved(thread: Thread, comment: dict[str, Any], resolved: bool) -> None:
    if resolved:
        if comment.get("status") != "resolved":
            comment["status"] = "resolved"
            comment["resolvedAt"] = thread.ctx.now()
            comment["resolvedBy"] = thread.ctx.user_id
    else:
        comment["status"] = "open"
        comment.pop("resolvedAt", None)
        comment.pop("resolvedBy", None)


def require_delete(thread: Thread, record: dict[str, Any], what: str) -> None:
    if record["postedBy"] != thread.ctx.user_id and not thread.is_admin():
        raise forbidden(f"Only the author or a space admin can delete this {what}.")


def sorted_comments(
    comments: list[dict[str, Any]], order: Literal["asc", "desc"]
) -> list[dict[str, Any]]:
    if order == "desc":
        return sorted(reversed(comments), key=lambda c: c["postedAt"], reverse=True)
    return sorted(comments, key=lambda c: c["postedAt"])
