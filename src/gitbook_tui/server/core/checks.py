"""Request checks shared by route families: URLs, organization roles, partial updates, deletions."""

from __future__ import annotations

from urllib.parse import urlparse

from ...models.limits import MAX_BODY_CHARS
from .context import Ctx
from .errors import bad_request, forbidden, not_found
from .permissions import at_least, org_role
from .schemas import Body
from .storage import Tx


def is_http_url(value: str) -> bool:
    """An absolute http(s) URL with a host; spaces are refused (``urlparse`` accepts them)."""
    parsed = urlparse(value)
    return parsed.scheme in ("http", "https") and bool(parsed.netloc) and " " not in value


def require_org_role(tx: Tx, ctx: Ctx, org_id: str, needed: str, message: str) -> None:
    """403 with ``message`` unless the caller has at least ``needed`` in the organization.

    Each route family words its own message (the caller's membership was checked before,
    so this is never the 404 of :func:`.permissions.require`).
    """
    if not at_least(org_role(tx, org_id, ctx.user_id), needed):
        raise forbidden(message)


def updated_fields(body: Body, not_null: tuple[str, ...]) -> set[str]:
    """The fields a PATCH body sets: 400 when it sets none, or sets one of ``not_null`` to null."""
    fields = body.model_fields_set
    if not fields:
        raise bad_request("body: give at least one field to update")
    for name in not_null:
        if name in fields and getattr(body, name) is None:
            raise bad_request(f"{name}: must not be null")
    return fields


def deletable(tx: Tx, kind: str, id: str, parent: str, what: str) -> bool:
    """Whether a ``kind`` record ``id`` is there to delete under ``parent`` (its scope).

    False when there is no such record: it never existed or is gone already, and the
    deletion answers 204 (the deletion rule). A record under another parent is unknown
    to the caller here, as it is for a read: 404, and nothing is deleted.
    """
    where = tx.position_of(kind, id)
    if where is None:
        return False
    if where[0] != parent:
        raise not_found(what, id)
    return True


def check_body_length(text: str, field: str) -> str:
    """``text`` of a typed body (a comment, a reply, a review message, a description), or a
    400 naming ``field`` when it is longer than the one limit the app counts against as the
    text is typed (``models.limits``)."""
    if len(text) > MAX_BODY_CHARS:
        raise bad_request(
            f"{field}: at most {MAX_BODY_CHARS} characters (this one has {len(text)})"
        )
    return text
