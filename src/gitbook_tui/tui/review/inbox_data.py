"""The review inbox's data: change requests across the organization (or one space), their
review counts, local conflict marks, which inbox sections each belongs to, and a
change request's changed pages for the preview (no Textual here)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from ...api import AsyncGitBook
from ...api.errors import APIStatusError
from ...models import ChangeRequest
from .conflict_marks import load_conflict_marks
from .review_data import change_label

__all__ = [
    "CONFLICT",
    "SECTIONS",
    "STATUS_FILTERS",
    "STATUS_SHORT",
    "STATUS_TITLES",
    "InboxRow",
    "Section",
    "age",
    "load_inbox",
    "load_inbox_rows",
    "now",
    "preview_changes",
    "rows_in",
    "tag_conflicts",
]

CONFLICT = "conflict"
"""Row tag: an update or merge of this change request answered 409 at its revision."""

FAN_OUT = 4
"""Requests in flight at once when the server lacks the organization list (per space)."""


@dataclass(frozen=True)
class Section:
    key: str
    title: str
    short: tuple[str, ...] = ()
    """Shorter titles, for narrower bars (longest first)."""

    @property
    def labels(self) -> tuple[str, ...]:
        return (self.title, *self.short)


SECTIONS: tuple[Section, ...] = (
    Section("requested", "Review requested", ("Requested",)),
    Section("mine", "Mine"),
    Section("outdated", "Outdated or conflicting", ("Outdated/conflict", "Outdated/⚠")),
    Section("drafts", "Drafts"),
    Section("open", "All open"),
)
STATUS_FILTERS: tuple[tuple[str, ...], ...] = (
    ("open", "draft"),
    ("open",),
    ("draft",),
    ("merged",),
    ("archived",),
)
"""What ``f`` cycles through (the per-space table and "All open" use the current one)."""
STATUS_TITLES: dict[tuple[str, ...], str] = {
    ("open", "draft"): "All open",
    ("open",): "All ready",
    ("draft",): "All drafts",
    ("merged",): "All merged",
    ("archived",): "All archived",
}
"""The last section's title per status filter (``f``): it never says "open" for merged ones."""
STATUS_SHORT: dict[str, str] = {
    "All open": "All",
    "All ready": "Ready",
    "All drafts": "Drafts",
    "All merged": "Merged",
    "All archived": "Archived",
}
"""That title in a narrow section bar."""


@dataclass
class InboxRow:
    """A change request as the inbox shows it."""

    cr: ChangeRequest
    space_id: str
    space_title: str = ""
    requested: bool = False
    """The signed-in user (or one of their teams) is asked to review."""
    approvals: int | None = None
    changes_requested: int | None = None
    tags: set[str] = field(default_factory=set)

    @property
    def number(self) -> int:
        return self.cr.number or 0


def rows_in(rows: Sequence[InboxRow], section: str, statuses: tuple[str, ...]) -> list[InboxRow]:
    """The rows of an inbox section (``statuses`` filters "All open" and the space table)."""
    if section == "requested":
        return [r for r in rows if r.requested and r.cr.status == "open"]
    if section == "mine":
        return [r for r in rows if "mine" in r.tags and r.cr.status in ("open", "draft")]
    if section == "outdated":
        return [
            r
            for r in rows
            if (r.cr.outdated or CONFLICT in r.tags) and r.cr.status in ("open", "draft")
        ]
    if section == "drafts":
        return [r for r in rows if r.cr.status == "draft"]
    return [r for r in rows if r.cr.status in statuses]


def now() -> datetime:
    """The current time (tests pin it for snapshots)."""
    return datetime.now(UTC)


def age(moment: datetime | None, at: datetime | None = None) -> str:
    """How long ago, compactly: ``5m``, ``3h``, ``12d``."""
    if moment is None:
        return ""
    seconds = max(0, int(((at or now()) - moment).total_seconds()))
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{seconds // size}{unit}"
    return "now"


async def _org_list(
    client: AsyncGitBook, org_id: str, statuses: tuple[str, ...], **filters: Any
) -> list[ChangeRequest]:
    pager = client.change_requests.list_for_organization(
        org_id, status=list(statuses), limit=100, read="network", **filters
    )
    return [cr async for cr in pager]


async def _space_lists(
    client: AsyncGitBook, space_ids: Sequence[str], statuses: tuple[str, ...], **filters: Any
) -> list[ChangeRequest]:
    gate = asyncio.Semaphore(FAN_OUT)

    async def one(space_id: str) -> list[ChangeRequest]:
        async with gate:
            pager = client.change_requests.list(
                space_id, status=list(statuses), limit=100, read="network", **filters
            )
            return [cr async for cr in pager]

    found = await asyncio.gather(*(one(s) for s in space_ids))
    items = [cr for crs in found for cr in crs]
    items.sort(key=lambda cr: cr.updatedAt or datetime.min.replace(tzinfo=UTC), reverse=True)
    return items


async def _space_titles(client: AsyncGitBook, org_id: str) -> dict[str, str]:
    titles: dict[str, str] = {}
    async for space in client.spaces.list_in_org(org_id, read="prefer-cache"):
        titles[space.id] = space.title or ""
    async for coll in client.collections.list(org_id, read="prefer-cache"):
        async for space in client.collections.spaces(coll.id, read="prefer-cache"):
            titles[space.id] = space.title or ""
    return titles


async def load_inbox(
    client: AsyncGitBook,
    org_id: str,
    me: str,
    *,
    space_id: str | None = None,
    statuses: tuple[str, ...] = ("open", "draft"),
) -> tuple[list[InboxRow], bool]:
    """The inbox rows (one space's when ``space_id``) and whether the organization list
    was used (``False``: the server lacks it, the spaces were asked one by one)."""
    wanted = tuple(dict.fromkeys((*statuses, "open", "draft")))
    titles = await _space_titles(client, org_id)
    org_wide = True
    try:
        scope = {"space": space_id} if space_id else {}
        items = await _org_list(client, org_id, wanted, **scope)
        requested = await _org_list(client, org_id, ("open",), requested_reviewer=me, **scope)
    except APIStatusError as exc:
        if exc.status not in (404, 405):
            raise
        org_wide = False
        spaces = [space_id] if space_id else list(titles)
        items = await _space_lists(client, spaces, wanted)
        requested = await _space_lists(client, spaces, ("open",), requested_reviewer=me)
    asked = {cr.id for cr in requested}
    rows = [
        InboxRow(
            cr=cr,
            space_id=cr.space or "",
            space_title=titles.get(cr.space or "", cr.space or ""),
            requested=cr.id in asked,
            tags={"mine"} if cr.createdBy is not None and cr.createdBy.id == me else set(),
        )
        for cr in items
    ]
    await _count_reviews(client, rows)
    return rows, org_wide


async def _count_reviews(client: AsyncGitBook, rows: Sequence[InboxRow]) -> None:
    """✓/✗ counts: each reviewer's latest review of the current revision."""
    gate = asyncio.Semaphore(FAN_OUT)

    async def one(row: InboxRow) -> None:
        async with gate:
            try:
                reviews = [
                    r
                    async for r in client.change_requests.reviews(
                        row.space_id, row.cr.id, outdated=False, read="network"
                    )
                ]
            except APIStatusError:
                return
        latest: dict[str, str] = {}
        for review in reviews:  # newest first
            who = review.reviewer.id if review.reviewer else review.id
            latest.setdefault(who, str(review.status or ""))
        row.approvals = sum(1 for s in latest.values() if s == "approved")
        row.changes_requested = sum(1 for s in latest.values() if s == "changes-requested")

    await asyncio.gather(*(one(r) for r in rows if r.cr.status in ("open", "draft")))


async def tag_conflicts(client: AsyncGitBook, rows: Sequence[InboxRow]) -> None:
    """Tag :data:`CONFLICT` on the rows whose update or merge answered 409 at their current
    revision (the local marks, read from disk)."""
    marks = await asyncio.to_thread(load_conflict_marks, client)
    for row in rows:
        if marks is not None and marks.conflicts(row.cr):
            row.tags.add(CONFLICT)


async def load_inbox_rows(
    client: AsyncGitBook,
    org_id: str,
    me: str,
    *,
    space_id: str | None,
    status_filter: tuple[str, ...],
) -> tuple[list[InboxRow], bool]:
    """The rows the inbox lists under ``status_filter`` (the open and draft ones always,
    for the sections), conflict-tagged; and whether the organization list was used."""
    rows, org_wide = await load_inbox(
        client, org_id, me, space_id=space_id, statuses=STATUS_FILTERS[0]
    )
    if status_filter not in (STATUS_FILTERS[0], ("open",), ("draft",)):
        extra, _ = await load_inbox(client, org_id, me, space_id=space_id, statuses=status_filter)
        known = {r.cr.id for r in rows}
        rows += [r for r in extra if r.cr.id not in known]
    await tag_conflicts(client, rows)
    return rows, org_wide


async def preview_changes(client: AsyncGitBook, space_id: str, cr_id: str) -> list[str]:
    """One line per changed page of the change request (the first 50, then how many more)."""
    changes = await client.change_requests.changes(space_id, cr_id, limit=50, read="prefer-cache")
    lines = [change_label(c) for c in changes.changes] or ["(no changes)"]
    if changes.more:
        lines.append(f"… and {changes.more} more")
    return lines
