"""The owner's token across restarts of ``serve``: kept in a private file by the database.

Tokens are stored in the database only as digests, so a token cannot be shown again once
it was printed. ``serve`` therefore keeps the owner's token in ``<db stem>.owner-token``
next to the database, readable by its owner only (0600, like the database itself):

- first run (or the file is gone, or its token no longer works): a new token is minted,
  printed once and saved;
- later runs: the saved token is reused and not printed again;
- ``--token T``: ``T`` is issued and saved;
- ``--rotate-token``: every token of the owner is revoked, then a new one (or ``--token``'s)
  is issued, printed and saved.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .bootstrap import ensure_owner_record, new_token
from .core.clock import Clock
from .core.context import issue_token, token_key
from .core.storage import Storage


@dataclass(frozen=True)
class OwnerToken:
    """The owner's working token, whether it is new this run, and where it is saved."""

    token: str
    minted: bool
    file: Path

    def __repr__(self) -> str:  # the token never appears in reprs
        return f"OwnerToken(minted={self.minted}, file={str(self.file)!r})"


def token_file(db: str | Path) -> Path:
    return Path(db).with_suffix(".owner-token")


def _read(path: Path) -> str | None:
    try:
        text = path.read_text("utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return text or None


def _write(path: Path, token: str) -> None:
    """Replace ``path`` with ``token`` atomically, never readable by others."""
    temp = path.with_name(path.name + ".tmp")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, (token + "\n").encode("utf-8"))
    finally:
        os.close(fd)
    os.replace(temp, path)


def owner_token(
    storage: Storage,
    clock: Clock,
    db: str | Path,
    *,
    token: str | None = None,
    rotate: bool = False,
) -> OwnerToken:
    """Make sure the database has an owner and return the token ``serve`` should use."""
    path = token_file(db)
    saved = _read(path)
    with storage.transaction() as tx:
        owner_id = ensure_owner_record(tx, storage, clock)
        if rotate:
            tx.delete_scope("token", owner_id)
        if token is None and not rotate and saved is not None:
            record = tx.get("token", token_key(saved))
            if record is not None and record.get("user") == owner_id:
                return OwnerToken(saved, minted=False, file=path)
        chosen = token or new_token()
        issue_token(tx, owner_id, chosen)
    if chosen != saved:
        _write(path, chosen)
    return OwnerToken(chosen, minted=True, file=path)
