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
    instead of starting it again."""

    def __init__(self) -> None:
        self._pending: dict[K, asyncio.Future[T]] = {}

    async def run(self, key: K, start: Callable[[], Awaitable[T]]) -> T:
        """The result of the work for ``key``, started with ``start()`` if none runs."""
        pending = self._pending.get(key)
        if pending is None:
            pending = asyncio.ensure_future(start())
            self._pending[key] = pending

            def done(future: asyncio.Future[T]) -> None:
                if self._pending.get(key) is future:
                    del self._pending[key]
                if not future.cancelled():
                    future.exception()  # retrieved: never "exception was never retrieved"

            pending.add_done_callback(done)
        # shielded: a cancelled caller (an exclusive worker replaced) leaves it to the others
        return await asyncio.shield(pending)
