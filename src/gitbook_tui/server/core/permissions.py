"""Roles and the effective permissions of a caller on organizations, collections and spaces."""

from __future__ import annotations

from typing import Any

from .errors import forbidden, not_found
from .storage import Tx

ROLES = ("read", "comment", "review", "edit", "create", "admin")
_RANK = {role: rank for rank, role in enumerate(ROLES)}


def rank(role: str | None) -> int:
    return -1 if role is None else _RANK.get(role, -1)


def at_least(role: str | None, needed: str) -> bool:
    return rank(role) >= _RANK[needed]


def best(*roles: str | None) -> str | None:
    present = [r for r in roles if r is not None]
    return max(present, key=rank) if present else None


def member_of(tx: Tx, org_id: str, user_id: str) -> dict[str, Any] | None:
    member = tx.get("member", f"{org_id}:{user_id}")
    if member is None or member.get("disabled"):
        return None
    return member


def org_role(tx: Tx, org_id: str, user_id: str) -> str | None:
    member = member_of(tx, org_id, user_id)
    return None if member is None else member.get("role")


def teams_of(tx: Tx, org_id: str, user_id: str) -> set[str]:
    return {t["id"] for t in tx.list("team", org_id) if user_id in t.get("members", [])}


def granted_role(tx: Tx, target_id: str, user_id: str, team_ids: set[str]) -> str | None:
    """The best role granted on one space/collection directly or through a team."""
    direct = tx.get("grant", f"{target_id}:{user_id}")
    roles: list[str | None] = [direct["role"] if direct else None]
    roles += [g["role"] for g in tx.list("team-grant", target_id) if g["team"] in team_ids]
    return best(*roles)


def collection_role(tx: Tx, collection: dict[str, Any], user_id: str) -> str | None:
    org_id = collection["organization"]
    base = org_role(tx, org_id, user_id)
    if base == "admin":
        return "admin"
    teams = teams_of(tx, org_id, user_id)
    return _inherited_role(tx, collection, user_id, base, teams)


def _inherited_role(
    tx: Tx, item: dict[str, Any], user_id: str, base: str | None, teams: set[str]
) -> str | None:
    level: str | None
    if base is not None and item.get("defaultLevel") is not None:
        level = item["defaultLevel"]
    elif item.get("parent"):
        parent = tx.get("collection", item["parent"])
        level = _inherited_role(tx, parent, user_id, base, teams) if parent else base
    else:
        level = base
    return best(level, granted_role(tx, item["id"], user_id, teams))


def space_role(tx: Tx, space: dict[str, Any], user_id: str) -> str | None:
    org_id = space["organization"]
    base = org_role(tx, org_id, user_id)
    if base == "admin":
        return "admin"
    role = _inherited_role(tx, space, user_id, base, teams_of(tx, org_id, user_id))
    if role is None and space.get("visibility") in ("public", "unlisted"):
        return "read"
    return role


def require(role: str | None, needed: str, what: str, id: str) -> None:
    """404 when the caller cannot see the resource at all, 403 when the role is too low."""
    if role is None:
        raise not_found(what, id)
    if not at_least(role, needed):
        raise forbidden(
            f"Your role on this {what.lower()} ({role}) does not allow this; it needs '{needed}'."
        )
