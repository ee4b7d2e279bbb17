"""Routes for the current user and organization members."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from ..core.context import CtxDep
from ..core.errors import not_found
from ..core.pagination import PagingParams, paginate
from ..core.resources import load_org, member_json, user_json

router = APIRouter(tags=["users"])


@router.get("/user")
def get_current_user(ctx: CtxDep) -> dict[str, Any]:
    return user_json(ctx, ctx.caller)


@router.get("/users/{userId}")
def get_user(ctx: CtxDep, userId: str) -> dict[str, Any]:
    with ctx.read() as tx:
        user = tx.get("user", userId)
    if user is None:
        raise not_found("User", userId)
    return user_json(ctx, user)


@router.get("/orgs/{organizationId}/members")
def list_members(
    ctx: CtxDep,
    organizationId: str,
    paging: PagingParams,
    role: Annotated[str | None, Query(description="Only members with this role")] = None,
    search: Annotated[str | None, Query(max_length=512)] = None,
) -> dict[str, Any]:
    with ctx.read() as tx:
        load_org(tx, ctx, organizationId)
        members = [
            m for m in tx.list("member", organizationId) if role is None or m.get("role") == role
        ]
        if search:
            needle = search.lower()
            users = {m["user"]: tx.get("user", m["user"]) or {} for m in members}
            members = [
                m
                for m in members
                if needle in users[m["user"]].get("displayName", "").lower()
                or needle in users[m["user"]].get("email", "").lower()
            ]
        return paginate(members, paging, lambda m: member_json(tx, ctx, m))
