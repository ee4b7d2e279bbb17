"""Who may download a stored file with their token: a reader of a space that holds it."""

from __future__ import annotations

from typing import Any

from ..core.context import token_key
from ..core.errors import ApiError
from ..core.permissions import space_role
from ..core.storage import Tx
from .store import get_revision


def caller_of(tx: Tx, token: str) -> dict[str, Any] | None:
    """The user a token belongs to, or ``None`` for an unknown token."""
    record = tx.get("token", token_key(token))
    return tx.get("user", record["user"]) if record else None


def _revision_holds(tx: Tx, revision_id: str | None, digest: str) -> bool:
    if not revision_id:
        return False
    try:
        revision = get_revision(tx, revision_id)  # cached: revisions never change
    except ApiError:
        return False
    return any(f.get("blob") == digest for f in revision.get("files", []))


def user_can_read_blob(tx: Tx, user_id: str, digest: str) -> bool:
    """Whether a space the user can read holds blob ``digest`` in its current content or
    in one of its open change requests (a scan of the readable spaces: downloads by token
    are rare; the API's signed links need no lookup)."""
    for space in tx.list("space"):
        if space.get("deletedAt") or space_role(tx, space, user_id) is None:
            continue
        if _revision_holds(tx, space.get("revision"), digest):
            return True
        for cr in tx.list("change-request", space["id"]):
            if cr.get("status") in ("draft", "open") and _revision_holds(
                tx, cr.get("revision"), digest
            ):
                return True
    return False
