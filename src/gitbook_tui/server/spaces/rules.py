"""Rules shared by spaces and collections: new spaces, placement, default levels, transfers."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

from ..content.store import create_revision
from ..core.context import Ctx
from ..core.errors import bad_request, conflict, forbidden, not_found
from ..core.permissions import collection_role, org_role
from ..core.schemas import Position, PositionTarget
from ..core.storage import Tx

RESTORE_WINDOW = timedelta(days=7)


def root_scope(org_id: str) -> str:
    return f"org:{org_id}"


def new_space(
    tx: Tx,
    ctx: Ctx,
    *,
    org_id: str,
    title: str,
    emoji: str | None = None,
    visibility: str = "private",
    parent: str | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """Store a new space with an initial empty revision."""
    space_id, revision_id, now = ctx.new_id(), ctx.new_id(), ctx.now()
    create_revision(
        tx,
        revision_id=revision_id,
        space_id=space_id,
        parents=[],
        pages=[],
        files=[],
        type="initial",
        created_at=now,
        created_by=ctx.user_id,
    )
    space = {
        "id": space_id,
        "title": title,
        "emoji": emoji or "",
        "visibility": visibility,
        "createdAt": now,
        "updatedAt": now,
        "editMode": "live",
        "organization": org_id,
        "parent": parent,
        "revision": revision_id,
        "defaultLevel": None,
        **extra,
    }
    tx.put("space", space_id, space, scope=parent or root_scope(org_id))
    return space


def default_level(value: str | None) -> str | None:
    """``inherit`` and ``null`` both mean: no level of its own, inherit from the parent."""
    return None if value == "inherit" else value


def destination_role(tx: Tx, ctx: Ctx, org_id: str, parent: dict[str, Any] | None) -> str | None:
    """The caller's role where an item would land: a collection, else the organization root."""
    if parent is not None:
        return collection_role(tx, parent, ctx.user_id)
    return org_role(tx, org_id, ctx.user_id)


def resolve_parent(
    tx: Tx, ctx: Ctx, org_id: str, parent_id: str | None, field: str = "parent"
) -> dict[str, Any] | None:
    """The collection named by a ``parent`` field (400 naming the field when unusable)."""
    if parent_id is None:
        return None
    coll = tx.get("collection", parent_id)
    if coll is None or collection_role(tx, coll, ctx.user_id) is None:
        raise bad_request(f"{field}: no collection '{parent_id}' in this organization")
    if coll["organization"] != org_id:
        raise bad_request(f"{field}: collection '{parent_id}' belongs to another organization")
    return coll


def _anchor(target: PositionTarget | None, kind: str, field: str) -> str | None:
    if target is None:
        return None
    anchor = getattr(target, kind, None)
    if target.type != kind or not anchor:
        raise bad_request(
            f"{field}: a {kind} can only be placed relative to another {kind} "
            f"(give {{type: '{kind}', {kind}: <id>}})"
        )
    return str(anchor)


def place_item(tx: Tx, kind: str, item_id: str, scope: str, position: Position | None) -> bool:
    """Put an item into ``scope`` at ``position`` (default: the end); True when it moved."""
    before = _anchor(position.before if position else None, kind, "position.before")
    after = _anchor(position.after if position else None, kind, "position.after")
    for field, anchor in (("position.before", before), ("position.after", after)):
        if anchor is None:
            continue
        if anchor == item_id:
            raise bad_request(f"{field}: cannot place a {kind} relative to itself")
        found = tx.position_of(kind, anchor)
        doc = tx.get(kind, anchor)
        if found is None or found[0] != scope or doc is None or doc.get("deletedAt"):
            raise bad_request(f"{field}: {kind} '{anchor}' is not in the target parent")
    old_scope = (tx.position_of(kind, item_id) or ("", 0.0))[0]
    old_order = [d["id"] for d in tx.list(kind, scope)]
    tx.place(kind, item_id, scope, before=before, after=after)
    return old_scope != scope or [d["id"] for d in tx.list(kind, scope)] != old_order


def require_org_admin_both(tx: Tx, ctx: Ctx, source_org: str, target_org: str) -> None:
    """Transfers need the caller to be an admin of both organizations."""
    if tx.get("org", target_org) is None or org_role(tx, target_org, ctx.user_id) is None:
        raise not_found("Organization", target_org)
    if org_role(tx, source_org, ctx.user_id) != "admin":
        raise forbidden("Transfers need the 'admin' role in the current organization.")
    if org_role(tx, target_org, ctx.user_id) != "admin":
        raise forbidden(
            f"organization: you need the 'admin' role in organization '{target_org}' "
            "to transfer content there."
        )
    if source_org == target_org:
        raise conflict("organization: the content already belongs to this organization")


def retarget_grants(tx: Tx, target_id: str, org_id: str) -> None:
    """After a transfer: direct grants follow, team grants (teams of the old org) are dropped."""
    for grant in tx.list("grant", target_id):
        grant["organization"] = org_id
        tx.put("grant", f"{target_id}:{grant['user']}", grant)
    tx.delete_scope("team-grant", target_id)


def walk_collections(tx: Tx, scope: str) -> Iterator[dict[str, Any]]:
    """Collections under ``scope`` depth first, each followed by its sub-collections."""
    for coll in tx.list("collection", scope):
        yield coll
        yield from walk_collections(tx, coll["id"])


def subtree(tx: Tx, coll: dict[str, Any]) -> list[dict[str, Any]]:
    """A collection and all its sub-collections (depth first)."""
    return [coll, *walk_collections(tx, coll["id"])]


def put_grant(
    tx: Tx, ctx: Ctx, kind: str, target: dict[str, Any], field: str, who: str, role: Any
) -> dict[str, Any]:
    """Grant ``role`` on a space or collection (``kind``) to a user or team (``field``);
    a ``None`` role is a guest's read-only access."""
    record_kind = "grant" if field == "user" else "team-grant"
    key = f"{target['id']}:{who}"
    record = tx.get(record_kind, key) or {"createdAt": ctx.now(), "createdBy": ctx.user_id}
    record.update(
        {
            "target": target["id"],
            "targetKind": kind,
            "organization": target["organization"],
            field: who,
            "role": role or "read",
            "guest": role is None,
            "updatedAt": ctx.now(),
        }
    )
    return tx.put(record_kind, key, record, scope=target["id"])
