"""The data of the History view: a space's revisions walked back along first parents, lazily,
each with what it changed (no widgets here: testable without Textual)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from ...api import AsyncGitBook, GitBookError, NotFoundError, PermissionDeniedError
from ...models import Revision, RevisionSemanticChange, RevisionSemanticChanges

__all__ = ["CHANGES_LIMIT", "HistoryWalk", "LogEntry", "changed_pages", "log_entry", "summarize"]

CHANGES_LIMIT = 1000
"""Changes asked for per revision (the server's most; ``more`` counts any beyond)."""

State = Literal["ok", "missing", "unreadable"]

_PAGE_WORDS = (
    ("page_created", "created"),
    ("page_edited", "edited"),
    ("page_moved", "moved"),
    ("page_deleted", "deleted"),
)
_OTHER_WORDS = (
    ("file_created", "file", "added"),
    ("file_edited", "file", "edited"),
    ("file_deleted", "file", "deleted"),
    ("reusable_content_created", "reusable content", "added"),
    ("reusable_content_edited", "reusable content", "edited"),
    ("reusable_content_deleted", "reusable content", "deleted"),
)


def summarize(changes: Sequence[RevisionSemanticChange], more: int = 0) -> str:
    """One line: "3 pages edited, 1 moved, 1 file added" (+ "12 more" when truncated)."""
    kinds = [str(change.type) for change in changes]
    parts: list[str] = []
    for kind, word in _PAGE_WORDS:
        count = kinds.count(kind)
        if count:
            noun = "" if parts else (" page" if count == 1 else " pages")
            parts.append(f"{count}{noun} {word}")
    for kind, noun, word in _OTHER_WORDS:
        count = kinds.count(kind)
        if count:
            parts.append(f"{count} {noun}{'' if count == 1 else 's'} {word}")
    if "variables_edited" in kinds:
        parts.append("variables edited")
    if more:
        parts.append(f"{more} more not listed")
    return ", ".join(parts) if parts else "no changes"


def changed_pages(changes: Sequence[RevisionSemanticChange]) -> list[RevisionSemanticChange]:
    """The page changes among ``changes``, one per page (an edit wins over a move)."""
    seen: dict[str, RevisionSemanticChange] = {}
    for change in changes:
        if change.page is None:
            continue
        if change.page.id not in seen or str(change.type) == "page_edited":
            seen[change.page.id] = change
    return list(seen.values())


@dataclass(frozen=True)
class LogEntry:
    """One revision of the log: what it is, who brought it, what it changed. ``state``
    "missing" (the server has no such revision) or "unreadable" (not for this reader)
    ends the walk there."""

    revision_id: str
    state: State = "ok"
    kind: str = ""
    created_at: datetime | None = None
    parents: tuple[str, ...] = ()
    cr_id: str | None = None
    cr_number: int | None = None
    cr_subject: str = ""
    cr_author: str = ""
    git_oid: str = ""
    git_message: str = ""
    changes: tuple[RevisionSemanticChange, ...] = ()
    more: int = 0
    changes_failed: bool = False

    @property
    def summary(self) -> str:
        if self.state != "ok":
            return ""
        if self.changes_failed:
            return "changes not available"
        return summarize(self.changes, self.more)

    @property
    def what(self) -> str:
        """The change request it merged ("#12 Subject — Author"), else its Git commit,
        else how it came."""
        if self.state == "missing":
            return "revision not found on the server (its history ends here)"
        if self.state == "unreadable":
            return "revision you cannot read (its history ends here)"
        if self.cr_number is not None:
            author = f" — {self.cr_author}" if self.cr_author else ""
            return f"#{self.cr_number} {self.cr_subject}{author}"
        if self.git_oid:
            return f"{self.git_oid[:7]} {self.git_message}".strip()
        return {"edits": "direct edit", "rollback": "rollback", "update": "update"}.get(
            self.kind, self.kind or "revision"
        )

    def touches(self, page_id: str) -> bool:
        return any(c.page is not None and c.page.id == page_id for c in self.changes)

    def page_titles(self) -> list[str]:
        return [c.page.title or "" for c in changed_pages(self.changes) if c.page is not None]

    def haystack(self) -> tuple[str, ...]:
        """What ``/`` matches: subject, author, commit, type and the changed pages' titles."""
        return (self.what, self.kind, *self.page_titles())


def log_entry(revision: Revision, changes: RevisionSemanticChanges | None) -> LogEntry:
    cr = revision.mergedFrom or (changes.mergedFrom if changes is not None else None)
    author = ""
    if cr is not None and cr.createdBy is not None:
        author = cr.createdBy.displayName or ""
    return LogEntry(
        revision_id=revision.id,
        kind=str(revision.type or "edits"),
        created_at=revision.createdAt,
        parents=tuple(revision.parents),
        cr_id=cr.id if cr is not None else None,
        cr_number=int(cr.number) if cr is not None and cr.number is not None else None,
        cr_subject=(cr.subject or "") if cr is not None else "",
        cr_author=author,
        git_oid=(revision.git.oid or "") if revision.git else "",
        git_message=((revision.git.message or "").splitlines() or [""])[0] if revision.git else "",
        changes=tuple(changes.changes) if changes is not None else (),
        more=int(changes.more or 0) if changes is not None else 0,
        changes_failed=changes is None,
    )


@dataclass
class HistoryWalk:
    """A space's revisions newest first along first parents (a merge's first parent is the
    main line before it), fetched as asked for; ``page_id`` keeps those that changed it.

    Revisions never change, so every read may come from the cache; the next revision is
    asked for while the changes of this one are still on their way."""

    client: AsyncGitBook
    space_id: str
    page_id: str | None = None
    head: str | None = None
    entries: list[LogEntry] = field(default_factory=list)
    walked: int = 0
    """Revisions walked (those of a page-scoped log included that do not touch the page)."""
    done: bool = False
    _next: str | None = None

    async def _head(self) -> str | None:
        if self.head is None:
            space = await self.client.spaces.get(self.space_id)
            self.head = space.revision or ""
        return self.head or None

    async def _changes(self, revision_id: str) -> RevisionSemanticChanges | None:
        try:
            return await self.client.revisions.changes(
                self.space_id, revision_id, limit=CHANGES_LIMIT, read="prefer-cache"
            )
        except GitBookError:
            return None

    async def _revision(self, revision_id: str) -> Revision | LogEntry:
        try:
            return await self.client.revisions.get(self.space_id, revision_id, read="prefer-cache")
        except NotFoundError:
            return LogEntry(revision_id, state="missing")
        except PermissionDeniedError:
            return LogEntry(revision_id, state="unreadable")

    async def more(self, count: int) -> list[LogEntry]:
        """Up to ``count`` more entries of the log (fewer at its end: :attr:`done`)."""
        found: list[LogEntry] = []
        if self.done:
            return found
        if self._next is None and not self.entries and self.walked == 0:
            self._next = await self._head()
        pending: asyncio.Task[Revision | LogEntry] | None = None
        while self._next and len(found) < count:
            current = self._next
            got = await (pending or self._revision(current))
            pending = None
            self.walked += 1
            if isinstance(got, LogEntry):  # missing or unreadable: the walk ends here
                self._next = None
                found.append(got)
                break
            nxt = got.parents[0] if got.parents else None
            if nxt and len(found) + 1 < count:  # the next revision, while changes load
                pending = asyncio.ensure_future(self._revision(nxt))
            entry = log_entry(got, await self._changes(current))
            self._next = nxt
            if self.page_id is None or entry.touches(self.page_id):
                found.append(entry)
            if self.page_id is not None and any(
                str(c.type) == "page_created" and c.page is not None and c.page.id == self.page_id
                for c in entry.changes
            ):
                self._next = None  # nothing older changed a page not there yet
        if pending is not None:
            pending.cancel()
        if not self._next:
            self.done = True
        self.entries += found
        return found
