"""Replayer: send the outbox in order once the server is back; refused items become drafts."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field

from ..api import (
    APIConnectionError,
    APIStatusError,
    AsyncGitBook,
    AuthenticationError,
    InternalServerError,
    RateLimitError,
    ResponseValidationError,
)
from .files import log
from .outbox import ACTION_KINDS, ActionKind, Outbox, OutboxAction, OutboxItem
from .replay_check import Landed, client_landed

Handler = Callable[[OutboxAction], Awaitable[object]]
Progress = Callable[[OutboxItem, Exception | None], None]


def client_handlers(client: AsyncGitBook) -> dict[ActionKind, Handler]:
    """The client operations that send each kind of queued action, each with the action's
    ``Idempotency-Key``."""
    comments = client.comments

    async def comment(a: OutboxAction) -> object:
        assert a.markdown is not None
        return await comments.create(
            a.space,
            a.markdown,
            change_request=a.change_request,
            page=a.page,
            node=a.node,
            idempotency_key=a.key,
        )

    async def reply(a: OutboxAction) -> object:
        assert a.comment is not None and a.markdown is not None
        return await comments.create_reply(
            a.space, a.comment, a.markdown, change_request=a.change_request, idempotency_key=a.key
        )

    async def reaction(a: OutboxAction) -> object:
        assert a.comment is not None
        added = list(a.added_reactions) or None
        removed = list(a.removed_reactions) or None
        if a.reply is not None:
            return await comments.update_reply(
                a.space,
                a.comment,
                a.reply,
                change_request=a.change_request,
                added_reactions=added,
                removed_reactions=removed,
                idempotency_key=a.key,
            )
        return await comments.update(
            a.space,
            a.comment,
            change_request=a.change_request,
            added_reactions=added,
            removed_reactions=removed,
            idempotency_key=a.key,
        )

    async def resolve(a: OutboxAction) -> object:
        assert a.comment is not None
        return await comments.update(
            a.space,
            a.comment,
            change_request=a.change_request,
            resolved=a.resolved,
            idempotency_key=a.key,
        )

    return {"comment": comment, "reply": reply, "reaction": reaction, "resolve": resolve}


def refused(error: Exception) -> bool:
    """A 4xx about the item itself (gone, forbidden, invalid, conflicting): it will never be
    accepted as it is. Not 401 (the token), 408 (timeout) or 429 (rate limit): those
    stop the replay and keep the item."""
    return (
        isinstance(error, APIStatusError)
        and 400 <= error.status < 500
        and not isinstance(error, AuthenticationError | RateLimitError)
        and error.status != 408
    )


@dataclass
class ReplayResult:
    sent: list[OutboxItem] = field(default_factory=list)
    failed: list[OutboxItem] = field(default_factory=list)  # refused: now drafts again
    stopped: Exception | None = None  # why items were left queued (offline, 429, 5xx…)
    remaining: int = 0  # still queued afterwards
    busy: bool = False  # another replay (here or in another app instance) was running

    @property
    def offline(self) -> bool:
        return isinstance(self.stopped, APIConnectionError)


class Replayer:
    """Sends queued items oldest first with one handler per action kind. Stops at the first
    connection error (still offline) or transient refusal (401, 408, 429, 5xx), leaving
    that item and the rest queued; an item the server refuses (other 4xx) is marked failed
    and its text restored as a draft; an accepted item is removed with its draft.

    Delivery is exactly-once as the user sees it: every send of an item carries its
    ``Idempotency-Key`` (a server that honours it answers a repeat with the first result),
    and an item whose earlier send may have landed (``OutboxItem.attempts``: the app died
    while the server answered, or the answer came after the timeout) is first looked for on
    the server (``landed``, see :mod:`.replay_check`) and only sent again if not found."""

    def __init__(
        self,
        outbox: Outbox,
        handlers: Mapping[ActionKind, Handler],
        *,
        on_progress: Progress | None = None,
        landed: Landed | None = None,
    ) -> None:
        missing = [kind for kind in ACTION_KINDS if kind not in handlers]
        if missing:
            raise ValueError(f"no handler for {', '.join(missing)}")
        self.outbox = outbox
        self.handlers = dict(handlers)
        self.on_progress = on_progress
        self.landed = landed
        self._running = asyncio.Lock()

    @classmethod
    def for_client(
        cls, outbox: Outbox, client: AsyncGitBook, *, on_progress: Progress | None = None
    ) -> Replayer:
        handlers = client_handlers(client)
        return cls(outbox, handlers, on_progress=on_progress, landed=client_landed(client))

    async def replay(self) -> ReplayResult:
        """Send what is queued (including items queued while this runs)."""
        result = ReplayResult()
        if self._running.locked():
            result.busy = True
            return result
        async with self._running:
            with self.outbox.replaying() as got:
                if not got:
                    result.busy = True
                else:
                    await self._send_all(result)
            result.remaining = await asyncio.to_thread(self.outbox.count)
        return result

    async def _send_all(self, result: ReplayResult) -> None:
        tried: set[str] = set()
        while True:
            queued = await asyncio.to_thread(self.outbox.pending)
            item = next((i for i in queued if i.id not in tried), None)
            if item is None:
                return
            tried.add(item.id)
            made: str | None = None
            try:
                found = await self._landed(item)
                if found is None:
                    await asyncio.to_thread(self.outbox.mark_attempt, item.id)
                    action = item.action.model_copy(update={"key": item.key})
                    made = _made(item, await self.handlers[item.action.kind](action))
                else:
                    log.info("a queued %s had landed before: not sent again", item.action.kind)
                    made = found or None
            except ResponseValidationError as exc:
                # The server did it; only its answer was odd. Sending again would duplicate.
                log.warning("queued %s accepted with an unexpected answer: %s", item.action, exc)
            except Exception as exc:
                if refused(exc):
                    failed = await asyncio.to_thread(self.outbox.mark_failed, item.id, str(exc))
                    result.failed.append(failed or item)
                    self._report(item, exc)
                    continue
                if not isinstance(exc, APIConnectionError | InternalServerError | APIStatusError):
                    log.exception("replaying a queued %s failed", item.action.kind)
                result.stopped = exc
                return
            await asyncio.to_thread(self.outbox.mark_done, item.id, made)
            result.sent.append(item)
            self._report(item, None)

    async def _landed(self, item: OutboxItem) -> str | None:
        """What an earlier send of ``item`` made, if one may have landed and did (None: send
        it). Errors reaching the server are the send's own (offline stops the replay, a
        refusal fails the item); an answer that cannot be read says nothing either way."""
        if not item.attempts or self.landed is None:
            return None
        claimed = await asyncio.to_thread(self.outbox.sent_results)
        try:
            return await self.landed(item, claimed)
        except ResponseValidationError as exc:
            log.warning("could not tell whether a queued %s landed: %s", item.action.kind, exc)
            return None  # sent again: its key still guards it where the server honours it

    def _report(self, item: OutboxItem, error: Exception | None) -> None:
        if self.on_progress is not None:
            self.on_progress(item, error)


def _made(item: OutboxItem, answer: object) -> str | None:
    """The id of the post a comment or reply made (a reaction's answer is the thread)."""
    made = getattr(answer, "id", None)
    return made if item.action.kind in ("comment", "reply") and isinstance(made, str) else None
