"""Retry waits the client is sleeping through, observable for a status line ("retrying in 23 s")."""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Literal

__all__ = ["RetryWait", "RetryWaits", "WaitReason"]

log = logging.getLogger("gitbook_tui.api")

WaitReason = Literal["rate-limited", "server-error", "unreachable"]

_LABELS: dict[str, str] = {
    "rate-limited": "rate-limited",
    "server-error": "server error",
    "unreachable": "server unreachable",
}


@dataclass(frozen=True, eq=False)
class RetryWait:
    """One request sleeping before its next attempt.

    ``reason``: ``rate-limited`` (429), ``server-error`` (408/5xx) or ``unreachable``
    (connection failed or timed out). ``retry_at`` is on the :func:`time.monotonic` clock;
    :meth:`seconds_left` counts down to it, :meth:`describe` says it for a status line."""

    reason: WaitReason
    method: str
    path: str
    status: int | None
    attempt: int  # the retry this wait leads to: 1 for the first retry
    seconds: float
    retry_at: float = field(default=0.0)

    def seconds_left(self, now: float | None = None) -> float:
        return max(0.0, self.retry_at - (time.monotonic() if now is None else now))

    def describe(self, now: float | None = None) -> str:
        """E.g. ``rate-limited, retrying in 23 s`` (whole seconds, rounded up)."""
        left = math.ceil(self.seconds_left(now))
        return f"{_LABELS[self.reason]}, retrying in {left} s"


WaitListener = Callable[[RetryWait | None], None]


class RetryWaits:
    """The waits under way, and who wants to hear about them.

    A listener is called (in the event loop running the request) with the wait that now
    ends last, or ``None`` when no request is waiting any more: when a wait starts, and when
    it ends, whether it ran out or was cancelled. Listener errors are logged, never raised
    into the request."""

    def __init__(self, sleep: Callable[[float], Awaitable[None]]) -> None:
        self._sleep = sleep
        self._active: list[RetryWait] = []
        self._listeners: list[WaitListener] = []

    @property
    def active(self) -> tuple[RetryWait, ...]:
        return tuple(self._active)

    @property
    def current(self) -> RetryWait | None:
        """The wait ending last, or ``None``."""
        return max(self._active, key=lambda wait: wait.retry_at, default=None)

    def watch(self, listener: WaitListener) -> Callable[[], None]:
        """Call ``listener`` on every change; returns the function that stops it."""
        self._listeners.append(listener)

        def stop() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return stop

    async def wait(
        self,
        seconds: float,
        *,
        reason: WaitReason,
        method: str,
        path: str,
        status: int | None,
        attempt: int,
    ) -> None:
        """Sleep ``seconds``, visible the while. Cancelling the awaiting task ends the sleep
        at once (the ``CancelledError`` propagates; the wait is withdrawn)."""
        wait = RetryWait(reason, method, path, status, attempt, seconds, time.monotonic() + seconds)
        self._active.append(wait)
        self._changed()
        try:
            await self._sleep(seconds)
        finally:
            self._active.remove(wait)
            self._changed()

    def _changed(self) -> None:
        current = self.current
        for listener in list(self._listeners):
            try:
                listener(current)
            except Exception:  # a broken status line must not break requests
                log.exception("retry-wait listener %r failed", listener)
