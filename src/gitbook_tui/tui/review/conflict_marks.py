"""Local marks of change requests whose update or merge answered 409 (never sent anywhere).

The API has no "conflicting" field: a change request only says ``outdated``. When an
update or merge of it is refused with a 409, the app remembers that here, with the
change request's revision at the time; the mark holds until that revision changes (new
commits, a successful update) or an update/merge succeeds. One file per account under the
user data dir (dir 0700, file 0600, written atomically).
"""

from __future__ import annotations

import json
from pathlib import Path

from ...api import AsyncGitBook
from ...drafts.files import atomic_write, check_fingerprint, default_data_dir, private_dir
from ...models import ChangeRequest
from ..common.state import account_key

__all__ = ["ConflictMarks", "load_conflict_marks"]

MAX_MARKS = 500
"""Oldest marks are dropped beyond this (a mark is small; the file stays tiny)."""


class ConflictMarks:
    """Change request id → the revision that conflicted (and the server's message)."""

    def __init__(self, account: str, root: Path | None = None) -> None:
        self.dir = (root or default_data_dir() / "review") / check_fingerprint(account)
        self.path = self.dir / "conflicts.json"
        self.marks: dict[str, dict[str, str]] = {}

    def load(self) -> ConflictMarks:
        try:
            raw = json.loads(self.path.read_text("utf-8"))
        except (OSError, ValueError):
            raw = {}
        self.marks = {
            k: {"revision": str(v.get("revision", "")), "message": str(v.get("message", ""))}
            for k, v in (raw.items() if isinstance(raw, dict) else ())
            if isinstance(k, str) and isinstance(v, dict)
        }
        return self

    def save(self) -> None:
        private_dir(self.dir.parent)
        private_dir(self.dir)
        items = list(self.marks.items())[-MAX_MARKS:]
        atomic_write(self.path, json.dumps(dict(items)).encode())

    def conflicts(self, cr: ChangeRequest) -> bool:
        """Whether ``cr`` (as read now) still has the conflict that was seen."""
        mark = self.marks.get(cr.id)
        return mark is not None and mark["revision"] == (cr.revision or "")

    def message(self, cr: ChangeRequest) -> str | None:
        return self.marks[cr.id]["message"] if self.conflicts(cr) else None

    def mark(self, cr: ChangeRequest, message: str) -> None:
        self.marks.pop(cr.id, None)  # re-inserted last: the newest survive the cap
        self.marks[cr.id] = {"revision": cr.revision or "", "message": message}

    def clear(self, cr_id: str) -> bool:
        return self.marks.pop(cr_id, None) is not None


def load_conflict_marks(client: AsyncGitBook) -> ConflictMarks | None:
    """The marks of ``client``'s account, read from disk (file IO: call in a thread)."""
    try:
        return ConflictMarks(account_key(client)).load()
    except ValueError:
        return None
