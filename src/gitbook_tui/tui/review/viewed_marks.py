"""Local "viewed" marks of a change request's pages (never sent to the server).

A mark remembers a fingerprint of the page's content when it was viewed; a page whose
content changed since is no longer viewed. Files live under the user data dir, one per
change request and account (dir 0700, files 0600, written atomically).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from ...drafts.files import atomic_write, check_fingerprint, default_data_dir, private_dir

__all__ = ["ViewedMarks", "fingerprint"]


def fingerprint(markdown: str | None) -> str:
    """What identifies a page's content (``"gone"`` for a deleted page)."""
    if markdown is None:
        return "gone"
    return hashlib.sha256(markdown.encode()).hexdigest()[:24]


class ViewedMarks:
    """Marks of one change request: page id → content fingerprint when viewed."""

    def __init__(self, account: str, change_request_id: str, root: Path | None = None) -> None:
        self.dir = (root or default_data_dir() / "review") / check_fingerprint(account)
        digest = hashlib.sha256(change_request_id.encode()).hexdigest()[:32]
        self.path = self.dir / f"viewed-{digest}.json"
        self.marks: dict[str, str] = {}

    def load(self) -> None:
        try:
            raw = json.loads(self.path.read_text("utf-8"))
        except (OSError, ValueError):
            raw = {}
        self.marks = {k: v for k, v in raw.items() if isinstance(k, str) and isinstance(v, str)}

    def save(self) -> None:
        private_dir(self.dir.parent)
        private_dir(self.dir)
        atomic_write(self.path, json.dumps(self.marks, sort_keys=True).encode())

    def is_viewed(self, page_id: str) -> bool:
        return page_id in self.marks

    def check(self, page_id: str, content: str) -> bool:
        """Whether the page is still viewed now its content is ``content`` (a fingerprint);
        a changed page loses its mark."""
        if self.marks.get(page_id) not in (None, content):
            del self.marks[page_id]
            return True
        return False

    def toggle(self, page_id: str, content: str) -> bool:
        """Mark or unmark; returns whether the page is now viewed."""
        if page_id in self.marks:
            del self.marks[page_id]
            return False
        self.marks[page_id] = content
        return True
