"""A change request's review state (reviews, reviewers, changes, permissions), the merge
checklist and what the reader may do, loaded through the client (no Textual here)."""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field
from typing import Any

from ...api import AsyncGitBook
from ...markdown.sanitize import clean_text
from ...models import (
    ChangeRequest,
    ChangeRequestReview,
    RequestedReviewer,
    RevisionSemanticChange,
    Space,
)

__all__ = [
    "CHANGE_MARKS",
    "CheckItem",
    "ReviewState",
    "change_label",
    "conflicting_pages",
    "count_of",
    "description_markdown",
    "load_review_state",
    "review_message",
    "reviewer_name",
    "shown_reviews",
    "summary_markdown",
    "verdict",
]


def count_of(count: int, noun: str) -> str:
    """``1 approval``, ``3 approvals`` (the kit's helper lives beside Textual: the review
    feature's data modules are kept free of it)."""
    return f"{count} {noun if count == 1 else noun + 's'}"


CHANGE_MARKS = {
    "page_created": "+",
    "page_edited": "~",
    "page_deleted": "−",
    "page_moved": "→",
    "file_created": "+",
    "file_edited": "~",
    "file_deleted": "−",
}
"""Gutter mark of each change kind (a letter-free signal, readable without colour)."""


def description_markdown(description: dict[str, Any] | None) -> str:
    """The description's text: ``{markdown}`` as is; a JSON document's text, its blocks
    on lines of their own (paragraphs apart)."""
    if not description:
        return ""
    if isinstance(description.get("markdown"), str):
        return str(description["markdown"])

    def text_of(node: Any) -> str:
        if not isinstance(node, dict):
            return ""
        if node.get("object") == "leaf":
            return str(node.get("text") or "")
        children = [c for c in node.get("nodes") or node.get("leaves") or [] if isinstance(c, dict)]
        if any(c.get("object") == "block" for c in children):
            return "\n".join(text_of(c) for c in children)
        return "".join(text_of(c) for c in children)

    blocks = [b for b in description.get("nodes") or [] if isinstance(b, dict)]
    return "\n\n".join(text_of(b) for b in blocks).strip()


def change_label(change: RevisionSemanticChange) -> str:
    """One line per change: mark, kind and what changed ("→ moved Exactly-once (from …)")."""
    kind = str(change.type)
    mark = CHANGE_MARKS.get(kind, "·")
    verb = kind.split("_", 1)[-1]
    if change.page is not None:
        name = change.page.title or change.page.path or change.page.id
        if kind == "page_moved" and change.parent is not None:
            before = change.parent.before.title if change.parent.before else "top level"
            after = change.parent.after.title if change.parent.after else "top level"
            return f"{mark} {verb} {name} ({before} → {after})"
        return f"{mark} {verb} {name}"
    if change.file is not None:
        return f"{mark} file {verb} {change.file.name or change.file.id}"
    return f"{mark} {kind.replace('_', ' ')}"


_CONFLICT_PAGES = re.compile(r"'((?:[^']|'(?! \())*)' \(")


def conflicting_pages(message: str) -> list[str]:
    """Titles of the pages a 409's message names ("…changed pages 'Streams' (edited…)")."""
    return _CONFLICT_PAGES.findall(message)


def summary_markdown(state: ReviewState) -> str:
    """A markdown summary of the review to paste elsewhere (``Y``): the change request, its
    reviews and reviewers, the merge checklist and the changed pages."""
    cr = state.cr
    author = cr.createdBy.displayName if cr.createdBy else ""
    lines = [f"## #{cr.number} {cr.subject or ''}", "", f"{cr.status} · by {author}"]
    if cr.urls and cr.urls.app:
        lines.append(f"<{cr.urls.app}>")
    lines += ["", "### Checklist"]
    lines += [f"- [{'x' if item.ok else ' '}] {item.label}" for item in state.checklist()]
    lines += ["", f"### Changes ({len(state.changes) + state.more_changes})"]
    lines += [f"- {change_label(c)}" for c in state.changes]
    if state.more_changes:
        lines.append(f"- … and {state.more_changes} more")
    return clean_text("\n".join(lines)) + "\n"


def reviewer_name(review: ChangeRequestReview) -> str:
    who = (review.reviewer.displayName or review.reviewer.id) if review.reviewer else "?"
    return clean_text(who)


def verdict(review: ChangeRequestReview) -> str:
    """``approved``, ``requested changes`` (another status as the server names it)."""
    status = clean_text(str(review.status or ""))
    return {"approved": "approved", "changes-requested": "requested changes"}.get(status, status)


def review_message(review: ChangeRequestReview) -> str:
    """The review's message (markdown as typed; ``""`` without one), control-free."""
    text = review.comment.body.markdown if review.comment is not None else None
    return clean_text(text or "").strip()


def shown_reviews(state: ReviewState) -> list[ChangeRequestReview]:
    """The reviews the pane lists: newest first, one per reviewer and revision (current or
    outdated)."""
    shown: list[ChangeRequestReview] = []
    seen: set[tuple[str, bool]] = set()
    for review in state.reviews:
        key = (reviewer_name(review), bool(review.outdated))
        if key not in seen:
            seen.add(key)
            shown.append(review)
    return shown


@dataclass(frozen=True)
class CheckItem:
    """One line of the merge checklist; ``ok`` False warns (merging is still possible)
    unless ``blocking``."""

    ok: bool
    label: str
    blocking: bool = False


@dataclass
class ReviewState:
    """Everything the review pane shows about a change request besides page content."""

    cr: ChangeRequest
    space: Space
    me: str
    reviews: list[ChangeRequestReview] = field(default_factory=list)
    requested: list[RequestedReviewer] = field(default_factory=list)
    changes: list[RevisionSemanticChange] = field(default_factory=list)
    more_changes: int = 0

    # -- derived ---------------------------------------------------------------------------------
    @property
    def is_author(self) -> bool:
        return self.cr.createdBy is not None and self.cr.createdBy.id == self.me

    @property
    def active(self) -> bool:
        return self.cr.status in ("open", "draft")

    def latest_reviews(self) -> dict[str, ChangeRequestReview]:
        """Each reviewer's newest review of the current revision."""
        latest: dict[str, ChangeRequestReview] = {}
        for review in self.reviews:  # newest first
            if review.outdated:
                continue
            who = review.reviewer.id if review.reviewer else review.id
            latest.setdefault(who, review)
        return latest

    @property
    def approvals(self) -> int:
        return sum(1 for r in self.latest_reviews().values() if r.status == "approved")

    @property
    def changes_requested(self) -> int:
        return sum(1 for r in self.latest_reviews().values() if r.status == "changes-requested")

    def pending_reviewers(self) -> list[str]:
        reviewed = set(self.latest_reviews())
        names = []
        for request in self.requested:
            if request.user is not None and request.user.id not in reviewed:
                names.append(request.user.displayName or request.user.id)
            elif request.team is not None:
                names.append(f"team {request.team.title or request.team.id}")
        return names

    def reviewer_names(self) -> list[str]:
        names = []
        for request in self.requested:
            if request.user is not None:
                names.append("@" + (request.user.displayName or request.user.id))
            elif request.team is not None:
                names.append("@team " + (request.team.title or request.team.id))
        return names

    def checklist(self) -> list[CheckItem]:
        approvals, blocked = self.approvals, self.changes_requested
        pending = self.pending_reviewers()
        threads = self.cr.comments or 0
        perms = self.space.permissions
        may_merge = bool(perms and perms.merge)
        return [
            CheckItem(approvals > 0, f"{count_of(approvals, 'approval')} of the current revision"),
            CheckItem(blocked == 0, f"{count_of(blocked, 'review')} requesting changes"),
            CheckItem(
                not self.cr.outdated,
                "outdated: main changed since (update first, u)"
                if self.cr.outdated
                else "up to date with main",
            ),
            CheckItem(threads == 0, count_of(threads, "open comment thread")),
            CheckItem(not pending, "pending reviewers: " + (", ".join(pending) or "none")),
            CheckItem(
                may_merge,
                "you may merge into this space" if may_merge else self.merge_denial() or "",
                blocking=True,
            ),
        ]

    # -- permissions -----------------------------------------------------------------------------
    def merge_denial(self) -> str | None:
        perms = self.space.permissions
        if not self.active:
            return f"Change request #{self.cr.number} is {self.cr.status}"
        if self.space.editMode == "locked":
            return "Space is locked: nothing can be merged into it"
        if perms is None or not perms.merge:
            return "Merging needs edit rights on this space"
        return None

    def denial(self, action: str) -> str | None:
        """Why the reader may not do ``action`` now (``None``: they may)."""
        perms = self.space.permissions
        edit = bool(perms and perms.edit)
        inactive = None if self.active else f"Change request #{self.cr.number} is {self.cr.status}"
        if action in ("approve", "request_changes"):
            if inactive:
                return inactive
            if self.is_author:
                return "Authors can't review their own change request"
            if perms is None or not perms.review:
                return "Reviewing needs review rights on this space"
        elif action in ("add_reviewer", "remove_reviewer", "edit_details", "toggle_draft"):
            if inactive and action != "edit_details":
                return inactive
            if not (self.is_author or edit):
                return "Only the author or an editor can change this change request"
        elif action == "archive":
            if self.cr.status == "merged":
                return "A merged change request can't be archived or reopened"
            if not (self.is_author or edit):
                return "Only the author or an editor can archive or reopen"
        elif action == "update":
            if inactive:
                return inactive
            if not edit:
                return "Updating needs edit rights on this space"
            if not self.cr.outdated:
                return "Already up to date with main"
        elif action == "merge":
            return self.merge_denial()
        return None


async def load_review_state(
    client: AsyncGitBook, space_id: str, change_request: str, me: str
) -> ReviewState:
    """Read the change request and all it needs, concurrently, from the network."""
    crs = client.change_requests
    cr, space, reviews, requested, changes = await asyncio.gather(
        crs.get(space_id, change_request, read="network"),
        client.spaces.get(space_id, read="network"),
        crs.reviews(space_id, change_request, read="network").to_list(),
        crs.requested_reviewers(space_id, change_request, read="network").to_list(),
        crs.changes(space_id, change_request, limit=1000, read="network"),
    )
    return ReviewState(
        cr=cr,
        space=space,
        me=me,
        reviews=reviews,
        requested=requested,
        changes=list(changes.changes),
        more_changes=changes.more or 0,
    )
