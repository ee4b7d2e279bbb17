"""Comments and comment replies, with their reactions, targets and permissions."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import Field

from .common import ApiModel, DocumentBody, Open, Urls
from .lenient import Count, Timestamp
from .users import Contributor, User

__all__ = [
    "Comment",
    "CommentBody",
    "CommentPermissions",
    "CommentReply",
    "CommentStatus",
    "CommentStatusFilter",
    "CommentTarget",
    "CommentTargetNode",
    "CommentTargetPage",
    "Reaction",
    "ReactionUser",
]

CommentBody = DocumentBody
"""Body of a comment or reply: ``{markdown}``, ``{document}`` or ``{}``."""


class CommentStatus(StrEnum):
    """Status of a comment."""

    open = "open"
    resolved = "resolved"


class CommentStatusFilter(StrEnum):
    """Values of the ``status`` filter of comment lists (default ``all``)."""

    all = "all"
    open = "open"
    resolved = "resolved"


class ReactionUser(ApiModel):
    """A user who reacted, and when."""

    user: User | None = None
    reactedAt: Timestamp | None = None


class Reaction(ApiModel):
    """An emoji reaction by one or many users."""

    emoji: str
    count: Count | None = None
    users: list[ReactionUser] = Field(default_factory=list)


class CommentTargetNode(ApiModel):
    """The document node a comment is attached to."""

    id: str | None = None
    preview: Any = None


class CommentTargetPage(ApiModel):
    """The page a comment refers to."""

    id: str | None = None
    title: str | None = None
    emoji: str | None = None
    icon: str | None = None
    createdAt: Timestamp | None = None
    updatedAt: Timestamp | None = None
    path: str | None = None
    outdated: bool | None = None


class CommentTarget(ApiModel):
    """Where a comment lives: space, revision, and optionally page, node, change request, review."""

    node: CommentTargetNode | None = None
    changeRequest: str | None = None
    review: str | None = None
    page: CommentTargetPage | None = None
    space: str | None = None
    revision: str | None = None
    tableCell: dict[str, Any] | None = None


class CommentPermissions(ApiModel):
    """What the caller may do with a comment or reply."""

    view: bool | None = None
    edit: bool | None = None
    reply: bool | None = None
    delete: bool | None = None


class CommentReply(ApiModel):
    """A reply to a comment."""

    object: str = "comment-reply"
    id: str
    postedBy: User | None = None
    postedAt: Timestamp | None = None
    editedAt: Timestamp | None = None
    reactions: list[Reaction] = Field(default_factory=list)
    body: DocumentBody = Field(default_factory=DocumentBody)
    urls: Urls | None = None
    permissions: CommentPermissions | None = None


class Comment(ApiModel):
    """A comment on a space, a page or a change request."""

    object: str = "comment"
    id: str
    postedBy: User | None = None
    postedAt: Timestamp | None = None
    editedAt: Timestamp | None = None
    replies: Count | None = None
    repliers: list[Contributor] = Field(default_factory=list)
    reactions: list[Reaction] = Field(default_factory=list)
    body: DocumentBody = Field(default_factory=DocumentBody)
    target: CommentTarget | None = None
    urls: Urls | None = None
    permissions: CommentPermissions | None = None
    status: Open[CommentStatus] | None = None
    resolvedAt: Timestamp | None = None
    resolvedBy: User | None = None

    @property
    def is_resolved(self) -> bool:
        """True when the comment is resolved."""
        return self.status == CommentStatus.resolved or (
            self.status is None and self.resolvedAt is not None
        )
