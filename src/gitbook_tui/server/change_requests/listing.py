"""Filtering and ordering change requests for the space and organization lists."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..core.permissions import space_role, teams_of
from ..core.storage import Tx
from ..sites.views import SITE_SPACE


@dataclass(frozen=True)
class CrFilters:
    """The query filters both list operations share (``None`` = no filter)."""

    status: frozenset[str] = frozenset({"open"})
    creator: str | None = None
    contributor: str | None = None
    requested_reviewer: str | None = None
    order_by: str = "updatedAt"


def is_requested_reviewer(tx: Tx, cr: dict[str, Any], org_id: str, user_id: str) -> bool:
    """The user is asked to review, directly or through one of their teams."""
    if tx.get("requested-reviewer", f"{cr['id']}:{user_id}") is not None:
        return True
    teams = None
    for entry in tx.list("requested-reviewer", cr["id"]):
        if entry.get("team"):
            teams = teams_of(tx, org_id, user_id) if teams is None else teams
            if entry["team"] in teams:
                return True
    return False


def filter_change_requests(
    tx: Tx, org_id: str, items: Iterable[dict[str, Any]], filters: CrFilters
) -> list[dict[str, Any]]:
    """The change requests matching ``filters``, most recent (by ``order_by``) first."""
    kept = [cr for cr in items if cr["status"] in filters.status]
    if filters.creator:
        kept = [cr for cr in kept if cr["createdBy"] == filters.creator]
    if (who := filters.contributor) is not None and who:
        kept = [cr for cr in kept if cr["createdBy"] == who or who in cr.get("contributors", [])]
    if (reviewer := filters.requested_reviewer) is not None and reviewer:
        kept = [cr for cr in kept if is_requested_reviewer(tx, cr, org_id, reviewer)]
    kept.sort(
        key=lambda cr: (cr.get(filters.order_by) or "", cr["space"], cr["number"]), reverse=True
    )
    return kept


def readable_org_spaces(tx: Tx, org_id: str, user_id: str) -> list[dict[str, Any]]:
    """Every (not deleted) space of the organization the user can read, in any collection."""
    rows = tx.conn.execute(
        "SELECT data FROM docs WHERE kind='space' AND json_extract(data, '$.organization')=?",
        (org_id,),
    ).fetchall()
    spaces = [json.loads(row[0]) for row in rows]
    return [s for s in spaces if not s.get("deletedAt") and space_role(tx, s, user_id) is not None]


def site_space_ids(tx: Tx, org_id: str, site_id: str) -> set[str]:
    """The spaces a site of the organization publishes (none for another org's site)."""
    site = tx.get("site", site_id)
    if site is None or site.get("organization") != org_id:
        return set()
    return {ss["space"] for ss in tx.list(SITE_SPACE, site_id)}
