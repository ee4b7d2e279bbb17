"""Outbox: comments, replies, reactions and resolves made offline, queued per account on disk.

One append-only JSONL log per account (``<root>/<fingerprint>/outbox.jsonl``, 0600, each
record fsynced). Records: ``add`` (the item), ``attempt``, ``done`` (with the id of the post
it made), ``failed``, ``dismiss``, ``retry``, ``sent`` (posts made, kept by a compaction);
the queue is the log replayed. A line cut short by a crash (kill -9, power loss)
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
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

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
from .keys import DraftKey
from .outbox_action import ACTION_KINDS, ActionKind, OutboxAction
from .outbox_state import OutboxItem, OutboxState, apply_record
from .store import DraftStore, utc_now

__all__ = ["ACTION_KINDS", "COMPACT_AFTER", "ActionKind", "Outbox", "OutboxAction", "OutboxItem"]

LOG_NAME = "outbox.jsonl"
COMPACT_AFTER = 200  # finished records kept before the log is rewritten


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

    def _read(self) -> OutboxState:
        state = OutboxState()
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
                apply_record(state, record)
            except (ValueError, TypeError, ValidationError, UnicodeDecodeError) as exc:
                state.bad_lines += 1
                log.warning("skipping damaged record %d of %s: %s", number, self.path, exc)
        return state

    def _prepare(self) -> OutboxState:
        """Read the log; rewrite it first if it is damaged or mostly finished records."""
        state = self._read()
        finished = state.records - len(state.items)
        if state.bad_lines or state.torn_tail or finished > COMPACT_AFTER:
            self._rewrite(state)
        return state

    def _rewrite(self, state: OutboxState) -> None:
        if state.bad_lines:
            set_aside(self.path, f"{state.bad_lines} damaged records")
        lines = []
        if not state.items:
            state.results.clear()  # nothing left to check against them
        elif state.results:
            lines.append(self._line({"op": "sent", "results": sorted(state.results)}))
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
            apply_record(state, {**record, "id": item_id})
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

    def sent_results(self) -> frozenset[str]:
        """Ids of the posts that items already sent made (while others wait): a check
        whether an earlier send of a waiting item landed must not take one of those."""
        with self._locked():
            return frozenset(self._prepare().results)

    def count(self) -> int:
        """How many items are queued (the status bar's "n queued")."""
        return len(self.pending())

    # -- outcomes -----------------------------------------------------------------------
    def mark_attempt(self, item_id: str) -> None:
        """A send is starting (a crash after this may have posted it: the next send of the
        item carries the same key, and the Replayer checks first whether it landed)."""
        self._change(item_id, {"op": "attempt"})

    def mark_done(self, item_id: str, result: str | None = None) -> bool:
        """The server accepted it (``result``: the id of the post it made): drop it, and its
        draft if that still holds the same text."""
        record: dict[str, Any] = {"op": "done"}
        if result:
            record["result"] = result
        item = self._change(item_id, record)
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
            apply_record(state, record)
            return state.items[item_id]
