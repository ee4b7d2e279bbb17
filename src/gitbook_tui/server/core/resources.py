"""Shared renderers: stored records of users, organizations, collections and spaces as API JSON."""

from __future__ import annotations

from typing import Any

from .context import Ctx
from .errors import not_found
from .merge_rules import org_merge_rules, space_merge_rules
from .permissions import at_least, collection_role, org_role, space_role
from .shapes import omit_none
from .storage import Tx

# Stored organization fields rendered as they are (absent ones omitted).
_ORG_FIELDS = (
    "id", "title", "createdAt", "emailDomains", "hostname", "type", "useCase", "communityType",
    "defaultRole", "defaultContent", "sso", "ai", "inviteLinks", "auditLogs", "plan", "billing",
    "customHostname",
)  # fmt: skip
# A local workspace has no billing: no trial can be started.
NO_TRIAL = {"status": "notapplicable", "count": 0}


def user_json(ctx: Ctx, user: dict[str, Any]) -> dict[str, Any]:
    return omit_none(
        {
            "object": "user",
            "id": user["id"],
            "displayName": user.get("displayName", ""),
            "email": user.get("email", ""),
            "photoURL": user.get("photoURL") or None,
            "urls": {"location": f"{ctx.api}/users/{user['id']}"},
        }
    )


def user_ref(tx: Tx, ctx: Ctx, user_id: str) -> dict[str, Any]:
    user = tx.get("user", user_id) or {"id": user_id, "displayName": "Unknown user", "email": ""}
    return user_json(ctx, user)


def member_json(tx: Tx, ctx: Ctx, member: dict[str, Any]) -> dict[str, Any]:
    org_id, user_id = member["organization"], member["user"]
    spaces = tx.conn.execute(
        "SELECT COUNT(*) FROM docs WHERE kind='grant' AND json_extract(data, '$.user')=? "
        "AND json_extract(data, '$.targetKind')='space' AND json_extract(data, '$.organization')=?",
        (user_id, org_id),
    ).fetchone()[0]
    teams = sum(1 for t in tx.list("team", org_id) if user_id in t.get("members", []))
    sites = tx.count("site", org_id) if member.get("role") is not None else 0
    body = {
        "object": "member",
        "id": user_id,
        "role": member.get("role"),
        "user": user_ref(tx, ctx, user_id),
        "disabled": bool(member.get("disabled", False)),
        "joinedAt": member.get("joinedAt"),
        "lastSeenAt": member.get("lastSeenAt") or member.get("joinedAt"),
        "sso": bool(member.get("sso", False)),
        "spaces": spaces,
        "teams": teams,
        "sites": sites,
    }
    if member.get("pending"):
        del body["lastSeenAt"]  # invited by email, not joined yet: never seen
    return body


def org_json(tx: Tx, ctx: Ctx, org: dict[str, Any]) -> dict[str, Any]:
    role = org_role(tx, org["id"], ctx.user_id)
    admin = role == "admin"
    member = role is not None
    body: dict[str, Any] = {"object": "organization"}
    body.update(omit_none({k: org.get(k) for k in _ORG_FIELDS}))
    body["emailDomains"] = list(org.get("emailDomains") or [])
    body["inviteLinks"] = bool(org.get("inviteLinks", True))
    body["plan"] = org.get("plan") or "free"
    body["type"] = org.get("type") or "business"
    body["trial"] = org.get("trial") or NO_TRIAL
    body["mergeRules"] = org_merge_rules(org)
    body["urls"] = omit_none(
        {
            "location": f"{ctx.api}/orgs/{org['id']}",
            "app": f"{ctx.app}/o/{org['id']}",
            "logo": org.get("logo"),
        }
    )
    body["permissions"] = {
        "view": member,
        "access": member,
        "admin": admin,
        "ownTeam": at_least(role, "create"),
        "createContent": at_least(role, "create"),
        "createOpenAPISpec": at_least(role, "create"),
        "ingestConversations": admin,
        "viewBilling": admin,
        "listMembers": member,
        "listTeams": member,
        "listIntegrations": member,
        "listInstallations": admin,
        "installIntegration": admin,
    }
    return body


def collection_json(tx: Tx, ctx: Ctx, coll: dict[str, Any]) -> dict[str, Any]:
    role = collection_role(tx, coll, ctx.user_id)
    body: dict[str, Any] = {
        "object": "collection",
        "id": coll["id"],
        "title": coll["title"],
        "organization": coll["organization"],
        "defaultLevel": coll.get("defaultLevel"),
        "urls": {
            "location": f"{ctx.api}/collections/{coll['id']}",
            "app": f"{ctx.app}/o/{coll['organization']}/c/{coll['id']}",
        },
        "permissions": {
            "view": role is not None,
            "admin": at_least(role, "admin"),
            "viewInviteLinks": at_least(role, "admin"),
            "create": at_least(role, "create"),
        },
    }
    if coll.get("description") is not None:
        body["description"] = coll["description"]
    if coll.get("parent"):
        body["parent"] = coll["parent"]
    return body


_SPACE_FIELDS = ("title", "emoji", "visibility", "createdAt", "updatedAt", "organization")


def space_counts(tx: Tx, space_id: str) -> dict[str, int]:
    rows = tx.conn.execute(
        "SELECT json_extract(data, '$.status'), COUNT(*) FROM docs "
        "WHERE kind='change-request' AND scope=? GROUP BY 1",
        (space_id,),
    ).fetchall()
    by_status = {row[0]: row[1] for row in rows}
    open_comments = tx.conn.execute(
        "SELECT COUNT(*) FROM docs WHERE kind='comment' AND scope=? "
        "AND json_extract(data, '$.status') <> 'resolved'",
        (f"space:{space_id}",),
    ).fetchone()[0]
    return {
        "comments": int(open_comments),
        "changeRequests": sum(by_status.values()),
        "changeRequestsOpen": by_status.get("open", 0),
        "changeRequestsDraft": by_status.get("draft", 0),
    }


def space_json(tx: Tx, ctx: Ctx, space: dict[str, Any]) -> dict[str, Any]:
    role = space_role(tx, space, ctx.user_id)
    locked = space.get("editMode") == "locked"
    org = tx.get("org", space["organization"]) or {}
    body: dict[str, Any] = {"object": "space", "id": space["id"]}
    body.update({k: space.get(k) for k in _SPACE_FIELDS})
    body["emoji"] = space.get("emoji") or ""
    body["editMode"] = space.get("editMode", "live")
    body["mergeRules"] = space_merge_rules(space)
    body["revision"] = space["revision"]
    body["defaultLevel"] = space.get("defaultLevel")
    if space.get("parent"):
        body["parent"] = space["parent"]
    if space.get("deletedAt"):
        body["deletedAt"] = space["deletedAt"]
    if space.get("gitSync"):
        body["gitSync"] = space["gitSync"]
    if space.get("visitorAuth"):
        body["visitorAuth"] = space["visitorAuth"]
    urls = {
        "location": f"{ctx.api}/spaces/{space['id']}",
        "app": f"{ctx.app}/s/{space['id']}",
    }
    if space.get("visibility") in ("public", "unlisted", "share-link", "visitor-auth"):
        host = org.get("hostname") or "docs"
        urls["published"] = f"https://{host}.gitbook.io/{space['id']}/"
    if space.get("visibility") == "public":
        urls["public"] = f"{ctx.origin}/public/s/{space['id']}"
    body["urls"] = urls
    body.update(space_counts(tx, space["id"]))
    body["permissions"] = {
        "view": role is not None,
        "access": role is not None,
        "admin": at_least(role, "admin"),
        "viewInviteLinks": at_least(role, "admin"),
        "edit": at_least(role, "edit") and not locked,
        "triggerGitSync": at_least(role, "edit") and bool(space.get("gitSync")),
        "comment": at_least(role, "comment"),
        "merge": at_least(role, "edit") and not locked,
        "review": at_least(role, "review"),
        "installIntegration": at_least(role, "admin"),
    }
    return body


def load_org(tx: Tx, ctx: Ctx, org_id: str) -> dict[str, Any]:
    """The organization, if the caller is a member of it (404 otherwise)."""
    org = tx.get("org", org_id)
    if org is None or org_role(tx, org_id, ctx.user_id) is None:
        raise not_found("Organization", org_id)
    return org


def load_collection(tx: Tx, ctx: Ctx, collection_id: str) -> tuple[dict[str, Any], str]:
    coll = tx.get("collection", collection_id)
    role = collection_role(tx, coll, ctx.user_id) if coll else None
    if coll is None or role is None:
        raise not_found("Collection", collection_id)
    return coll, role


def load_space(
    tx: Tx, ctx: Ctx, space_id: str, *, include_deleted: bool = False
) -> tuple[dict[str, Any], str]:
    """The space and the caller's role on it; deleted spaces are 404 unless asked for."""
    space = tx.get("space", space_id)
    role = space_role(tx, space, ctx.user_id) if space else None
    if space is None or role is None or (space.get("deletedAt") and not include_deleted):
        raise not_found("Space", space_id)
    return space, role


def load_change_request(
    tx: Tx, ctx: Ctx, space: dict[str, Any], change_request_id: str
) -> dict[str, Any]:
    """A change request of ``space`` by id or by its number in the space."""
    cr = tx.get("change-request", change_request_id)
    if cr is None or cr.get("space") != space["id"]:
        cr = None
        if change_request_id.isdigit():
            number = int(change_request_id)
            cr = next(
                (c for c in tx.list("change-request", space["id"]) if c.get("number") == number),
                None,
            )
    if cr is None:
        raise not_found("Change request", change_request_id)
    return cr
