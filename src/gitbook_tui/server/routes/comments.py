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
  deleting a comment deletes its replies.
- Commenters are the distinct authors of comments and replies in that scope only (space
  threads for the space, the change request's threads for a change request), in order of
  their first post; non-members of the organization appear with ``role: null``.
- Replies are listed oldest first. Comment lists sort by ``postedAt`` (ties by creation).
"""

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Response
from pydantic import Field, field_validator

from ..comment_views import (
    read_content,
    render_body,
)
from ..content_store import get_revision, iter_pages, page_markdown
from ..context import Ctx, CtxDep
from ..errors import bad_request, forbidden, not_found
from ..pagination import PagingParams, paginate
from ..permissions import at_least, require
from ..resources import load_change_request, load_space, member_json, user_ref
from ..schemas import Body
from ..storage import Tx

router = APIRouter(tags=["comments"])

MAX_EMOJI = 50
MAX_REACTIONS_PER_REQUEST = 50

Format = Literal["document", "markdown"]
FormatParam = Annotated[Format | None, Query(description="Output format of bodies")]


# -- request bodies ----------------------------------------------------------------------------
class Content(Body):
    """A comment body: ``{markdown}`` (or ``{document}``, read as its plain text)."""

    # Length is checked in `read_content`: the validation handler drops every `body` part
    # of an error location, so a pydantic limit here would be reported as just `markdown`.
    markdown: str | None = None
    document: dict[str, Any] | None = None


class CommentPost(Body):
    body: Content
    page: str | None = Field(None, min_length=1, max_length=256)
    node: str | None = Field(None, min_length=1, max_length=256)


class ReplyPost(Body):
    body: Content


class CommentUpdate(Body):
    resolved: bool | None = None
    body: Content | None = None
    addedReactions: list[str] | None = Field(None, max_length=MAX_REACTIONS_PER_REQUEST)
    removedReactions: list[str] | None = Field(None, max_length=MAX_REACTIONS_PER_REQUEST)

    @field_validator("addedReactions", "removedReactions")
    @classmethod
    def _emojis(cls, value: list[str] | None) -> list[str] | None:
        if value is None:
            return None
        cleaned = []
        for emoji in value:
            emoji = emoji.strip()
            if not emoji:
                raise ValueError("an emoji must not be empty")
            if len(emoji) > MAX_EMOJI:
                raise ValueError(f"an emoji is at most {MAX_EMOJI} characters")
            cleaned.append(emoji)
        return cleaned


# -- the thread scope --------------------------------------------------------------------------
@dataclass(frozen=True)
class ThreadRef:
    """Where a thread lives, from the path: a space, or a change request of a space."""

    space_id: str
    change_request_id: str | None = None

    def open(self, tx: Tx, ctx: Ctx) -> "Thread":
        space, role = load_space(tx, ctx, self.space_id)
        cr = None
        if self.change_request_id is not None:
            cr = load_change_request(tx, ctx, space, self.change_request_id)
        return Thread(tx=tx, ctx=ctx, space=space, role=role, cr=cr)


def _space_ref(spaceId: str) -> ThreadRef:
    return ThreadRef(spaceId)


def _change_request_ref(spaceId: str, changeRequestId: str) -> ThreadRef:
    return ThreadRef(spaceId, changeRequestId)


@dataclass
class Thread:
    """One request's view of a thread scope: access, current revision and rendering."""

    tx: Tx
    ctx: Ctx
    space: dict[str, Any]
    role: str
    cr: dict[str, Any] | None
    _pages: dict[str, tuple[dict[str, Any], str]] | None = field(default=None, repr=False)
    _digests: dict[str, str] = field(default_factory=dict, repr=False)

    @property
    def scope(self) -> str:
        return f"cr:{self.cr['id']}" if self.cr else f"space:{self.space['id']}"

    @property
    def base_url(self) -> str:
        base = f"{self.ctx.api}/spaces/{self.space['id']}"
        if self.cr:
            base += f"/change-requests/{self.cr['id']}"
        return f"{base}/comments"

    @property
    def revision_id(self) -> str:
        return str(self.cr["revision"] if self.cr else self.space["revision"])

    # access
    def can_comment(self) -> bool:
        return at_least(self.role, "comment")

    def require_comment(self) -> None:
        require(self.role, "comment", "Space", self.space["id"])

    def is_admin(self) -> bool:
        return at_least(self.role, "admin")

    # pages of the current revision
    def pages(self) -> dict[str, tuple[dict[str, Any], str]]:
        if self._pages is None:
            revision = get_revision(self.tx, self.revision_id)
            self._pages = {
                node["id"]: (node, path) for node, path, _ in iter_pages(revision["pages"])
            }
        return self._pages

    def digest(self, page_id: str) -> str | None:
        found = self.pages().get(page_id)
        if found is None:
            return None
        if page_id not in self._digests:
            markdown = page_markdown(self.tx, found[0])
            self._digests[page_id] = hashlib.sha256(markdown.encode("utf-8")).hexdigest()
        return self._digests[page_id]

    # records
    def comment(self, comment_id: str) -> dict[str, Any]:
        record = self.tx.get("comment", comment_id)
        if record is None or record.get("thread") != self.scope:
            raise not_found("Comment", comment_id)
        return record

    def reply(self, comment: dict[str, Any], reply_id: str) -> dict[str, Any]:
        record = self.tx.get("reply", reply_id)
        if record is None or record.get("comment") != comment["id"]:
            raise not_found("Comment reply", reply_id)
        return record

    # rendering
    def user(self, user_id: str) -> dict[str, Any]:
        return user_ref(self.tx, self.ctx, user_id)

    def permissions(self, record: dict[str, Any]) -> dict[str, bool]:
        author = record["postedBy"] == self.ctx.user_id
        return {
            "view": True,
            "edit": author and self.can_comment(),
            "reply": self.can_comment(),
            "delete": author or self.is_admin(),
        }

    def reactions(self, record: dict[str, Any]) -> list[dict[str, Any]]:
        return [
            {
                "emoji": entry["emoji"],
                "count": len(entry["users"]),
                "users": [
                    {"user": self.user(u["user"]), "reactedAt": u["reactedAt"]}
                    for u in entry["users"]
                ],
            }
            for entry in record.get("reactions", [])
        ]

    def target_page(self, page: dict[str, Any]) -> dict[str, Any]:
        found = self.pages().get(page["id"])
        if found is None:
            source, path, outdated = page, page.get("path"), True
        else:
            source, path = found
            outdated = self.digest(page["id"]) != page.get("digest")
        return {
            "id": page["id"],
            "title": source.get("title"),
            "emoji": source.get("emoji"),
            "icon": source.get("icon"),
            "createdAt": source.get("createdAt"),
            "updatedAt": source.get("updatedAt"),
            "path": path,
            "outdated": outdated,
        }

    def _common(
        self, record: dict[str, Any], obj: str, url: str, fmt: Format | None
    ) -> dict[str, Any]:
        body: dict[str, Any] = {
            "object": obj,
            "id": record["id"],
            "postedBy": self.user(record["postedBy"]),
            "postedAt": record["postedAt"],
        }
        if record.get("editedAt"):
            body["editedAt"] = record["editedAt"]
        body["reactions"] = self.reactions(record)
        body["body"] = render_body(record["body"], fmt)
        body["urls"] = {"location": url}
        body["permissions"] = self.permissions(record)
        return body

    def comment_json(self, comment: dict[str, Any], fmt: Format | None = None) -> dict[str, Any]:
        replies = self.tx.list("reply", comment["id"])
        body = self._common(comment, "comment", f"{self.base_url}/{comment['id']}", fmt)
        body["replies"] = len(replies)
        body["repliers"] = _repliers(self, replies)
        target: dict[str, Any] = {"space": self.space["id"], "revision": comment["revision"]}
        if self.cr:
            target["changeRequest"] = self.cr["id"]
        if comment.get("page"):
            target["page"] = self.target_page(comment["page"])
        if comment.get("node"):
            target["node"] = {"id": comment["node"], "preview": None}
        body["target"] = target
        body["status"] = comment.get("status", "open")
        if body["status"] == "resolved":
            body["resolvedAt"] = comment.get("resolvedAt")
            body["resolvedBy"] = self.user(comment["resolvedBy"])
        return body

    def reply_json(
        self, comment: dict[str, Any], reply: dict[str, Any], fmt: Format | None = None
    ) -> dict[str, Any]:
        url = f"{self.base_url}/{comment['id']}/replies/{reply['id']}"
        return self._common(reply, "comment-reply", url, fmt)


def _repliers(thread: Thread, replies: list[dict[str, Any]]) -> list[dict[str, Any]]:
    by_user: dict[str, dict[str, Any]] = {}
    for reply in replies:
        entry = by_user.setdefault(reply["postedBy"], {"count": 0, "updatedAt": reply["postedAt"]})
        entry["count"] += 1
        entry["updatedAt"] = max(entry["updatedAt"], reply["postedAt"])
    return [
        {"user": thread.user(uid), "count": e["count"], "updatedAt": e["updatedAt"]}
        for uid, e in by_user.items()
    ]


# -- state changes shared by comments and replies -----------------------------------------------
def _check_update(thread: Thread, record: dict[str, Any], update: CommentUpdate) -> None:
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


def _apply_edits(thread: Thread, record: dict[str, Any], update: CommentUpdate) -> None:
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


def _set_resolved(thread: Thread, comment: dict[str, Any], resolved: bool) -> None:
    if resolved:
        if comment.get("status") != "resolved":
            comment["status"] = "resolved"
            comment["resolvedAt"] = thread.ctx.now()
            comment["resolvedBy"] = thread.ctx.user_id
    else:
        comment["status"] = "open"
        comment.pop("resolvedAt", None)
        comment.pop("resolvedBy", None)


def _require_delete(thread: Thread, record: dict[str, Any], what: str) -> None:
    if record["postedBy"] != thread.ctx.user_id and not thread.is_admin():
        raise forbidden(f"Only the author or a space admin can delete this {what}.")


def _sorted_comments(
    comments: list[dict[str, Any]], order: Literal["asc", "desc"]
) -> list[dict[str, Any]]:
    if order == "desc":
        return sorted(reversed(comments), key=lambda c: c["postedAt"], reverse=True)
    return sorted(comments, key=lambda c: c["postedAt"])


def _commenter_json(thread: Thread, user_id: str) -> dict[str, Any]:
    org_id = thread.space["organization"]
    member = thread.tx.get("member", f"{org_id}:{user_id}")
    if member is None:
        member = {"organization": org_id, "user": user_id, "role": None}
    return member_json(thread.tx, thread.ctx, member)


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
            items = _sorted_comments(items, order)
            return paginate(items, paging, lambda c: thread.comment_json(c, format))

    @router.post(comments, name=f"post_comment_in_{scope_name}")
    def post_comment(
        ctx: CtxDep, ref: Ref, body: CommentPost, format: FormatParam = None
    ) -> dict[str, Any]:
        with ctx.write() as tx:
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
            return thread.comment_json(comment, format)

    @router.get(one, name=f"get_comment_in_{scope_name}")
    def get_comment(
        ctx: CtxDep, ref: Ref, commentId: str, format: FormatParam = None
    ) -> dict[str, Any]:
        with ctx.read() as tx:
            thread = ref.open(tx, ctx)
            return thread.comment_json(thread.comment(commentId), format)

    @router.put(one, name=f"update_comment_in_{scope_name}")
    def update_comment(
        ctx: CtxDep, ref: Ref, commentId: str, body: CommentUpdate, format: FormatParam = None
    ) -> dict[str, Any]:
        with ctx.write() as tx:
            thread = ref.open(tx, ctx)
            comment = thread.comment(commentId)
            _check_update(thread, comment, body)
            _apply_edits(thread, comment, body)
            if body.resolved is not None:
                _set_resolved(thread, comment, body.resolved)
            tx.put("comment", comment["id"], comment)
            return thread.comment_json(comment, format)

    @router.delete(one, name=f"delete_comment_in_{scope_name}")
    def delete_comment(ctx: CtxDep, ref: Ref, commentId: str) -> Response:
        with ctx.write() as tx:
            thread = ref.open(tx, ctx)
            record = tx.get("comment", commentId)
            if record is None or record.get("thread") != thread.scope:
                return Response(status_code=204)
            _require_delete(thread, record, "comment")
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
        ctx: CtxDep, ref: Ref, commentId: str, body: ReplyPost, format: FormatParam = None
    ) -> dict[str, Any]:
        with ctx.write() as tx:
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
            return thread.reply_json(comment, reply, format)

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
        format: FormatParam = None,
    ) -> dict[str, Any]:
        with ctx.write() as tx:
            thread = ref.open(tx, ctx)
            comment = thread.comment(commentId)
            reply = thread.reply(comment, commentReplyId)
            _check_update(thread, reply, body)
            _apply_edits(thread, reply, body)
            tx.put("reply", reply["id"], reply)
            if body.resolved is not None:
                # A reply has no status: `resolved` resolves or reopens its parent thread.
                _set_resolved(thread, comment, body.resolved)
                tx.put("comment", comment["id"], comment)
            return thread.reply_json(comment, reply, format)

    @router.delete(one_reply, name=f"delete_comment_reply_in_{scope_name}")
    def delete_reply(ctx: CtxDep, ref: Ref, commentId: str, commentReplyId: str) -> Response:
        with ctx.write() as tx:
            thread = ref.open(tx, ctx)
            record = tx.get("reply", commentReplyId)
            comment = tx.get("comment", commentId)
            if (
                record is None
                or comment is None
                or comment.get("thread") != thread.scope
                or record.get("comment") != commentId
            ):
                return Response(status_code=204)
            _require_delete(thread, record, "reply")
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
            return paginate(users, paging, lambda u: _commenter_json(thread, u))


_mount(router, "/spaces/{spaceId}", _space_ref, "space")
_mount(
    router,
    "/spaces/{spaceId}/change-requests/{changeRequestId}",
    _change_request_ref,
    "change_request",
)
