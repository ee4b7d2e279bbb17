"""Routes for organization members and team membership: change a member's role, remove a
member, the spaces a member can reach, and a team's members (list, add, remove)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response
from pydantic import Field

from ..core.context import Ctx, CtxDep
from ..core.errors import bad_request, not_found
from ..core.pagination import PagingParams, paginate
from ..core.permissions import member_of, org_role, space_role
from ..core.resources import load_org, member_json, space_json
from ..core.schemas import Body, Role
from ..core.storage import Tx
from ..integrations.views import org_spaces
from ..org_admin.views import admin_org, in_org

router = APIRouter(tags=["organization members"])


class MemberUpdate(Body):
    role: Role | None = Field(description="The member's new role; null makes them a guest")


class TeamMembersUpdate(Body):
    """``add`` and ``remove`` take user ids or emails (the official form); ``memberships``
    (team roles) is accepted and ignored: the local server has no team owners."""

    add: list[str] = Field(default_factory=list, max_length=1000)
    remove: list[str] = Field(default_factory=list, max_length=1000)
    memberships: dict[str, Any] | None = None


def _member(tx: Tx, org_id: str, user_id: str) -> dict[str, Any]:
    member = tx.get("member", f"{org_id}:{user_id}")
    if member is None:
        raise not_found("Member", user_id)
    return member


def _admins(tx: Tx, org_id: str) -> list[str]:
    return [
        m["user"]
        for m in tx.list("member", org_id)
        if m.get("role") == "admin" and not m.get("disabled")
    ]


def _keep_an_admin(tx: Tx, org_id: str, user_id: str) -> None:
    """An organization keeps at least one admin (else nobody could administrate it)."""
    if _admins(tx, org_id) == [user_id]:
        raise bad_request("role: this is the organization's last admin; make another admin first")


@router.get("/orgs/{organizationId}/members/{userId}")
def get_member(ctx: CtxDep, organizationId: str, userId: str) -> dict[str, Any]:
    with ctx.read() as tx:
        load_org(tx, ctx, organizationId)
        return member_json(tx, ctx, _member(tx, organizationId, userId))


@router.patch("/orgs/{organizationId}/members/{userId}")
def update_member(
    ctx: CtxDep, organizationId: str, userId: str, body: MemberUpdate
) -> dict[str, Any]:
    with ctx.write() as tx:
        admin_org(tx, ctx, organizationId, "change members' roles")
        member = _member(tx, organizationId, userId)
        if member.get("role") == "admin" and body.role != "admin":
            _keep_an_admin(tx, organizationId, userId)
        member["role"] = body.role
        tx.put("member", f"{organizationId}:{userId}", member)
        return member_json(tx, ctx, member)


@router.delete("/orgs/{organizationId}/members/{userId}", status_code=205, response_class=Response)
def remove_member(ctx: CtxDep, organizationId: str, userId: str) -> Response:
    """205 when removed (with their direct grants and team memberships), 204 when the user
    was not a member (as the real service answers)."""
    with ctx.write() as tx:
        admin_org(tx, ctx, organizationId, "remove members")
        member = tx.get("member", f"{organizationId}:{userId}")
        if member is None:
            return Response(status_code=204)
        if member.get("role") == "admin":
            _keep_an_admin(tx, organizationId, userId)
        tx.conn.execute(
            "DELETE FROM docs WHERE kind='grant' AND json_extract(data, '$.user')=? "
            "AND json_extract(data, '$.organization')=?",
            (userId, organizationId),
        )
        for team in tx.list("team", organizationId):
            if userId in team.get("members", []):
                team["members"] = [u for u in team["members"] if u != userId]
                tx.put("team", team["id"], team)
        tx.delete("member", f"{organizationId}:{userId}")
    return Response(status_code=205)


@router.get("/orgs/{organizationId}/members/{userId}/spaces")
def list_member_spaces(
    ctx: CtxDep, organizationId: str, userId: str, paging: PagingParams
) -> dict[str, Any]:
    """Every space of the organization the member can reach, with their effective role
    (spaces open to anyone are left out: a member loses nothing there)."""
    with ctx.read() as tx:
        load_org(tx, ctx, organizationId)
        _member(tx, organizationId, userId)
        if userId != ctx.user_id and org_role(tx, organizationId, ctx.user_id) != "admin":
            admin_org(tx, ctx, organizationId, "see another member's spaces")
        found: list[tuple[dict[str, Any], str]] = []
        for space in org_spaces(tx, organizationId):
            role = space_role(tx, space, userId)
            public = space.get("visibility") in ("public", "unlisted") and role == "read"
            if role is not None and not public:
                found.append((space, role))
        return paginate(
            found, paging, lambda p: {"permission": p[1], "space": space_json(tx, ctx, p[0])}
        )


def _team_member_json(tx: Tx, ctx: Ctx, org_id: str, user_id: str) -> dict[str, Any]:
    member = _member(tx, org_id, user_id)
    return {
        "organization": member_json(tx, ctx, member),
        "team": {"role": "member"},
        "permissions": {"view": True},
    }


@router.get("/orgs/{organizationId}/teams/{teamId}/members")
def list_team_members(
    ctx: CtxDep, organizationId: str, teamId: str, paging: PagingParams
) -> dict[str, Any]:
    with ctx.read() as tx:
        load_org(tx, ctx, organizationId)
        team = in_org(tx, "team", teamId, organizationId, "Team")
        users = [u for u in team.get("members", []) if member_of(tx, organizationId, u)]
        return paginate(users, paging, lambda u: _team_member_json(tx, ctx, organizationId, u))


def _find_user(tx: Tx, org_id: str, who: str) -> str | None:
    """The user id of the organization member ``who`` names (a user id or an email)."""
    if "@" not in who:
        return who if member_of(tx, org_id, who) is not None else None
    needle = who.lower()
    for member in tx.list("member", org_id):
        user = tx.get("user", member["user"]) or {}
        if str(user.get("email", "")).lower() == needle:
            return str(member["user"])
    return None


@router.put(
    "/orgs/{organizationId}/teams/{teamId}/members", status_code=204, response_class=Response
)
def update_team_members(
    ctx: CtxDep, organizationId: str, teamId: str, body: TeamMembersUpdate
) -> Response:
    with ctx.write() as tx:
        admin_org(tx, ctx, organizationId, "change teams' members")
        team = in_org(tx, "team", teamId, organizationId, "Team")
        members = list(team.get("members", []))
        for who in body.add:
            user_id = _find_user(tx, organizationId, who)
            if user_id is None:
                raise bad_request(f"add: '{who}' is not a member of this organization")
            if user_id not in members:
                members.append(user_id)
        # removing someone who is not there changes nothing
        removed = {_find_user(tx, organizationId, who) for who in body.remove}
        team["members"] = [u for u in members if u not in removed]
        tx.put("team", teamId, team)
    return Response(status_code=204)
