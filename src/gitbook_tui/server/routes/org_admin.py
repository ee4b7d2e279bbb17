"""Routes for organization administration: email invites, link invites, teams, translations."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Response

from ..bootstrap import add_member, create_user
from ..core.checks import deletable
from ..core.context import CtxDep
from ..core.errors import bad_request, forbidden, not_found
from ..core.pagination import PagingParams, paginate
from ..core.permissions import member_of, org_role
from ..core.resources import load_collection, load_org, load_space
from ..core.storage import Tx
from ..org_admin.schemas import (
    InviteUsers,
    LinkInviteBody,
    LinkInviteUpdate,
    TeamCreate,
    TeamUpdate,
    TranslationBody,
)
from ..org_admin.views import (
    admin_org,
    check_members,
    in_org,
    link_invite_json,
    team_json,
    translation_json,
)
from ..spaces.rules import put_grant

router = APIRouter(tags=["organization admin"])


# -- email invites ----------------------------------------------------------------------


@router.post("/orgs/{organizationId}/invites")
def invite_users(ctx: CtxDep, organizationId: str, body: InviteUsers) -> dict[str, Any]:
    """Adds the emails as (pending) members; unknown emails get a new user."""
    with ctx.write() as tx:
        org = admin_org(tx, ctx, organizationId, "invite members")
        default = body.role if "role" in body.model_fields_set else org.get("defaultRole", "read")
        users_by_email = {u.get("email", "").lower(): u for u in tx.list("user")}
        added: list[str] = []
        failed_sso: list[str] = []
        seen: set[str] = set()
        for item in body.emails:
            email, role = (item, default) if isinstance(item, str) else (item.email, item.role)
            key = email.lower()
            if key in seen:
                continue
            seen.add(key)
            user = users_by_email.get(key)
            if user is None:
                name = email.split("@", 1)[0]
                user = create_user(tx, ctx.storage, ctx.state.clock, name, email, pending=True)
                users_by_email[key] = user
            if tx.get("member", f"{organizationId}:{user['id']}") is not None:
                continue  # already in the organization
            sso = body.sso and bool(org.get("sso"))
            if body.sso and not sso:
                failed_sso.append(email)
            add_member(
                tx,
                ctx.state.clock,
                organizationId,
                user["id"],
                role,
                sso=sso,
                pending=True,
                invitedBy=ctx.user_id,
            )
            invite_id = ctx.new_id()
            invite = {
                "id": invite_id,
                "organization": organizationId,
                "email": email,
                "user": user["id"],
                "role": role,
                "sso": sso,
                "createdAt": ctx.now(),
                "createdBy": ctx.user_id,
            }
            tx.put("invite", invite_id, invite, scope=organizationId)
            added.append(user["id"])
        return {"users": added, "invited": len(added), "failedSSOEmails": failed_sso}


@router.post("/orgs/{organizationId}/invites/{inviteId}")
def join_with_invite(ctx: CtxDep, organizationId: str, inviteId: str) -> dict[str, Any]:
    """The caller joins the organization with a link invite or accepts their email invite."""
    with ctx.write() as tx:
        org = tx.get("org", organizationId)
        if org is None:
            raise not_found("Organization", organizationId)
        key = f"{organizationId}:{ctx.user_id}"
        member = tx.get("member", key)
        link = tx.get("link-invite", inviteId)
        invite = tx.get("invite", inviteId)
        if link is not None and link.get("organization") == organizationId:
            if not org.get("inviteLinks", True):
                raise forbidden("Invite links are disabled in this organization.")
            role = link.get("role")
            content = _invite_target(tx, link)
            if content is not None:
                # joining through a content invite: a guest of the organization with
                # `level` on the space or collection
                role = None
                put_grant(tx, ctx, content[0], content[1], "user", ctx.user_id, link.get("level"))
        elif (
            invite is not None
            and invite.get("organization") == organizationId
            and invite.get("user") == ctx.user_id
        ):
            role = invite.get("role")
            tx.delete("invite", inviteId)
        else:
            raise not_found("Invite", inviteId)
        if member is None:
            add_member(tx, ctx.state.clock, organizationId, ctx.user_id, role, joinedVia=inviteId)
        elif member.get("disabled"):
            raise forbidden("Your membership of this organization is disabled.")
        elif member.get("pending"):
            member["pending"] = False
            member["joinedAt"] = ctx.now()
            tx.put("member", key, member)
        return {}


def _invite_target(tx: Tx, link: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """(kind, record) of a content invite's space or collection (None for org invites)."""
    for kind in ("space", "collection"):
        if link.get(kind):
            record = tx.get(kind, link[kind])
            if record is None or record.get("deletedAt"):
                raise not_found(kind.capitalize(), link[kind])
            return kind, record
    return None


# -- link invites -----------------------------------------------------------------------


@router.get("/orgs/{organizationId}/link-invites")
def list_link_invites(ctx: CtxDep, organizationId: str, paging: PagingParams) -> dict[str, Any]:
    with ctx.read() as tx:
        org = admin_org(tx, ctx, organizationId, "see invite links")
        invites = tx.list("link-invite", organizationId)
        return paginate(invites, paging, lambda i: link_invite_json(tx, ctx, org, i))


@router.post("/orgs/{organizationId}/link-invites", status_code=201)
def create_link_invite(ctx: CtxDep, organizationId: str, body: LinkInviteBody) -> dict[str, Any]:
    with ctx.write() as tx:
        org = admin_org(tx, ctx, organizationId, "create invite links")
        now = ctx.now()
        invite: dict[str, Any] = {
            "id": ctx.new_id(),
            "organization": organizationId,
            "createdAt": now,
            "updatedAt": now,
            "createdBy": ctx.user_id,
        }
        if body.space is not None or body.collection is not None:
            # a content invite: whoever joins gets `level` on that space or collection
            if body.space is not None:
                target, _ = load_space(tx, ctx, body.space)
                invite["space"] = target["id"]
            else:
                target, _ = load_collection(tx, ctx, body.collection)  # type: ignore[arg-type]
                invite["collection"] = target["id"]
            if target["organization"] != organizationId:
                raise bad_request("space: it belongs to another organization")
            invite["level"] = body.level
        else:
            invite["role"] = body.role
        tx.put("link-invite", invite["id"], invite, scope=organizationId)
        return link_invite_json(tx, ctx, org, invite)


@router.get("/orgs/{organizationId}/link-invites/{inviteId}")
def get_link_invite(ctx: CtxDep, organizationId: str, inviteId: str) -> dict[str, Any]:
    with ctx.read() as tx:
        org = admin_org(tx, ctx, organizationId, "see invite links")
        invite = in_org(tx, "link-invite", inviteId, organizationId, "Invite")
        return link_invite_json(tx, ctx, org, invite)


@router.patch("/orgs/{organizationId}/link-invites/{inviteId}")
def update_link_invite(
    ctx: CtxDep, organizationId: str, inviteId: str, body: LinkInviteUpdate
) -> dict[str, Any]:
    with ctx.write() as tx:
        org = admin_org(tx, ctx, organizationId, "change invite links")
        invite = in_org(tx, "link-invite", inviteId, organizationId, "Invite")
        content = bool(invite.get("space") or invite.get("collection"))
        if content != ("level" in body.model_fields_set):
            raise bad_request(
                "level: a content invite changes its level"
                if content
                else "role: an organization invite changes its role"
            )
        invite["level" if content else "role"] = body.level if content else body.role
        invite["updatedAt"] = ctx.now()
        tx.put("link-invite", inviteId, invite)
        return link_invite_json(tx, ctx, org, invite)


@router.delete(
    "/orgs/{organizationId}/link-invites/{inviteId}", status_code=205, response_class=Response
)
def delete_link_invite(ctx: CtxDep, organizationId: str, inviteId: str) -> Response:
    """205 when deleted, 204 when there was no such invite (as the real service answers)."""
    with ctx.write() as tx:
        admin_org(tx, ctx, organizationId, "delete invite links")
        removed = deletable(tx, "link-invite", inviteId, organizationId, "Invite")
        if removed:
            tx.delete("link-invite", inviteId)
    return Response(status_code=205 if removed else 204)


# -- teams ------------------------------------------------------------------------------


@router.get("/orgs/{organizationId}/teams")
def list_teams(
    ctx: CtxDep,
    organizationId: str,
    paging: PagingParams,
    owner: Annotated[
        str | None, Query(description="A member id: only the teams this member can manage")
    ] = None,
    title: Annotated[
        str | None, Query(max_length=512, description="Title contains (case insensitive)")
    ] = None,
) -> dict[str, Any]:
    with ctx.read() as tx:
        load_org(tx, ctx, organizationId)
        teams = tx.list("team", organizationId)
        if owner is not None:
            if member_of(tx, organizationId, owner) is None:
                raise bad_request(f"owner: '{owner}' is not a member of this organization")
            # only organization admins manage teams
            if org_role(tx, organizationId, owner) != "admin":
                teams = []
        if title:
            needle = title.lower()
            teams = [t for t in teams if needle in t["title"].lower()]
        return paginate(teams, paging, lambda t: team_json(tx, ctx, t))


@router.put("/orgs/{organizationId}/teams", status_code=201)
def create_team(ctx: CtxDep, organizationId: str, body: TeamCreate) -> dict[str, Any]:
    with ctx.write() as tx:
        admin_org(tx, ctx, organizationId, "create teams")
        team: dict[str, Any] = {
            "id": ctx.new_id(),
            "organization": organizationId,
            "title": body.title,
            "members": check_members(tx, organizationId, body.members),
            "createdAt": ctx.now(),
            "createdBy": ctx.user_id,
        }
        tx.put("team", team["id"], team, scope=organizationId)
        return team_json(tx, ctx, team)


@router.get("/orgs/{organizationId}/teams/{teamId}")
def get_team(ctx: CtxDep, organizationId: str, teamId: str) -> dict[str, Any]:
    with ctx.read() as tx:
        load_org(tx, ctx, organizationId)
        return team_json(tx, ctx, in_org(tx, "team", teamId, organizationId, "Team"))


@router.patch("/orgs/{organizationId}/teams/{teamId}")
def update_team(ctx: CtxDep, organizationId: str, teamId: str, body: TeamUpdate) -> dict[str, Any]:
    with ctx.write() as tx:
        admin_org(tx, ctx, organizationId, "change teams")
        team = in_org(tx, "team", teamId, organizationId, "Team")
        team["title"] = body.title
        tx.put("team", teamId, team)
        return team_json(tx, ctx, team)


@router.delete("/orgs/{organizationId}/teams/{teamId}", status_code=205, response_class=Response)
def delete_team(ctx: CtxDep, organizationId: str, teamId: str) -> Response:
    """205 when deleted (with the team's grants), 204 when there was no such team."""
    with ctx.write() as tx:
        admin_org(tx, ctx, organizationId, "delete teams")
        if not deletable(tx, "team", teamId, organizationId, "Team"):
            return Response(status_code=204)
        tx.conn.execute(
            "DELETE FROM docs WHERE kind='team-grant' AND json_extract(data, '$.team')=?",
            (teamId,),
        )
        tx.delete("team", teamId)
    return Response(status_code=205)


# -- translations -----------------------------------------------------------------------


@router.get("/orgs/{organizationId}/translations")
def list_translations(ctx: CtxDep, organizationId: str, paging: PagingParams) -> dict[str, Any]:
    with ctx.read() as tx:
        load_org(tx, ctx, organizationId)
        items = tx.list("translation", organizationId)
        return paginate(items, paging, lambda t: translation_json(tx, ctx, t))


@router.post("/orgs/{organizationId}/translations", status_code=201)
def create_translation(ctx: CtxDep, organizationId: str, body: TranslationBody) -> dict[str, Any]:
    with ctx.write() as tx:
        admin_org(tx, ctx, organizationId, "create translations")
        now = ctx.now()
        item: dict[str, Any] = {
            "id": ctx.new_id(),
            "organization": organizationId,
            "title": body.title,
            "languages": list(dict.fromkeys(body.languages)),
            "createdAt": now,
            "updatedAt": now,
            "createdBy": ctx.user_id,
        }
        tx.put("translation", item["id"], item, scope=organizationId)
        return translation_json(tx, ctx, item)


@router.get("/orgs/{organizationId}/translations/{translationSettingsId}")
def get_translation(ctx: CtxDep, organizationId: str, translationSettingsId: str) -> dict[str, Any]:
    with ctx.read() as tx:
        load_org(tx, ctx, organizationId)
        item = in_org(tx, "translation", translationSettingsId, organizationId, "Translation")
        return translation_json(tx, ctx, item)


@router.put("/orgs/{organizationId}/translations/{translationSettingsId}")
def replace_translation(
    ctx: CtxDep, organizationId: str, translationSettingsId: str, body: TranslationBody
) -> dict[str, Any]:
    with ctx.write() as tx:
        admin_org(tx, ctx, organizationId, "change translations")
        item = in_org(tx, "translation", translationSettingsId, organizationId, "Translation")
        item["title"] = body.title
        item["languages"] = list(dict.fromkeys(body.languages))
        item["updatedAt"] = ctx.now()
        tx.put("translation", translationSettingsId, item)
        return translation_json(tx, ctx, item)


@router.delete(
    "/orgs/{organizationId}/translations/{translationSettingsId}",
    status_code=205,
    response_class=Response,
)
def delete_translation(ctx: CtxDep, organizationId: str, translationSettingsId: str) -> Response:
    """205 when deleted, 204 when there was no such translation (as the real service answers)."""
    with ctx.write() as tx:
        admin_org(tx, ctx, organizationId, "delete translations")
        removed = deletable(tx, "translation", translationSettingsId, organizationId, "Translation")
        if removed:
            tx.delete("translation", translationSettingsId)
    return Response(status_code=205 if removed else 204)
