"""Idempotency-Key: a create repeated with the same key by the same user gets the first answer.

A client that cannot tell whether its request landed (the answer was lost to a timeout, or
the app died while the server answered) sends it again with the same ``Idempotency-Key``:
the repeat answers what the first request answered and changes nothing. The key and that
answer are written in the same transaction as the change itself, so either both are kept
or neither. Keys are per user (another user's key is another key) and kept
:data:`KEEP_DAYS`; the same key on a different request (another path or body) is a 422.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import timedelta
from typing import Annotated, Any

from fastapi import Depends, Header, Request
from pydantic import BaseModel

from .clock import iso
from .context import Ctx, CtxDep
from .errors import ApiError
from .storage import Tx

__all__ = ["KEEP_DAYS", "Once", "OnceDep"]

KIND = "idempotency"
KEEP_DAYS = 30  # an app killed mid-send repeats it on its next start, maybe days later


@dataclass
class Once:
    """The ``Idempotency-Key`` of one request (``key`` None: none was sent)."""

    ctx: Ctx
    key: str | None
    method: str
    path: str

    def _id(self) -> str:
        return hashlib.sha256(f"{self.ctx.user_id}\0{self.key}".encode()).hexdigest()

    def _request(self, body: BaseModel | None) -> str:
        payload = body.model_dump(mode="json", exclude_unset=True) if body is not None else None
        text = json.dumps([self.method, self.path, payload], sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(text.encode()).hexdigest()

    def earlier(self, tx: Tx, body: BaseModel | None) -> dict[str, Any] | None:
        """The answer of the first request with this key, or None (no key, or first time)."""
        if self.key is None:
            return None
        record = tx.get(KIND, self._id())
        if record is None:
            return None
        if record.get("request") != self._request(body):
            raise ApiError(
                422, "Idempotency-Key: this key was already used for a different request."
            )
        answer = record.get("answer")
        return answer if isinstance(answer, dict) else None

    def remember(self, tx: Tx, body: BaseModel | None, answer: dict[str, Any]) -> dict[str, Any]:
        """Keep ``answer`` as the one a repeat of this request gets; returns it."""
        if self.key is None:
            return answer
        now = self.ctx.state.clock.now()
        user = self.ctx.user_id
        cutoff = iso(now - timedelta(days=KEEP_DAYS))
        for old in tx.list(KIND, user):  # a user's keys of the last weeks: a short list
            if str(old.get("at", "")) < cutoff:
                tx.delete(KIND, str(old.get("id")))
        record = {"id": self._id(), "at": iso(now), "request": self._request(body)}
        tx.put(KIND, record["id"], {**record, "answer": answer}, scope=user)
        return answer


def _once(
    request: Request,
    ctx: CtxDep,
    key: Annotated[
        str | None, Header(alias="Idempotency-Key", min_length=1, max_length=255)
    ] = None,
) -> Once:
    return Once(ctx, key, request.method, request.url.path)


OnceDep = Annotated[Once, Depends(_once)]
