"""Persisted UI state (per account) and where the app starts.

The state file lives in the user cache dir (``ui-state.json``, owner-only) and maps an
account *fingerprint* (a one-way hash of server + token, the same one the response cache
uses) to the expanded tree nodes, the selected node, the organization and the last page.
It never holds a token or any content: only ids and node keys.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from ...api import AsyncGitBook
from ...cache import account_fingerprint
from ...folders import cache_folder, private_dir

__all__ = [
    "AccountState",
    "StartTarget",
    "StateStore",
    "account_key",
    "parse_target",
    "recall_choice",
    "remember_choice",
    "state_path",
]

MAX_ACCOUNTS = 20
MAX_EXPANDED = 500
MAX_CHOICES = 50
_CHOICE_RE = re.compile(r"^[A-Za-z0-9_.-]{1,128}$")
_ID_RE = re.compile(r"^[A-Za-z0-9_-]{1,128}$")


def state_path() -> Path:
    return cache_folder() / "ui-state.json"


def account_key(client: AsyncGitBook) -> str:
    """The account fingerprint of ``client`` (never the token itself)."""
    key = getattr(client, "_account", None)
    if isinstance(key, str) and key:
        return key
    return account_fingerprint(client.base_url, None)


@dataclass
class AccountState:
    """What is remembered for one account."""

    org_id: str | None = None
    expanded: list[str] = field(default_factory=list)
    selected: str | None = None
    page: list[str] | None = None  # [space_id, page_id] of the last page shown
    choices: dict[str, str] = field(default_factory=dict)
    """The reader's choices that persist (:func:`recall_choice`), e.g. the search scope."""

    @classmethod
    def from_json(cls, raw: Any) -> AccountState:
        if not isinstance(raw, dict):
            return cls()
        org = raw.get("org_id")
        expanded = raw.get("expanded")
        selected = raw.get("selected")
        page = raw.get("page")
        choices = raw.get("choices")
        return cls(
            org_id=org if isinstance(org, str) else None,
            expanded=[k for k in expanded if isinstance(k, str)][:MAX_EXPANDED]
            if isinstance(expanded, list)
            else [],
            selected=selected if isinstance(selected, str) else None,
            page=list(page)
            if isinstance(page, list) and len(page) == 2 and all(isinstance(p, str) for p in page)
            else None,
            choices={
                k: v
                for k, v in list(choices.items())[:MAX_CHOICES]
                if isinstance(k, str) and isinstance(v, str) and _CHOICE_RE.match(k + v)
            }
            if isinstance(choices, dict)
            else {},
        )


class StateStore:
    """Reads and writes ``ui-state.json``; a missing or broken file is an empty state."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or state_path()

    def _read(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError, UnicodeDecodeError):
            return {}
        accounts = data.get("accounts") if isinstance(data, dict) else None
        return accounts if isinstance(accounts, dict) else {}

    def load(self, account: str) -> AccountState:
        return AccountState.from_json(self._read().get(account))

    def save(self, account: str, state: AccountState) -> None:
        accounts = self._read()
        accounts.pop(account, None)
        entry = asdict(state)
        entry["expanded"] = entry["expanded"][:MAX_EXPANDED]
        accounts[account] = entry  # the most recent account last
        while len(accounts) > MAX_ACCOUNTS:
            accounts.pop(next(iter(accounts)))
        with contextlib.suppress(OSError):
            self._write({"version": 1, "accounts": accounts})

    def _write(self, data: dict[str, Any]) -> None:
        private_dir(self.path.parent, tighten=False)
        fd, tmp = tempfile.mkstemp(prefix=".ui-state-", suffix=".json", dir=self.path.parent)
        try:
            os.chmod(tmp, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(data, handle)
            os.replace(tmp, self.path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise


def recall_choice(client: AsyncGitBook, name: str, allowed: tuple[str, ...], default: str) -> str:
    """The reader's last choice ``name`` for this account (one of ``allowed``), else
    ``default``: choices such as the search scope or the diff layout persist."""
    value = StateStore().load(account_key(client)).choices.get(name)
    return value if value in allowed else default


def remember_choice(client: AsyncGitBook, name: str, value: str) -> None:
    """Keep the reader's choice ``name`` for this account (see :func:`recall_choice`)."""
    store = StateStore()
    key = account_key(client)
    state = store.load(key)
    if state.choices.get(name) != value:
        state.choices[name] = value
        store.save(key, state)


@dataclass(frozen=True)
class StartTarget:
    """Where ``gitbook-tui open`` starts: a space, optionally a page (by id or path)."""

    space_id: str
    page_id: str | None = None
    path: str | None = None


def _segments(path: str) -> list[str]:
    return [unquote(s) for s in path.split("/") if s]


def parse_target(text: str) -> StartTarget:
    """``space-id``, ``space-id/page-id``, ``/space-id/page-id``, an app URL
    (``…/s/<space>/<page path>``) or a published URL (``https://host/<space>/<page path>``).

    Raises ``ValueError`` for anything else."""
    text = text.strip()
    if not text:
        raise ValueError("give a space id, space-id/page-id or a URL")
    parts = urlsplit(text)
    if parts.scheme:
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError(f"not an http(s) URL: {text}")
        segments = _segments(parts.path)
        if "s" in segments[:-1]:
            # app URLs: …/o/<org>/s/<space>/<page path> (a "~" segment starts app views)
            rest = segments[segments.index("s") + 1 :]
            space, page = rest[0], rest[1:]
        elif segments:
            # published URLs of the local server: https://<host>/<space>/<page path>
            space, page = segments[0], segments[1:]
        else:
            raise ValueError(f"no space in the URL: {text}")
        if "~" in page:
            page = page[: page.index("~")]
        if not _ID_RE.match(space):
            raise ValueError(f"not a space id: {space!r}")
        path = "/".join(page) or None
        return StartTarget(space, path=path)
    segments = _segments(text)
    if not 1 <= len(segments) <= 2 or not all(_ID_RE.match(s) for s in segments):
        raise ValueError(f"expected space-id or space-id/page-id, not {text!r}")
    return StartTarget(segments[0], segments[1] if len(segments) == 2 else None)
