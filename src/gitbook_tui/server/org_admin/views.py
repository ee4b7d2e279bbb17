"""Org admin helpers: admin checks, lookups within an org, invite/team/translation JSON."""

from __future__ import annotations

from typing import Any

from ..core.context import Ctx
from ..core.errors import bad_request, forbidden, not_found
from ..core.permissions import member_of, org_role, rank
from ..core.resources import collection_json, load_org, space_json
from ..core.storage import Tx
from ..spaces.rules import subtree


def admin_org(tx: Tx, ctx: Ctx, org_id: str, action: str) -> dict[str, Any]:
    """The organization, if the caller is one of its admins (404 non-member, 403 non-admin)."""
    org = load_org(tx, ctx, org_id)
    if org_role(tx, org_id, ctx.user_id) != "admin":
        raise forbidden(f"Only organization admins can {action}.")
    return org


def in_org(tx: Tx, kind: str, id: str, org_id: str, what: str) -> dict[str, Any]:
    doc = tx.get(kind, id)
    where = tx.position_of(kind, id)
    if doc is None or where is None or where[0] != org_id:
        raise not_found(what, id)
    return doc


def link_invite_json(
    tx: Tx, ctx: Ctx, org: dict[str, Any], invite: dict[str, Any]
) -> dict[str, Any]:
    """An organization invite link, or a content one (``level`` on a space or collection)."""
    if invite.get("space") or invite.get("collection"):
        level = invite.get("level")
        body: dict[str, Any] = {
            "object": "invite",
            "id": invite["id"],
            "level": level,
            "redundant": rank(level) <= rank(org.get("defaultRole")),
        }
        if invite.get("space"):
            space = tx.get("space", invite["space"])
            body["space"] = space_json(tx, ctx, space) if space else None
        else:
            coll = tx.get("collection", invite["collection"])
            body["collection"] = collection_json(tx, ctx, coll) if coll else None
        return body
    role = invite.get("role")
    return {
        "object": "invite",
        "id": invite["id"],
        "role": role,
        # redundant: whoever joins would get at least this role anyway (the default role)
        "redundant": rank(role) <= rank(org.get("defaultRole")),
    }


def team_spaces(tx: Tx, team_id: str) -> int:
    """How many (not deleted) spaces the team can access through its grants."""
    rows = tx.conn.execute(
        "SELECT json_extract(data, '$.targetKind'), json_extract(data, '$.target') FROM docs "
        "WHERE kind='team-grant' AND json_extract(data, '$.team')=?",
        (team_id,),
    ).fetchall()
    spaces: set[str] = set()
    for kind, target in rows:
        if kind == "space":
            space = tx.get("space", target)
            if space and not space.get("deletedAt"):
                spaces.add(space["id"])
        elif kind == "collection" and (coll := tx.get("collection", target)) is not None:
            for item in subtree(tx, coll):
                spaces.update(
                    s["id"] for s in tx.list("space", item["id"]) if not s.get("deletedAt")
                )
    return len(spaces)


def team_json(tx: Tx, ctx: Ctx, team: dict[str, Any]) -> dict[str, Any]:
    org_id = team["organization"]
    role = org_role(tx, org_id, ctx.user_id)
    members = [u for u in team.get("members", []) if member_of(tx, org_id, u) is not None]
    return {
        "object": "team",
        "id": team["id"],
        "title": team["title"],
        "members": len(members),
        "spaces": team_spaces(tx, team["id"]),
        "createdAt": team["createdAt"],
        "permissions": {"admin": role == "admin", "view": role is not None},
    }


def check_members(tx: Tx, org_id: str, members: list[str]) -> list[str]:
    unique = list(dict.fromkeys(members))
    for user_id in unique:
        if member_of(tx, org_id, user_id) is None:
            raise bad_request(f"members: '{user_id}' is not a member of this organization")
    return unique


def translation_json(tx: Tx, ctx: Ctx, item: dict[str, Any]) -> dict[str, Any]:
    org_id = item["organization"]
    role = org_role(tx, org_id, ctx.user_id)
    return {
        "object": "translation-settings",
        "id": item["id"],
        "title": item["title"],
        "languages": item.get("languages", []),
        "createdAt": item["createdAt"],
        "updatedAt": item["updatedAt"],
        "permissions": {"view": role is not None, "edit": role == "admin"},
        "urls": {"location": f"{ctx.api}/orgs/{org_id}/translations/{item['id']}"},
    }
