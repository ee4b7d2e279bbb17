"""Structure data: the writes of a site's structure — new sections, groups and site spaces,
edits, the default, removals and moves — sent through the client (no Textual here)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...api import AsyncGitBook
from ...api.resource import NULL
from ...models import SiteSection, SiteSectionGroup, SiteSpace
from .structure_order import ROOT, Row, State, StructureOrder
from .structure_plan import Move, plan_moves

__all__ = [
    "MoveRefused",
    "add_site_space",
    "create_section",
    "create_section_group",
    "make_default",
    "remove_item",
    "send_move",
    "update_item",
]

CLEARABLE = ("condition", "icon")
"""Fields an emptied form value clears on the server (sent as ``null``)."""


class MoveRefused(Exception):
    """A move the server refused; ``sent`` of its operations had been applied before."""

    def __init__(self, error: Exception, sent: int) -> None:
        super().__init__(str(error))
        self.error = error
        self.sent = sent


async def create_section(
    client: AsyncGitBook,
    org_id: str,
    site_id: str,
    *,
    title: str,
    space_id: str | None,
    group_id: str | None,
) -> None:
    """A new section showing ``space_id`` (``None``: a new empty space), in a group or at
    the root."""
    await client.sites.create_section(
        org_id, site_id, space_id or None, title=title.strip(), site_section_group_id=group_id
    )


async def create_section_group(
    client: AsyncGitBook, org_id: str, site_id: str, *, title: str, icon: str
) -> None:
    await client.sites.create_section_group(
        org_id, site_id, title.strip(), icon=icon.strip() or None
    )


async def add_site_space(
    client: AsyncGitBook, org_id: str, site_id: str, space_id: str, section_id: str
) -> None:
    """Publish ``space_id`` in the section (``ROOT``: a site without sections)."""
    await client.sites.create_site_space(org_id, site_id, space_id, section_id=section_id or None)


async def update_item(
    client: AsyncGitBook,
    org_id: str,
    site_id: str,
    item: SiteSection | SiteSectionGroup | SiteSpace,
    changes: Mapping[str, Any],
) -> None:
    """Send the edit form's changed fields of a group, section or site space; an emptied
    condition or icon is cleared."""
    diff = dict(changes)
    for name in CLEARABLE:
        if name in diff and not diff[name]:
            diff[name] = NULL
    sites, ids = client.sites, (org_id, site_id, item.id)
    if isinstance(item, SiteSectionGroup):
        if "title" in diff:
            diff["title"] = diff["title"].strip()
        await sites.update_section_group(*ids, **diff)
    elif isinstance(item, SiteSection):
        await sites.update_section(*ids, **diff)
    else:
        await sites.update_site_space(*ids, **diff)


async def make_default(client: AsyncGitBook, org_id: str, site_id: str, row: Row) -> None:
    """Make a section the site's default, or a site space its section's (or, in a site
    without sections, the site's)."""
    sites = client.sites
    if row.kind == "section":
        await sites.update(org_id, site_id, default_site_section=row.id)
    elif row.section == ROOT:
        await sites.update(org_id, site_id, default_site_space=row.id)
    else:
        await sites.update_section(org_id, site_id, row.section, default_site_space=row.id)


async def remove_item(client: AsyncGitBook, org_id: str, site_id: str, row: Row) -> None:
    """Delete a group (what it holds stays) or take a section or site space off the site."""
    sites = client.sites
    if row.kind == "group":
        await sites.delete_section_group(org_id, site_id, row.id)
    elif row.kind == "section":
        await sites.delete_section(org_id, site_id, row.id)
    else:
        await sites.delete_site_space(org_id, site_id, row.id)


async def send_move(
    client: AsyncGitBook,
    org_id: str,
    site_id: str,
    order: StructureOrder,
    row: Row,
    origin: State,
) -> int:
    """Send the operations that take ``row`` from where it was in ``origin`` to where it
    is in ``order`` now; how many were sent (:class:`MoveRefused` when one is refused)."""
    sent = 0
    try:
        if row.kind == "space":
            before, after = order.anchors(row)
            await client.sites.move_site_space(org_id, site_id, row.id, before=before, after=after)
            return 1
        node = (row.kind, row.id)
        was_in, now_in = order.parent_of(row, origin), order.parent_of(row)
        start = order.level(row, origin)
        if was_in != now_in:  # into or out of a group: at the end of its new level first
            await client.sites.update_section(
                org_id, site_id, row.id, site_section_group_id=now_in or NULL
            )
            sent += 1
            start = [n for n in origin[0].get(now_in, []) if n != node] + [node]
        for move in plan_moves(start, order.level(row)):
            await _send_one(client, org_id, site_id, move)
            sent += 1
    except Exception as error:
        raise MoveRefused(error, sent) from error
    return sent


async def _send_one(client: AsyncGitBook, org_id: str, site_id: str, move: Move) -> None:
    (kind, item_id), (anchor_kind, anchor) = move.node, move.anchor
    before = anchor if move.where == "before" else None
    after = anchor if move.where == "after" else None
    sites, ids = client.sites, (org_id, site_id, item_id)
    if kind == "section":
        await sites.move_section(*ids, before=before, after=after)
        return
    is_group = anchor_kind == "group"
    await sites.move_section_group(
        *ids, before=before, after=after, before_is_group=is_group, after_is_group=is_group
    )
