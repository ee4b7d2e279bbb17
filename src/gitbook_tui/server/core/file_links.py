"""Signed download links of stored files: ``/files/{digest}/{name}?expires=…&signature=…``.

Downloads need the caller's token or a link the API handed out. A link carries its expiry
and an HMAC-SHA256 of the digest and expiry under a secret kept in the database (created
once, never sent), so it works in a browser without the token and stops working an hour
or so after it was issued. Expiries are rounded up to the next ten minutes so the same
answer (and its ETag) stays stable while a client re-reads it.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import secrets
from urllib.parse import quote

from .context import Ctx
from .storage import Storage

LINK_LIFETIME = 3600  # seconds a link stays valid at least
LINK_ROUNDING = 600  # expiries are rounded up to this many seconds
_SECRET_KEY = "file_link_secret"


def ensure_secret(storage: Storage) -> bytes:
    """The database's link secret, created on first use."""
    with storage.read() as tx:
        value = tx.meta(_SECRET_KEY)
    if value is None:
        with storage.transaction() as tx:
            value = tx.meta(_SECRET_KEY)
            if value is None:
                value = secrets.token_hex(32)
                tx.set_meta(_SECRET_KEY, value)
    return bytes.fromhex(value)


def _signature(secret: bytes, digest: str, expires: int) -> str:
    message = f"{digest}\n{expires}".encode()
    return hmac.new(secret, message, hashlib.sha256).hexdigest()


def signed_url(origin: str, secret: bytes, digest: str, name: str, now: float) -> str:
    """A download link of blob ``digest`` valid for at least :data:`LINK_LIFETIME` s."""
    expires = math.ceil((now + LINK_LIFETIME) / LINK_ROUNDING) * LINK_ROUNDING
    sig = _signature(secret, digest, expires)
    return f"{origin}/files/{digest}/{quote(name or 'file')}?expires={expires}&signature={sig}"


def download_url(ctx: Ctx, digest: str, name: str) -> str:
    """The signed link the API hands out for a file (``downloadURL``)."""
    now = ctx.state.clock.now().timestamp()
    return signed_url(ctx.origin, ctx.state.file_secret, digest, name, now)


def link_problem(
    secret: bytes, digest: str, expires: str, signature: str, now: float
) -> str | None:
    """Why a signed link does not grant the download (``None`` when it does)."""
    if not (expires.isdigit() and len(expires) <= 12) or not hmac.compare_digest(
        _signature(secret, digest, int(expires)), signature
    ):
        return "The download link is not valid (its signature does not match)."
    if int(expires) < now:
        return "The download link has expired: ask the API for the file again for a fresh link."
    return None
