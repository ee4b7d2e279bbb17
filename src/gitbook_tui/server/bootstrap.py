"""Creating the records no API operation creates: users, organizations, memberships, tokens."""

from __future__ import annotations

import secrets
from typing import Any

from .core.clock import Clock, iso
from .core.context import issue_token
from .core.storage import Storage, Tx


def create_user(
    tx: Tx, storage: Storage, clock: Clock, display_name: str, email: str, **extra: Any
) -> dict[str, Any]:
    user = {
        "id": storage.new_id(),
        "displayName": display_name,
        "email": email,
        "photoURL": extra.pop("photoURL", None),
        "createdAt": iso(clock.now()),
        **extra,
    }
    tx.put("user", user["id"], user)
    return user


def create_org(
    tx: Tx, storage: Storage, clock: Clock, title: str, *, hostname: str | None = None, **extra: Any
) -> dict[str, Any]:
    org_id = storage.new_id()
    org = {
        "id": org_id,
        "title": title,
        "createdAt": iso(clock.now()),
        "emailDomains": extra.pop("emailDomains", []),
        "hostname": hostname or org_id.lower(),
        "type": "business",
        "useCase": "productDocs",
        "communityType": None,
        "defaultRole": extra.pop("defaultRole", "read"),
        "defaultContent": None,
        "sso": False,
        "ai": True,
        "inviteLinks": True,
        "plan": "free",
        "billing": None,
        "trial": None,
        "customHostname": None,
        **extra,
    }
    tx.put("org", org_id, org)
    return org


def add_member(
    tx: Tx, clock: Clock, org_id: str, user_id: str, role: str | None, **extra: Any
) -> dict[str, Any]:
    member = {
        "organization": org_id,
        "user": user_id,
        "role": role,
        "disabled": False,
        "joinedAt": iso(clock.now()),
        "lastSeenAt": None,
        "sso": False,
        **extra,
    }
    tx.put("member", f"{org_id}:{user_id}", member, scope=org_id)
    return member


def ensure_owner_record(tx: Tx, storage: Storage, clock: Clock) -> str:
    """The database owner's user id, creating the owner and their organization if missing."""
    owner_id = tx.meta("owner")
    if owner_id is None:
        owner = create_user(tx, storage, clock, "Local Admin", "admin@localhost")
        org = create_org(tx, storage, clock, "My Workspace", hostname="my-workspace")
        add_member(tx, clock, org["id"], owner["id"], "admin")
        owner_id = owner["id"]
        tx.set_meta("owner", owner_id)
    return owner_id


def ensure_owner(storage: Storage, clock: Clock, token: str | None = None) -> str:
    """Make sure the database has an owner with an organization; give them ``token``.

    Returns the token that now works for the owner (a new random one if none was given).
    """
    token = token or new_token()
    with storage.transaction() as tx:
        issue_token(tx, ensure_owner_record(tx, storage, clock), token)
    return token


def new_token() -> str:
    return "gbt_" + secrets.token_urlsafe(24)
