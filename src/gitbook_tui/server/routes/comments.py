"""Routes for comments, replies and commenters of spaces and of change requests.

Both thread scopes share ONE implementation: :func:`_mount` registers the eleven
operations under a path prefix with a dependency that locates the thread (a space, or a
change request of a space); every handler body works on a :class:`Thread`.

Storage: kind ``comment`` (scope ``space:{spaceId}`` or ``cr:{crId}``) and kind ``reply``
(scope = comment id). A stored comment is::

    {"id", "thread": scope, "space", "changeRequest": id | None, "postedBy": user id,
     "postedAt", "editedAt"?, "body": markdown, "revision": revision id when posted,
     "page": {"id", "digest", "title", "emoji", "icon", "createdAt", "updatedAt", "path"}?,
     "node": id?, "status": "open" | "resolved", "resolvedAt"?, "resolvedBy"?,
     "reactions": [{"emoji", "users": [{"user": id, "reactedAt"}]}]}

A stored reply has ``id, comment, postedBy, postedAt, editedAt?, body, reactions``.

Rules where the contract is silent (kept in one place here):
- Reading needs any access to the space (404 otherwise). Posting, replying, reacting and
  (un)resolving need the ``comment`` role (403 otherwise). Editing a body needs the
  ``comment`` role and being its author; deleting needs being the author or a space admin.
- ``editMode: locked`` does not block discussions (comments are not content).
- Merged/archived change requests keep their threads readable and writable, like GitBook.
- ``page`` must exist in the thread's current revision (the space's main revision, or the
  change request's revision); ``target.page.outdated`` is true once that page's markdown in
  the current revision differs from the markdown it had at posting time, or the page is gone.
- ``PUT .../replies/{id}`` with ``resolved`` resolves or reopens the PARENT thread (a reply
  has no status of its own); it needs the ``comment`` role and answers the reply.
- In one PUT, ``addedReactions`` apply before ``removedReactions`` (an emoji in both ends
  up removed). Adding is idempotent; removing a reaction the caller never made is a no-op.
- DELETE of a comment or reply that does not exist answers 204 (openapi: "did not exist");
  one of another thread or comment is a 404, as for a read (nothing is deleted); deleting a
  comment deletes its replies.
- Commenters are the distinct authors of comments and replies in that scope only (space
  threads for the space, the change request's threads for a change request), in order of
  their first post; non-members of the organization appear with ``role: null``.
- Replies are listed oldest first. Comment lists sort by ``postedAt`` (ties by creation).
- Posting a comment or reply and the PUTs (reactions, resolve) honour ``Idempotency-Key``:
  a repeat by the same user answers the first result and changes nothing (core/idempotency).
"""

from collections.abc import Callable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Response

from ..comments.rules import (
    apply_edits,
    check_update,
    require_delete,
    set_resolved,
    sorted_comments,
)
from ..comments.schemas import CommentPost, CommentUpdate, Format, ReplyPost
from ..comments.threads import ThreadRef, commenter_json
from ..comments.views import read_content
from ..core.checks import deletable
from ..core.context import CtxDep
from ..core.errors import bad_request
from ..core.idempotency import OnceDep
from ..core.pagination import PagingParams, paginate

router = APIRouter(tags=["comments"])

FormatParam = Annotated[Format | None, Query(description="Output format of bodies")]


def _space_ref(spaceId: str) -> ThreadRef:
    return ThreadRef(spaceId)


def _change_request_ref(spaceId: str, changeRequestId: str) -> ThreadRef:
    return ThreadRef(spaceId, changeRequestId)


# -- routes ------------------------------------------------------------------------------------
def _mount(
    router: APIRouter, prefix: str, locate: Callable[..., ThreadRef], scope_name: str
) -> None:
    """Register every comment operation of one thread scope under ``prefix``."""
    # Evaluated now (this module has no `from __future__ import annotations`), so the
    # handlers below see the scope's own dependency.
    Ref = Annotated[ThreadRef, Depends(locate)]
    comments = f"{prefix}/comments"
    one = f"{comments}/{{commentId}}"
    replies = f"{one}/replies"
    one_reply = f"{replies}/{{commentReplyId}}"

    @router.get(comments, name=f"list_comments_in_{scope_name}")
    def list_comments(
        ctx: CtxDep,
        ref: Ref,
        paging: PagingParams,
        order: Annotated[Literal["asc", "desc"], Query()] = "desc",
        status: Annotated[Literal["all", "open", "resolved"], Query()] = "all",
        format: FormatParam = None,
        targetPage: Annotated[str | None, Query(max_length=256)] = None,
        authors: Annotated[list[str] | None, Query()] = None,
    ) -> dict[str, Any]:
        with ctx.read() as tx:
            thread = ref.open(tx, ctx)
            items = [
                c
                for c in tx.list("comment", thread.scope)
                if (status == "all" or c.get("status", "open") == status)
                and (targetPage is None or (c.get("page") or {}).get("id") == targetPage)
                and (not authors or c["postedBy"] in authors)
            ]
            items = sorted_comments(items, order)
            return paginate(items, paging, lambda c: thread.comment_json(c, format))

    @router.post(comments, name=f"post_comment_in_{scope_name}")
    def post_comment(
        ctx: CtxDep, ref: Ref, body: CommentPost, once: OnceDep, format: FormatParam = None
    ) -> dict[str, Any]:
        with ctx.write() as tx:
            if (earlier := once.earlier(tx, body)) is not None:
                return earlier
            thread = ref.open(tx, ctx)
            thread.require_comment()
            markdown = read_content(body.body)
            comment: dict[str, Any] = {
                "id": ctx.new_id(),
                "thread": thread.scope,
                "space": thread.space["id"],
                "changeRequest": thread.cr["id"] if thread.cr else None,
                "postedBy": ctx.user_id,
                "postedAt": ctx.now(),
                "body": markdown,
                "revision": thread.revision_id,
                "status": "open",
                "reactions": [],
            }
            if body.page is not None:
                found = thread.pages().get(body.page)
                if found is None:
                    raise bad_request(f"page: no page '{body.page}' in the current revision")
                node, path = found
                comment["page"] = {
                    "id": body.page,
                    "digest": thread.digest(body.page),
                    "path": path,
                    **{
                        k: node.get(k) for k in ("title", "emoji", "icon", "createdAt", "updatedAt")
                    },
                }
            if body.node is not None:
                comment["node"] = body.node
            tx.put("comment", comment["id"], comment, scope=thread.scope)
            return once.remember(tx, body, thread.comment_json(comment, format))

    @router.get(one, name=f"get_comment_in_{scope_name}")
    def get_comment(
        ctx: CtxDep, ref: Ref, commentId: str, format: FormatParam = None
    ) -> dict[str, Any]:
        with ctx.read() as tx:
            thread = ref.open(tx, ctx)
            return thread.comment_json(thread.comment(commentId), format)

    @router.put(one, name=f"update_comment_in_{scope_name}")
    def update_comment(
        ctx: CtxDep,
        ref: Ref,
        commentId: str,
        body: CommentUpdate,
        once: OnceDep,
        format: FormatParam = None,
    ) -> dict[str, Any]:
        with ctx.write() as tx:
            if (earlier := once.earlier(tx, body)) is not None:
                return earlier  # (a reaction or resolve sent again: not applied twice)
            thread = ref.open(tx, ctx)
            comment = thread.comment(commentId)
            check_update(thread, comment, body)
            apply_edits(thread, comment, body)
            if body.resolved is not None:
                set_resolved(thread, comment, body.resolved)
            tx.put("comment", comment["id"], comment)
            return once.remember(tx, body, thread.comment_json(comment, format))

    @router.delete(one, name=f"delete_comment_in_{scope_name}")
    def delete_comment(ctx: CtxDep, ref: Ref, commentId: str) -> Response:
        with ctx.write() as tx:
            thread = ref.open(tx, ctx)
            if not deletable(tx, "comment", commentId, thread.scope, "Comment"):
                return Response(status_code=204)
            record = thread.comment(commentId)
            require_delete(thread, record, "comment")
            tx.delete_scope("reply", commentId)
            tx.delete("comment", commentId)
        return Response(status_code=205)

    @router.get(replies, name=f"list_comment_replies_in_{scope_name}")
    def list_replies(
        ctx: CtxDep, ref: Ref, commentId: str, paging: PagingParams, format: FormatParam = None
    ) -> dict[str, Any]:
        with ctx.read() as tx:
            thread = ref.open(tx, ctx)
            comment = thread.comment(commentId)
            items = tx.list("reply", comment["id"])
            return paginate(items, paging, lambda r: thread.reply_json(comment, r, format))

    @router.post(replies, name=f"post_comment_reply_in_{scope_name}")
    def post_reply(
        ctx: CtxDep,
        ref: Ref,
        commentId: str,
        body: ReplyPost,
        once: OnceDep,
        format: FormatParam = None,
    ) -> dict[str, Any]:
        with ctx.write() as tx:
            if (earlier := once.earlier(tx, body)) is not None:
                return earlier
            thread = ref.open(tx, ctx)
            comment = thread.comment(commentId)
            thread.require_comment()
            reply = {
                "id": ctx.new_id(),
                "comment": comment["id"],
                "postedBy": ctx.user_id,
                "postedAt": ctx.now(),
                "body": read_content(body.body),
                "reactions": [],
            }
            tx.put("reply", reply["id"], reply, scope=comment["id"])
            return once.remember(tx, body, thread.reply_json(comment, reply, format))

    @router.get(one_reply, name=f"get_comment_reply_in_{scope_name}")
    def get_reply(
        ctx: CtxDep, ref: Ref, commentId: str, commentReplyId: str, format: FormatParam = None
    ) -> dict[str, Any]:
        with ctx.read() as tx:
            thread = ref.open(tx, ctx)
            comment = thread.comment(commentId)
            return thread.reply_json(comment, thread.reply(comment, commentReplyId), format)

    @router.put(one_reply, name=f"update_comment_reply_in_{scope_name}")
    def update_reply(
        ctx: CtxDep,
        ref: Ref,
        commentId: str,
        commentReplyId: str,
        body: CommentUpdate,
        once: OnceDep,
        format: FormatParam = None,
    ) -> dict[str, Any]:
        with ctx.write() as tx:
            if (earlier := once.earlier(tx, body)) is not None:
                return earlier
            thread = ref.open(tx, ctx)
            comment = thread.comment(commentId)
            reply = thread.reply(comment, commentReplyId)
            check_update(thread, reply, body)
            apply_edits(thread, reply, body)
            tx.put("reply", reply["id"], reply)
            if body.resolved is not None:
                # A reply has no status: `resolved` resolves or reopens its parent thread.
                set_resolved(thread, comment, body.resolved)
                tx.put("comment", comment["id"], comment)
            return once.remember(tx, body, thread.reply_json(comment, reply, format))

    @router.delete(one_reply, name=f"delete_comment_reply_in_{scope_name}")
    def delete_reply(ctx: CtxDep, ref: Ref, commentId: str, commentReplyId: str) -> Response:
        with ctx.write() as tx:
            thread = ref.open(tx, ctx)
            comment = thread.comment(commentId)  # the thread above must exist (404)
            if not deletable(tx, "reply", commentReplyId, comment["id"], "Comment reply"):
                return Response(status_code=204)
            record = thread.reply(comment, commentReplyId)
            require_delete(thread, record, "reply")
            tx.delete("reply", commentReplyId)
        return Response(status_code=205)

    @router.get(f"{prefix}/commenters", name=f"list_commenters_in_{scope_name}")
    def list_commenters(ctx: CtxDep, ref: Ref, paging: PagingParams) -> dict[str, Any]:
        with ctx.read() as tx:
            thread = ref.open(tx, ctx)
            first_post: dict[str, str] = {}
            for comment in tx.list("comment", thread.scope):
                posts = [comment, *tx.list("reply", comment["id"])]
                for post in posts:
                    user_id, at = post["postedBy"], post["postedAt"]
                    if user_id not in first_post or at < first_post[user_id]:
                        first_post[user_id] = at
            users = sorted(first_post, key=lambda u: first_post[u])
            return paginate(users, paging, lambda u: commenter_json(thread, u))


_mount(router, "/spaces/{spaceId}", _space_ref, "space")
_mount(
    router,
    "/spaces/{spaceId}/change-requests/{changeRequestId}",
    _change_request_ref,
    "change_request",
)
