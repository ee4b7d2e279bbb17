"""SharedWork: one run of keyed async work at a time, shared by every caller that asks."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable
from typing import Generic, TypeVar

__all__ = ["SharedWork"]

K = TypeVar("K", bound=Hashable)
T = TypeVar("T")


class SharedWork(Generic[K, T]):
    """Work keyed by ``K``: asking for work already under way waits for the same result
    instead of starting it again. A caller cancelled (an exclusive worker replaced) leaves
    the work to the others; when the last one waiting is cancelled the work is cancelled
    too — a read sleeping through a rate limit for a page nobody shows any more stops."""

    def __init__(self) -> None:
        self._pending: dict[K, asyncio.Future[T]] = {}
        self._waiting: dict[asyncio.Future[T], int] = {}

    async def run(self, key: K, start: Callable[[], Awaitable[T]]) -> T:
        """The result of the work for ``key``, started with ``start()`` if none runs."""
        pending = self._pending.get(key)
        if pending is None:
            pending = asyncio.ensure_future(start())
            self._pending[key] = pending

            def done(future: asyncio.Future[T]) -> None:
                if self._pending.get(key) is future:
                    del self._pending[key]
                self._waiting.pop(future, None)
                if not future.cancelled():
                    future.exception()  # retrieved: never "exception was never retrieved"

            pending.add_done_callback(done)
        self._waiting[pending] = self._waiting.get(pending, 0) + 1
        try:
            # shielded: a cancelled caller leaves it to the others
            return await asyncio.shield(pending)
        except asyncio.CancelledError:
            if not pending.done() and self._waiting.get(pending, 0) <= 1:
                # nobody else waits: forget it at once (a new caller starts afresh) and stop it
                if self._pending.get(key) is pending:
                    del self._pending[key]
                pending.cancel()
            raise
        finally:
            left = self._waiting.get(pending, 0) - 1
            if left > 0:
                self._waiting[pending] = left
            else:
                self._waiting.pop(pending, None)
