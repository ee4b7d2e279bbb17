"""Comments, replies and commenters of a space, or of a change request (``change_request=``)."""

from __future__ import annotations

import builtins
from typing import Any

from ..models import (
    Comment,
    CommentReply,
    CommentStatusFilter,
    DocumentFormat,
    ListOrder,
    Member,
)
from .base import ReadMode
from .pagination import AsyncPager
from .resource import Resource, body, operation, seg
from .space_paths import content_root

SPACE = "/v1/spaces/{spaceId}"
CR = "/v1/spaces/{spaceId}/change-requests/{changeRequestId}"
ONE = "/comments/{commentId}"
REPLY = "/comments/{commentId}/replies/{commentReplyId}"


def _once(idempotency_key: str | None) -> dict[str, str] | None:
    """The header that makes a repeat of a write answer the first one, on servers that
    honour it (this package's does; a repeat elsewhere may apply twice)."""
    return {"Idempotency-Key": idempotency_key} if idempotency_key else None


def _edits(
    markdown: str | None,
    added_reactions: builtins.list[str] | None,
    removed_reactions: builtins.list[str] | None,
    resolved: bool | None = None,
) -> dict[str, Any]:
    return body(
        resolved=resolved,
        body=None if markdown is None else {"markdown": markdown},
        addedReactions=added_reactions,
        removedReactions=removed_reactions,
    )


class Comments(Resource):
    """Pass ``change_request=`` (id or number) to work on a change request's threads."""

    def _thread(self, space_id: str, change_request: str | int | None) -> str:
        return f"{content_root(space_id, change_request)}/comments"

    def _changed(self, space_id: str, change_request: str | int | None) -> builtins.list[str]:
        """What a new, edited or deleted post makes stale: the thread's comment lists (and
        so every comment's reply count) and its commenters."""
        root = content_root(space_id, change_request)
        return [f"{root}/comments", f"{root}/commenters"]

    def _counted(self, space_id: str, change_request: str | int | None) -> builtins.list[str]:
        """The resources whose open-comment counts a post changes: the space (and the CR)."""
        root = content_root(space_id, change_request)
        return [f"/spaces/{seg(space_id, 'space_id')}", root]

    @operation(f"GET {SPACE}/comments", f"GET {CR}/comments")
    def list(
        self,
        space_id: str,
        *,
        change_request: str | int | None = None,
        status: CommentStatusFilter | str | None = None,
        order: ListOrder | str | None = None,
        target_page: str | None = None,
        authors: builtins.list[str] | None = None,
        format: DocumentFormat | str | None = None,
        limit: int | None = None,
        max_items: int | None = None,
        read: ReadMode | None = None,
    ) -> AsyncPager[Comment]:
        """Comments (newest first unless ``order="asc"``); filter by ``status`` (``open``,
        ``resolved``, default ``all``), page ``target_page``, ``authors`` (user ids)."""
        return AsyncPager(
            self._client,
            self._thread(space_id, change_request),
            Comment,
            params={
                "status": status,
                "order": order,
                "targetPage": target_page,
                "authors": authors,
                "format": format,
            },
            limit=limit,
            max_items=max_items,
            read=read,
            operation="listComments",
        )

    @operation(f"POST {SPACE}/comments", f"POST {CR}/comments")
    async def create(
        self,
        space_id: str,
        markdown: str,
        *,
        change_request: str | int | None = None,
        page: str | None = None,
        node: str | None = None,
        idempotency_key: str | None = None,
    ) -> Comment:
        """Post a comment, on the whole content or on ``page`` (and a ``node`` in it).
        ``idempotency_key``: the same key on a repeat gets the first comment back."""
        result: Comment = await self._client.send(
            "POST",
            self._thread(space_id, change_request),
            Comment,
            body=body(body={"markdown": markdown}, page=page, node=node),
            invalidates=self._changed(space_id, change_request),
            refreshes=self._counted(space_id, change_request),
            operation="postComment",
            headers=_once(idempotency_key),
        )
        return result

    @operation(f"GET {SPACE}{ONE}", f"GET {CR}{ONE}")
    async def get(
        self,
        space_id: str,
        comment_id: str,
        *,
        change_request: str | int | None = None,
        format: DocumentFormat | str | None = None,
        read: ReadMode | None = None,
    ) -> Comment:
        result: Comment = await self._client.get(
            f"{self._thread(space_id, change_request)}/{seg(comment_id, 'comment_id')}",
            Comment,
            params={"format": format},
            read=read,
            operation="getComment",
        )
        return result

    @operation(f"PUT {SPACE}{ONE}", f"PUT {CR}{ONE}")
    async def update(
        self,
        space_id: str,
        comment_id: str,
        *,
        change_request: str | int | None = None,
        resolved: bool | None = None,
        markdown: str | None = None,
        added_reactions: builtins.list[str] | None = None,
        removed_reactions: builtins.list[str] | None = None,
        idempotency_key: str | None = None,
    ) -> Comment:
        """Resolve / reopen, edit the body (author only) and add or remove reactions."""
        result: Comment = await self._client.send(
            "PUT",
            f"{self._thread(space_id, change_request)}/{seg(comment_id, 'comment_id')}",
            Comment,
            body=_edits(markdown, added_reactions, removed_reactions, resolved),
            invalidates=self._changed(space_id, change_request),
            refreshes=self._counted(space_id, change_request),
            operation="updateComment",
            headers=_once(idempotency_key),
        )
        return result

    @operation(f"DELETE {SPACE}{ONE}", f"DELETE {CR}{ONE}")
    async def delete(
        self, space_id: str, comment_id: str, *, change_request: str | int | None = None
    ) -> None:
        """Delete a comment and its replies (author or space admin)."""
        await self._client.send(
            "DELETE",
            f"{self._thread(space_id, change_request)}/{seg(comment_id, 'comment_id')}",
            invalidates=self._changed(space_id, change_request),
            refreshes=self._counted(space_id, change_request),
            operation="deleteComment",
        )

    @operation(f"GET {SPACE}{ONE}/replies", f"GET {CR}{ONE}/replies")
    def replies(
        self,
        space_id: str,
        comment_id: str,
        *,
        change_request: str | int | None = None,
        format: DocumentFormat | str | None = None,
        limit: int | None = None,
        max_items: int | None = None,
        read: ReadMode | None = None,
    ) -> AsyncPager[CommentReply]:
        """Replies to a comment, oldest first."""
        return AsyncPager(
            self._client,
            f"{self._thread(space_id, change_request)}/{seg(comment_id, 'comment_id')}/replies",
            CommentReply,
            params={"format": format},
            limit=limit,
            max_items=max_items,
            read=read,
            operation="listCommentReplies",
        )

    @operation(f"POST {SPACE}{ONE}/replies", f"POST {CR}{ONE}/replies")
    async def create_reply(
        self,
        space_id: str,
        comment_id: str,
        markdown: str,
        *,
        change_request: str | int | None = None,
        idempotency_key: str | None = None,
    ) -> CommentReply:
        result: CommentReply = await self._client.send(
            "POST",
            f"{self._thread(space_id, change_request)}/{seg(comment_id, 'comment_id')}/replies",
            CommentReply,
            body={"body": {"markdown": markdown}},
            invalidates=self._changed(space_id, change_request),
            refreshes=self._counted(space_id, change_request),
            operation="postCommentReply",
            headers=_once(idempotency_key),
        )
        return result

    def _reply(
        self, space_id: str, comment_id: str, reply_id: str, change_request: str | int | None
    ) -> str:
        thread = self._thread(space_id, change_request)
        return f"{thread}/{seg(comment_id, 'comment_id')}/replies/{seg(reply_id, 'reply_id')}"

    @operation(f"GET {SPACE}{REPLY}", f"GET {CR}{REPLY}")
    async def get_reply(
        self,
        space_id: str,
        comment_id: str,
        reply_id: str,
        *,
        change_request: str | int | None = None,
        format: DocumentFormat | str | None = None,
        read: ReadMode | None = None,
    ) -> CommentReply:
        result: CommentReply = await self._client.get(
            self._reply(space_id, comment_id, reply_id, change_request),
            CommentReply,
            params={"format": format},
            read=read,
            operation="getCommentReply",
        )
        return result

    @operation(f"PUT {SPACE}{REPLY}", f"PUT {CR}{REPLY}")
    async def update_reply(
        self,
        space_id: str,
        comment_id: str,
        reply_id: str,
        *,
        change_request: str | int | None = None,
        markdown: str | None = None,
        added_reactions: builtins.list[str] | None = None,
        removed_reactions: builtins.list[str] | None = None,
        resolved: bool | None = None,
        idempotency_key: str | None = None,
    ) -> CommentReply:
        """Edit the body (author only), react; ``resolved`` resolves / reopens the thread."""
        result: CommentReply = await self._client.send(
            "PUT",
            self._reply(space_id, comment_id, reply_id, change_request),
            CommentReply,
            body=_edits(markdown, added_reactions, removed_reactions, resolved),
            invalidates=self._changed(space_id, change_request),
            refreshes=self._counted(space_id, change_request),
            operation="updateCommentReply",
            headers=_once(idempotency_key),
        )
        return result

    @operation(f"DELETE {SPACE}{REPLY}", f"DELETE {CR}{REPLY}")
    async def delete_reply(
        self,
        space_id: str,
        comment_id: str,
        reply_id: str,
        *,
        change_request: str | int | None = None,
    ) -> None:
        await self._client.send(
            "DELETE",
            self._reply(space_id, comment_id, reply_id, change_request),
            invalidates=self._changed(space_id, change_request),
            refreshes=self._counted(space_id, change_request),
            operation="deleteCommentReply",
        )

    @operation(f"GET {SPACE}/commenters", f"GET {CR}/commenters")
    def commenters(
        self,
        space_id: str,
        *,
        change_request: str | int | None = None,
        limit: int | None = None,
        max_items: int | None = None,
        read: ReadMode | None = None,
    ) -> AsyncPager[Member]:
        """Members who posted comments or replies in the thread scope (first post first)."""
        return AsyncPager(
            self._client,
            f"{content_root(space_id, change_request)}/commenters",
            Member,
            limit=limit,
            max_items=max_items,
            read=read,
            operation="listCommenters",
        )
