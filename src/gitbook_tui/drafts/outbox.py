"""Outbox: comments, replies, reactions and resolves made offline, queued per account on disk.

One append-only JSONL log per account (``<root>/<fingerprint>/outbox.jsonl``, 0600, each
record fsynced). Records: ``add`` (the item), ``attempt``, ``done``, ``failed``, ``dismiss``,
``retry``; the queue is the log replayed. A line cut short by a crash (kill -9, power loss)
is the last one and is ignored (that enqueue never returned); a damaged complete line is
skipped with a warning, and the file is set aside as ``*.corrupt`` before it is rewritten.
The log is compacted (atomically rewritten) when it holds many finished records.
"""

from __future__ import annotations

import builtins
import contextlib
import json
import os
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from ..cache import account_fingerprint
from .files import (
    atomic_write,
    check_fingerprint,
    default_data_dir,
    fsync_dir,
    locked,
    log,
    private_dir,
    remove_stale_temps,
    set_aside,
)
from .keys import COMMENT, REPLY, DraftKey
from .store import DraftStore, utc_now

ActionKind = Literal["comment", "reply", "reaction", "resolve"]
ACTION_KINDS: tuple[ActionKind, ...] = ("comment", "reply", "reaction", "resolve")
LOG_NAME = "outbox.jsonl"
COMPACT_AFTER = 200  # finished records kept before the log is rewritten
Id = Annotated[str, Field(min_length=1, max_length=1024)]


class OutboxAction(BaseModel):
    """One queued write. Build it with ``comment``, ``reply``, ``reaction`` or ``resolve``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: ActionKind
    space: Id
    change_request: Id | None = None
    comment: Id | None = None  # the thread
    reply: Id | None = None  # reacted reply
    page: Id | None = None  # a new thread's page
    node: Id | None = None  # …and block in it
    markdown: str | None = None  # comment / reply body
    added_reactions: tuple[str, ...] = ()
    removed_reactions: tuple[str, ...] = ()
    resolved: bool | None = None
    draft: DraftKey | None = None  # the draft the text came from (restored on a 4xx)
    label: str | None = Field(default=None, max_length=500)  # e.g. "Reply to Lee on FAQ"

    @model_validator(mode="after")
    def _fits_kind(self) -> Self:
        needs: dict[str, tuple[str, ...]] = {
            "comment": ("markdown",),
            "reply": ("comment", "markdown"),
            "reaction": ("comment",),
            "resolve": ("comment", "resolved"),
        }
        missing = [name for name in needs[self.kind] if getattr(self, name) is None]
        if missing:
            raise ValueError(f"a queued {self.kind} needs {', '.join(missing)}")
        if self.markdown is not None and not self.markdown.strip():
            raise ValueError("an empty comment is not queued")
        if self.kind == "reaction" and not (self.added_reactions or self.removed_reactions):
            raise ValueError("a queued reaction adds or removes at least one emoji")
        allowed = {
            "comment": {"page", "node", "markdown"},
            "reply": {"comment", "markdown"},
            "reaction": {"comment", "reply", "added_reactions", "removed_reactions"},
            "resolve": {"comment", "resolved"},
        }[self.kind]
        payload = {"comment", "reply", "page", "node", "markdown", "resolved"}
        stray = [n for n in sorted(payload - allowed) if getattr(self, n) is not None]
        if self.kind != "reaction" and (self.added_reactions or self.removed_reactions):
            stray.append("reactions")
        if stray:
            raise ValueError(f"a queued {self.kind} does not take {', '.join(stray)}")
        return self

    def __repr__(self) -> str:  # bodies stay out of log lines
        return f"OutboxAction(kind={self.kind!r}, space={self.space!r}, comment={self.comment!r})"

    __str__ = __repr__

    @classmethod
    def new_comment(
        cls,
        space: str,
        markdown: str,
        *,
        page: str | None = None,
        node: str | None = None,
        change_request: str | None = None,
        draft: DraftKey | None = None,
        label: str | None = None,
    ) -> OutboxAction:
        return cls(
            kind="comment",
            space=space,
            markdown=markdown,
            page=page,
            node=node,
            change_request=change_request,
            draft=draft,
            label=label,
        )

    @classmethod
    def new_reply(
        cls,
        space: str,
        comment: str,
        markdown: str,
        *,
        change_request: str | None = None,
        draft: DraftKey | None = None,
        label: str | None = None,
    ) -> OutboxAction:
        return cls(
            kind="reply",
            space=space,
            comment=comment,
            markdown=markdown,
            change_request=change_request,
            draft=draft,
            label=label,
        )

    @classmethod
    def new_reaction(
        cls,
        space: str,
        comment: str,
        *,
        reply: str | None = None,
        added: builtins.list[str] | tuple[str, ...] = (),
        removed: builtins.list[str] | tuple[str, ...] = (),
        change_request: str | None = None,
        label: str | None = None,
    ) -> OutboxAction:
        return cls(
            kind="reaction",
            space=space,
            comment=comment,
            reply=reply,
            added_reactions=tuple(added),
            removed_reactions=tuple(removed),
            change_request=change_request,
            label=label,
        )

    @classmethod
    def new_resolve(
        cls,
        space: str,
        comment: str,
        *,
        resolved: bool = True,
        change_request: str | None = None,
        label: str | None = None,
    ) -> OutboxAction:
        return cls(
            kind="resolve",
            space=space,
            comment=comment,
            resolved=resolved,
            change_request=change_request,
            label=label,
        )

    def draft_key(self) -> DraftKey | None:
        """Where the text of a comment or reply goes back to when the server refuses it."""
        if self.markdown is None:
            return None
        if self.draft is not None:
            return self.draft
        cr = self.change_request or ""
        if self.kind == "reply":
            return DraftKey(REPLY, space=self.space, change_request=cr, target=self.comment or "")
        return DraftKey(COMMENT, space=self.space, change_request=cr, target=self.page or "")


class OutboxItem(BaseModel):
    """A queued action and where it stands."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: Id
    seq: int
    action: OutboxAction
    created: datetime
    status: Literal["pending", "failed"] = "pending"
    attempts: int = 0  # sends started; > 0 on a pending item: it may have reached the server
    error: str | None = None
    failed_at: datetime | None = None
    restored_draft: DraftKey | None = None  # where a refused item's text was put back


@dataclass
class _State:
    items: dict[str, OutboxItem] = field(default_factory=dict)
    records: int = 0
    bad_lines: int = 0
    torn_tail: bool = False
    size: int = 0

    def sorted(self, status: str) -> builtins.list[OutboxItem]:
        chosen = [i for i in self.items.values() if i.status == status]
        return sorted(chosen, key=lambda i: i.seq)

    @property
    def next_seq(self) -> int:
        return max((i.seq for i in self.items.values()), default=0) + 1


def _apply(state: _State, record: dict[str, Any]) -> None:
    op = record.get("op")
    if op == "add":
        item = OutboxItem.model_validate(record.get("item"))
        state.items[item.id] = item
        return
    item_id = record.get("id")
    if not isinstance(item_id, str):
        raise ValueError("record without an id")
    current = state.items.get(item_id)
    if op in ("done", "dismiss"):
        state.items.pop(item_id, None)
    elif current is None:
        return  # a record about an item already finished (compacted away)
    elif op == "attempt":
        state.items[item_id] = current.model_copy(update={"attempts": current.attempts + 1})
    elif op == "failed":
        restored = record.get("draft")
        state.items[item_id] = current.model_copy(
            update={
                "status": "failed",
                "error": str(record.get("error") or ""),
                "failed_at": datetime.fromisoformat(str(record.get("at"))),
                "restored_draft": DraftKey.from_json(restored) if restored else None,
            }
        )
    elif op == "retry":
        seq = record.get("seq")
        if not isinstance(seq, int):
            raise ValueError("retry without a sequence number")
        state.items[item_id] = current.model_copy(
            update={"status": "pending", "seq": seq, "error": None, "failed_at": None}
        )
    else:
        raise ValueError(f"unknown record {op!r}")


class Outbox:
    """The offline queue of one account. Every method reads the log under a file lock, so
    two app instances of the same account (two SSH sessions) share one queue safely. File
    IO: call from a worker (``Replayer`` does)."""

    def __init__(
        self,
        account: str,
        root: str | Path | None = None,
        *,
        drafts: DraftStore | None = None,
        now: Callable[[], datetime] = utc_now,
    ) -> None:
        self.account = check_fingerprint(account)
        self.root = Path(root) if root is not None else default_data_dir() / "outbox"
        self.dir = self.root / self.account
        self.path = self.dir / LOG_NAME
        self.drafts = drafts
        self._now = now
        if self.dir.is_dir():
            remove_stale_temps(self.dir)

    @classmethod
    def for_account(
        cls,
        base_url: str,
        token: str | None,
        root: str | Path | None = None,
        *,
        drafts: DraftStore | None = None,
    ) -> Outbox:
        return cls(account_fingerprint(base_url, token), root, drafts=drafts)

    def __repr__(self) -> str:
        return f"Outbox(path={str(self.path)!r})"

    # -- the log ------------------------------------------------------------------------
    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        private_dir(self.root)
        private_dir(self.dir)
        with locked(self.dir / "outbox.lock"):
            yield

    @contextlib.contextmanager
    def replaying(self) -> Iterator[bool]:
        """Held while replaying: True if this caller got it (no other replay is running)."""
        private_dir(self.root)
        private_dir(self.dir)
        with locked(self.dir / "replay.lock", blocking=False) as got:
            yield got

    def _read(self) -> _State:
        state = _State()
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return state
        state.size = len(data)
        lines = data.split(b"\n")
        if lines[-1]:
            state.torn_tail = True  # an append cut short: never acknowledged, so ignored
            log.warning("ignoring an incomplete last record in %s", self.path)
        for number, line in enumerate(lines[:-1], 1):
            if not line.strip():
                continue
            state.records += 1
            try:
                record = json.loads(line.decode("utf-8"))
                if not isinstance(record, dict):
                    raise ValueError("not an object")
                _apply(state, record)
            except (ValueError, TypeError, ValidationError, UnicodeDecodeError) as exc:
                state.bad_lines += 1
                log.warning("skipping damaged record %d of %s: %s", number, self.path, exc)
        return state

    def _prepare(self) -> _State:
        """Read the log; rewrite it first if it is damaged or mostly finished records."""
        state = self._read()
        finished = state.records - len(state.items)
        if state.bad_lines or state.torn_tail or finished > COMPACT_AFTER:
            self._rewrite(state)
        return state

    def _rewrite(self, state: _State) -> None:
        if state.bad_lines:
            set_aside(self.path, f"{state.bad_lines} damaged records")
        lines = []
        for item in sorted(state.items.values(), key=lambda i: i.seq):
            lines.append(self._line({"op": "add", "item": item.model_dump(mode="json")}))
        atomic_write(self.path, b"".join(lines))
        state.records, state.bad_lines, state.torn_tail = len(lines), 0, False

    @staticmethod
    def _line(record: dict[str, Any]) -> bytes:
        text = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
        return text.encode("utf-8") + b"\n"

    def _append(self, record: dict[str, Any]) -> None:
        data = self._line(record)
        created = not self.path.exists()
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.fchmod(fd, 0o600)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        if created:
            fsync_dir(self.dir)

    def _change(self, item_id: str, record: dict[str, Any]) -> OutboxItem | None:
        with self._locked():
            state = self._prepare()
            item = state.items.get(item_id)
            if item is None:
                return None
            self._append({**record, "id": item_id})
            _apply(state, {**record, "id": item_id})
            if not state.items:
                self._rewrite(state)  # all sent: start the next offline spell on an empty log
            return item

    # -- queueing -----------------------------------------------------------------------
    def enqueue(self, action: OutboxAction) -> OutboxItem:
        """Queue ``action`` after everything already queued; durable when this returns."""
        with self._locked():
            state = self._prepare()
            item = OutboxItem(
                id=uuid.uuid4().hex, seq=state.next_seq, action=action, created=self._now()
            )
            self._append({"op": "add", "item": item.model_dump(mode="json")})
        return item

    def pending(self) -> builtins.list[OutboxItem]:
        """Items still to send, in the order they were queued."""
        with self._locked():
            return self._prepare().sorted("pending")

    def failed(self) -> builtins.list[OutboxItem]:
        """Items the server refused, kept visible until dismissed (or retried)."""
        with self._locked():
            return self._prepare().sorted("failed")

    def get(self, item_id: str) -> OutboxItem | None:
        with self._locked():
            return self._prepare().items.get(item_id)

    def count(self) -> int:
        """How many items are queued (the status bar's "n queued")."""
        return len(self.pending())

    # -- outcomes -----------------------------------------------------------------------
    def mark_attempt(self, item_id: str) -> None:
        """A send is starting (a crash after this may have posted it: at-least-once)."""
        self._change(item_id, {"op": "attempt"})

    def mark_done(self, item_id: str) -> bool:
        """The server accepted it: drop it, and its draft if that still holds the same text."""
        item = self._change(item_id, {"op": "done"})
        if item is None:
            return False
        key, text = item.action.draft_key(), item.action.markdown
        if self.drafts is not None and key is not None and text is not None:
            self.drafts.delete_if_text(key, text)
        return True

    def mark_failed(self, item_id: str, error: str) -> OutboxItem | None:
        """The server refused it (a 4xx): keep it visible as failed and put its text back
        as a draft — in its own composer's draft, or beside it (a ``failed-<id>`` variant)
        when that composer already holds other words."""
        item = self.get(item_id)
        if item is None:
            return None
        restored = self._restore(item, error)
        record: dict[str, Any] = {"op": "failed", "error": error, "at": self._now().isoformat()}
        if restored is not None:
            record["draft"] = restored.to_json()
        self._change(item_id, record)
        return self.get(item_id)

    def _restore(self, item: OutboxItem, error: str) -> DraftKey | None:
        key, text = item.action.draft_key(), item.action.markdown
        if self.drafts is None or key is None or text is None:
            return None
        existing = self.drafts.load(key)
        if existing is not None and existing.text != text and existing.text.strip():
            key, existing = key.with_variant(f"failed-{item.id}"), None
        extra = dict(existing.extra) if existing is not None else {}
        extra["failed"] = {"error": error, "outbox_id": item.id}
        try:
            self.drafts.save(key, text, title=item.action.label, extra=extra)
        except OSError as exc:  # the text is still in the failed item
            log.warning("could not restore a refused %s as a draft: %s", item.action.kind, exc)
            return None
        return key

    def dismiss(self, item_id: str) -> bool:
        """Forget a failed (or pending) item; its restored draft, if any, stays."""
        return self._change(item_id, {"op": "dismiss"}) is not None

    def retry(self, item_id: str) -> OutboxItem | None:
        """Queue a failed item again, after everything queued now."""
        with self._locked():
            state = self._prepare()
            if item_id not in state.items:
                return None
            record = {"op": "retry", "id": item_id, "seq": state.next_seq}
            self._append(record)
            _apply(state, record)
            return state.items[item_id]
