"""Routes for the permissions of spaces and collections (one implementation for both kinds):
user and team grants, and everyone with access.

Direct grants are stored as ``grant`` records (id ``{target}:{user}``, scope target id) and
team grants as ``team-grant`` records (id ``{target}:{team}``). A ``null`` role (a guest) is
stored as read-only access with ``guest: true``.
"""

from collections.abc import Callable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Response
from pydantic import Field

from ..core.context import Ctx, CtxDep
from ..core.errors import bad_request, not_found
from ..core.pagination import PagingParams, paginate
from ..core.permissions import collection_role, require, space_role
from ..core.resources import load_collection, load_space, user_ref
from ..core.schemas import Body, Role
from ..core.storage import Tx
from ..org_admin.views import team_json
from ..spaces.rules import put_grant

router = APIRouter(tags=["permissions"])

TargetKind = Literal["space", "collection"]


class PermissionInvite(Body):
    role: Role | None = Field(description="Role to set; null for guests (read-only access)")
    users: list[str] | None = Field(None, min_length=1)
    teams: list[str] | None = Field(None, min_length=1)


class PermissionUpdate(Body):
    """Every field is optional (as in the official description): without ``role`` the
    permission is left as it is."""

    role: Role | None = Field(None, description="Role to set; null for guests (read-only)")


def load_target(tx: Tx, ctx: Ctx, kind: TargetKind, target_id: str) -> tuple[dict[str, Any], str]:
    if kind == "space":
        return load_space(tx, ctx, target_id)
    return load_collection(tx, ctx, target_id)


def target_role(tx: Tx, kind: TargetKind, target: dict[str, Any], user_id: str) -> str | None:
    if kind == "space":
        return space_role(tx, target, user_id)
    return collection_role(tx, target, user_id)


def lineage(tx: Tx, target: dict[str, Any]) -> list[str]:
    """The target's id and the ids of the collections above it (nearest first)."""
    ids = [target["id"]]
    parent_id = target.get("parent")
    while parent_id and parent_id not in ids:
        ids.append(parent_id)
        parent = tx.get("collection", parent_id)
        parent_id = parent.get("parent") if parent else None
    return ids


def aggregate(tx: Tx, kind: TargetKind, target: dict[str, Any]) -> list[tuple[str, str]]:
    """(user id, effective role) of everyone who can access the target: every active member
    of the organization, then every guest granted on the target or a collection above it."""
    candidates: list[str] = []
    seen: set[str] = set()

    def add(user_id: str) -> None:
        if user_id not in seen:
            seen.add(user_id)
            candidates.append(user_id)

    for member in tx.list("member", target["organization"]):
        if not member.get("disabled") and member.get("role") is not None:
            add(member["user"])
    for target_id in lineage(tx, target):
        for grant in tx.list("grant", target_id):
            add(grant["user"])
    result = []
    for user_id in candidates:
        role = target_role(tx, kind, target, user_id)
        if role is not None:
            result.append((user_id, role))
    return result


def _grant(
    tx: Tx, ctx: Ctx, kind: TargetKind, target: dict[str, Any], field: str, who: str, role: Any
) -> dict[str, Any]:
    return put_grant(tx, ctx, kind, target, field, who, role)


def _entry(tx: Tx, ctx: Ctx, user_id: str, role: str) -> dict[str, Any]:
    return {"permission": role, "user": user_ref(tx, ctx, user_id)}


def _team_entry(tx: Tx, ctx: Ctx, grant: dict[str, Any]) -> dict[str, Any]:
    team = tx.get("team", grant["team"]) or {}
    return {"permission": grant["role"], "team": team_json(tx, ctx, team)}


def _register(kind: TargetKind, prefix: str, param: str) -> None:
    label = kind.capitalize()
    TargetId = Annotated[str, Path(alias=param, description=f"The unique id of the {kind}")]
    base = f"{prefix}/{{{param}}}/permissions"

    def invite(ctx: CtxDep, target_id: TargetId, body: PermissionInvite) -> Response:
        if not body.users and not body.teams:
            raise bad_request("users: give at least one user id in `users` or team id in `teams`")
        with ctx.write() as tx:
            target, role = load_target(tx, ctx, kind, target_id)
            require(role, "admin", label, target_id)
            for user_id in dict.fromkeys(body.users or []):
                if tx.get("user", user_id) is None:
                    raise not_found("User", user_id)
                _grant(tx, ctx, kind, target, "user", user_id, body.role)
            for team_id in dict.fromkeys(body.teams or []):
                team = tx.get("team", team_id)
                where = tx.position_of("team", team_id)
                if team is None or where is None or where[0] != target["organization"]:
                    raise not_found("Team", team_id)
                _grant(tx, ctx, kind, target, "team", team_id, body.role)
        return Response(status_code=204)

    def list_users(ctx: CtxDep, target_id: TargetId, paging: PagingParams) -> dict[str, Any]:
        with ctx.read() as tx:
            load_target(tx, ctx, kind, target_id)
            grants = tx.list("grant", target_id)
            return paginate(grants, paging, lambda g: _entry(tx, ctx, g["user"], g["role"]))

    def remove_user(ctx: CtxDep, target_id: TargetId, userId: str) -> Response:
        with ctx.write() as tx:
            _, role = load_target(tx, ctx, kind, target_id)
            require(role, "admin", label, target_id)
            removed = tx.delete("grant", f"{target_id}:{userId}")
        return Response(status_code=205 if removed else 204)

    def update_user(
        ctx: CtxDep, target_id: TargetId, userId: str, body: PermissionUpdate
    ) -> Response:
        with ctx.write() as tx:
            target, role = load_target(tx, ctx, kind, target_id)
            require(role, "admin", label, target_id)
            if tx.get("user", userId) is None:
                raise not_found("User", userId)
            if tx.get("grant", f"{target_id}:{userId}") is None:
                raise not_found(f"Permission of user '{userId}' on this {kind}")
            if "role" in body.model_fields_set:
                _grant(tx, ctx, kind, target, "user", userId, body.role)
        return Response(status_code=204)

    def list_teams(ctx: CtxDep, target_id: TargetId, paging: PagingParams) -> dict[str, Any]:
        with ctx.read() as tx:
            load_target(tx, ctx, kind, target_id)
            grants = [g for g in tx.list("team-grant", target_id) if tx.get("team", g["team"])]
            return paginate(grants, paging, lambda g: _team_entry(tx, ctx, g))

    def team_grant(tx: Tx, ctx: Ctx, target_id: str, teamId: str) -> dict[str, Any]:
        target, role = load_target(tx, ctx, kind, target_id)
        require(role, "admin", label, target_id)
        if tx.get("team", teamId) is None:
            raise not_found("Team", teamId)
        return target

    def update_team(
        ctx: CtxDep, target_id: TargetId, teamId: str, body: PermissionUpdate
    ) -> Response:
        with ctx.write() as tx:
            target = team_grant(tx, ctx, target_id, teamId)
            if tx.get("team-grant", f"{target_id}:{teamId}") is None:
                raise not_found(f"Permission of team '{teamId}' on this {kind}")
            if "role" in body.model_fields_set:
                _grant(tx, ctx, kind, target, "team", teamId, body.role)
        return Response(status_code=204)

    def remove_team(ctx: CtxDep, target_id: TargetId, teamId: str) -> Response:
        with ctx.write() as tx:
            team_grant(tx, ctx, target_id, teamId)
            removed = tx.delete("team-grant", f"{target_id}:{teamId}")
        return Response(status_code=205 if removed else 204)

    def list_aggregate(
        ctx: CtxDep,
        target_id: TargetId,
        paging: PagingParams,
        role: Annotated[Role | None, Query(description="Only users with this role")] = None,
    ) -> dict[str, Any]:
        with ctx.read() as tx:
            target, _ = load_target(tx, ctx, kind, target_id)
            entries = [e for e in aggregate(tx, kind, target) if role is None or e[1] == role]
            return paginate(entries, paging, lambda e: _entry(tx, ctx, e[0], e[1]))

    routes: list[tuple[str, str, Callable[..., Any], str, int | None]] = [
        ("POST", "", invite, f"inviteTo{label}", 204),
        ("GET", "/users", list_users, f"listUserPermissionsIn{label}", None),
        ("DELETE", "/users/{userId}", remove_user, f"removeUserFrom{label}", 205),
        ("PATCH", "/users/{userId}", update_user, f"updateUserPermissionIn{label}", 204),
        ("GET", "/aggregate", list_aggregate, f"listPermissionsAggregateIn{label}", None),
        ("GET", "/teams", list_teams, f"listTeamPermissionsIn{label}", None),
        ("PATCH", "/teams/{teamId}", update_team, f"updateTeamPermissionIn{label}", 204),
        ("DELETE", "/teams/{teamId}", remove_team, f"removeTeamFrom{label}", 205),
    ]
    for method, suffix, endpoint, operation_id, status in routes:
        extra: dict[str, Any] = {}
        if status is not None:
            extra = {"status_code": status, "response_class": Response}
        router.add_api_route(
            base + suffix,
            endpoint,
            methods=[method],
            name=operation_id,
            operation_id=operation_id,
            **extra,
        )


_register("space", "/spaces", "spaceId")
_register("collection", "/collections", "collectionId")
