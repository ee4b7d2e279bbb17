"""OutboxItem and the outbox log's records: how the queue is rebuilt from the JSONL log."""

from __future__ import annotations

import builtins
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from .keys import DraftKey
from .outbox_action import Id, OutboxAction

__all__ = ["OutboxItem", "OutboxState", "apply_record"]


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

    @property
    def key(self) -> str:
        """The ``Idempotency-Key`` of every send of this item (a repeat of a send that did
        land answers the first result on servers that honour it)."""
        return self.id


@dataclass
class OutboxState:
    """The queue as read from the log, and what the log looks like (for compaction)."""

    items: dict[str, OutboxItem] = field(default_factory=dict)
    results: set[str] = field(default_factory=set)
    """Ids of the posts finished items made (a check whether a send landed skips them)."""
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


def apply_record(state: OutboxState, record: dict[str, Any]) -> None:
    """Apply one log record to ``state`` (``ValueError`` for a malformed one)."""
    op = record.get("op")
    if op == "add":
        item = OutboxItem.model_validate(record.get("item"))
        state.items[item.id] = item
        return
    if op == "sent":  # results kept through a compaction
        results = record.get("results")
        if not isinstance(results, list):
            raise ValueError("sent without results")
        state.results.update(str(r) for r in results)
        return
    item_id = record.get("id")
    if not isinstance(item_id, str):
        raise ValueError("record without an id")
    current = state.items.get(item_id)
    if op in ("done", "dismiss"):
        state.items.pop(item_id, None)
        if isinstance(record.get("result"), str):
            state.results.add(record["result"])
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
