"""DraftStore: the user's unsent text, one private JSON file per composer, per account."""

from __future__ import annotations

import builtins
import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..cache import account_fingerprint
from .files import (
    TEMP_PREFIX,
    atomic_write,
    check_fingerprint,
    default_data_dir,
    log,
    private_dir,
    remove_stale_temps,
    set_aside,
)
from .keys import DraftKey

FORMAT_VERSION = 1
MAX_FILE_BYTES = 64 * 1024 * 1024


def default_drafts_root() -> Path:
    return default_data_dir() / "drafts"


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class Draft:
    """One saved draft: the text and what the screens need to show or restore it."""

    key: DraftKey
    text: str
    created: datetime
    updated: datetime
    title: str | None = None  # a context label, e.g. "Reply to Tomasz on FAQ"
    extra: dict[str, Any] = field(default_factory=dict)  # form fields, the node, an error…

    def __repr__(self) -> str:  # never dump a whole draft into a log line
        return f"Draft(key={self.key!r}, chars={len(self.text)}, updated={self.updated})"

    def to_json(self) -> dict[str, Any]:
        return {
            "version": FORMAT_VERSION,
            "key": self.key.to_json(),
            "text": self.text,
            "title": self.title,
            "created": self.created.isoformat(),
            "updated": self.updated.isoformat(),
            "extra": self.extra,
        }

    @classmethod
    def from_json(cls, raw: Any) -> Draft:
        """Parse a stored draft; ``ValueError``/``TypeError`` for anything malformed."""
        if not isinstance(raw, dict) or raw.get("version") != FORMAT_VERSION:
            raise ValueError("not a draft file of this version")
        text, title, extra = raw.get("text"), raw.get("title"), raw.get("extra", {})
        if not isinstance(text, str):
            raise TypeError("text is not a string")
        if title is not None and not isinstance(title, str):
            raise TypeError("title is not a string")
        if not isinstance(extra, dict):
            raise TypeError("extra is not an object")
        return cls(
            key=DraftKey.from_json(raw.get("key")),
            text=text,
            created=_timestamp(raw.get("created")),
            updated=_timestamp(raw.get("updated")),
            title=title,
            extra=extra,
        )


def _timestamp(value: Any) -> datetime:
    if not isinstance(value, str):
        raise TypeError("timestamp is not a string")
    stamp = datetime.fromisoformat(value)
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=UTC)


class DraftStore:
    """Drafts of one account in ``<root>/<account fingerprint>/`` (dir 0700, files 0600).

    ``root`` defaults to ``<user data dir>/drafts``. Writes are atomic; an unreadable file
    is renamed to ``*.corrupt`` with a logged warning and otherwise ignored. Methods do file
    IO: call them from a worker (or through ``Debouncer``) in the UI."""

    def __init__(
        self,
        account: str,
        root: str | Path | None = None,
        *,
        now: Callable[[], datetime] = utc_now,
    ) -> None:
        self.account = check_fingerprint(account)
        self.root = Path(root) if root is not None else default_drafts_root()
        self.dir = self.root / self.account
        self._now = now
        if self.dir.is_dir():
            remove_stale_temps(self.dir)

    @classmethod
    def for_account(
        cls, base_url: str, token: str | None, root: str | Path | None = None
    ) -> DraftStore:
        """The store of (server, token), by the response cache's fingerprint of them."""
        return cls(account_fingerprint(base_url, token), root)

    def __repr__(self) -> str:
        return f"DraftStore(dir={str(self.dir)!r})"

    def path(self, key: DraftKey) -> Path:
        return self.dir / key.filename

    def _ensure_dir(self) -> None:
        private_dir(self.root)
        private_dir(self.dir)

    # -- reading ------------------------------------------------------------------------
    def _read(self, path: Path, expected: DraftKey | None = None) -> Draft | None:
        try:
            if path.stat().st_size > MAX_FILE_BYTES:
                raise ValueError("file too large for a draft")
            raw = json.loads(path.read_bytes().decode("utf-8"))
            draft = Draft.from_json(raw)
            if draft.key.filename != path.name or (expected is not None and draft.key != expected):
                raise ValueError("the draft's key does not match its file name")
        except FileNotFoundError:
            return None
        except (OSError, ValueError, TypeError, UnicodeDecodeError) as exc:
            if isinstance(exc, OSError) and path.exists() and not path.is_file():
                log.warning("ignoring %s: not a regular file", path)
                return None
            set_aside(path, f"{type(exc).__name__}: {exc}")
            return None
        return draft

    def load(self, key: DraftKey) -> Draft | None:
        """The draft of ``key``, or None (none saved, or unreadable and set aside)."""
        return self._read(self.path(key), key)

    def list(self) -> builtins.list[Draft]:
        """Every readable draft of the account, most recently updated first."""
        try:
            entries = sorted(self.dir.iterdir())
        except (FileNotFoundError, NotADirectoryError):
            return []
        drafts: builtins.list[Draft] = []
        for entry in entries:
            if entry.name.startswith(TEMP_PREFIX) or entry.suffix != ".json":
                continue
            draft = self._read(entry)
            if draft is not None:
                drafts.append(draft)
        drafts.sort(key=lambda d: d.updated, reverse=True)
        return drafts

    # -- writing ------------------------------------------------------------------------
    def save(
        self,
        key: DraftKey,
        text: str,
        *,
        title: str | None = None,
        extra: Mapping[str, Any] | None = None,
    ) -> Draft | None:
        """Store ``text`` for ``key`` (keeping its creation time, and its title and extra
        unless given). An empty text with no extra fields removes the draft (None)."""
        if not isinstance(text, str):
            raise TypeError("draft text must be a string")
        previous = self.load(key)
        fields = dict(extra) if extra is not None else (previous.extra if previous else {})
        if not text and not fields:
            self.delete(key)
            return None
        now = self._now()
        draft = Draft(
            key=key,
            text=text,
            created=previous.created if previous else now,
            updated=now,
            title=title if title is not None else (previous.title if previous else None),
            extra=fields,
        )
        data = json.dumps(draft.to_json(), ensure_ascii=False).encode("utf-8")
        self._ensure_dir()
        atomic_write(self.path(key), data)
        return draft

    def delete(self, key: DraftKey) -> bool:
        """Remove the draft of ``key`` (True if there was one)."""
        try:
            os.unlink(self.path(key))
        except FileNotFoundError:
            return False
        return True

    def delete_if_text(self, key: DraftKey, text: str) -> bool:
        """Remove the draft only if it still holds ``text``: what was sent, not newer words
        typed into the same composer since."""
        draft = self.load(key)
        if draft is None or draft.text != text:
            return False
        return self.delete(key)
