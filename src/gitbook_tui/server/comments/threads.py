"""A comment thread scope (a space or a change request of one): access, pages and comment JSON."""

from __future__ import annotations

import hashlib
import threading
import weakref
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..content.store import PageIndex, get_revision, page_index, page_markdown
from ..core.context import Ctx
from ..core.errors import not_found
from ..core.permissions import at_least, require
from ..core.resources import load_change_request, load_space, member_json, user_ref
from ..core.storage import Tx
from .schemas import Format
from .views import render_body

_DIGEST_LIMIT = 4096
# Per storage: sha256 of a page's markdown by the hash of its stored document (blobs are
# content-addressed and never change, so an entry never goes stale).
_DIGESTS: weakref.WeakKeyDictionary[Any, OrderedDict[str, str]] = weakref.WeakKeyDictionary()
_DIGESTS_LOCK = threading.Lock()


class PageMap(Mapping[str, tuple[dict[str, Any], str]]):
    """The pages of one revision by id, as ``(node, path)``: a view of the revision's cached
    :class:`~..content.store.PageIndex` (built once per revision, not per request)."""

    def __init__(self, index: PageIndex) -> None:
        self._by_id = index.by_id

    def __getitem__(self, page_id: str) -> tuple[dict[str, Any], str]:
        node, path, _ = self._by_id[page_id]
        return node, path

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_id)

    def __len__(self) -> int:
        return len(self._by_id)


def markdown_digest(tx: Tx, node: dict[str, Any]) -> str:
    """sha256 of a page's markdown (what a comment keeps to tell when its page changed)."""
    document = node.get("document")
    if not document:
        return hashlib.sha256(b"").hexdigest()
    with _DIGESTS_LOCK:
        known = _DIGESTS.setdefault(tx.storage, OrderedDict())
        digest = known.get(document)
    if digest is None:
        digest = hashlib.sha256(page_markdown(tx, node).encode("utf-8")).hexdigest()
        with _DIGESTS_LOCK:
            known[document] = digest
            if len(known) > _DIGEST_LIMIT:
                known.popitem(last=False)
    return digest


@dataclass(frozen=True)
class ThreadRef:
    """Where a thread lives, from the path: a space, or a change request of a space."""

    space_id: str
    change_request_id: str | None = None

    def open(self, tx: Tx, ctx: Ctx) -> Thread:
        space, role = load_space(tx, ctx, self.space_id)
        cr = None
        if self.change_request_id is not None:
            cr = load_change_request(tx, ctx, space, self.change_request_id)
        return Thread(tx=tx, ctx=ctx, space=space, role=role, cr=cr)


@dataclass
class Thread:
    """One request's view of a thread scope: access, current revision and rendering."""

    tx: Tx
    ctx: Ctx
    space: dict[str, Any]
    role: str
    cr: dict[str, Any] | None
    _pages: PageMap | None = field(default=None, repr=False)
    _digests: dict[str, str] = field(default_factory=dict, repr=False)
    _users: dict[str, dict[str, Any]] = field(default_factory=dict, repr=False)

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
    def pages(self) -> PageMap:
        """The current revision's pages by id (read-only: the revision's cached index)."""
        if self._pages is None:
            revision = get_revision(self.tx, self.revision_id)
            self._pages = PageMap(page_index(self.tx, revision))
        return self._pages

    def digest(self, page_id: str) -> str | None:
        found = self.pages().get(page_id)
        if found is None:
            return None
        if page_id not in self._digests:
            self._digests[page_id] = markdown_digest(self.tx, found[0])
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
        """The user's JSON, looked up once per request (a listing names the same few
        people over and over); a fresh copy each time, as callers may change it."""
        if user_id not in self._users:
            self._users[user_id] = user_ref(self.tx, self.ctx, user_id)
        known = self._users[user_id]
        return {k: dict(v) if isinstance(v, dict) else v for k, v in known.items()}

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
        body["repliers"] = repliers(self, replies)
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


def repliers(thread: Thread, replies: list[dict[str, Any]]) -> list[dict[str, Any]]:
    by_user: dict[str, dict[str, Any]] = {}
    for reply in replies:
        entry = by_user.setdefault(reply["postedBy"], {"count": 0, "updatedAt": reply["postedAt"]})
        entry["count"] += 1
        entry["updatedAt"] = max(entry["updatedAt"], reply["postedAt"])
    return [
        {"user": thread.user(uid), "count": e["count"], "updatedAt": e["updatedAt"]}
        for uid, e in by_user.items()
    ]


def commenter_json(thread: Thread, user_id: str) -> dict[str, Any]:
    org_id = thread.space["organization"]
    member = thread.tx.get("member", f"{org_id}:{user_id}")
    if member is None:
        member = {"organization": org_id, "user": user_id, "role": None}
    return member_json(thread.tx, thread.ctx, member)
