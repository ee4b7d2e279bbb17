"""SpareSession: a browser session's app started when its page is served, before the page's
websocket asks for it.

A page's scripts take the browser most of a second to load and run before they open the
websocket (textual-serve starts the app only then); the app's own start takes about as
long. Started with the page, the app starts while the browser loads: what it writes
meanwhile is kept and sent first once the websocket connects. It starts at the size the
last page asked for (the page's own is known only from its websocket): a page of another
size gets an app of its own, as without a spare (a resize sent to an app still starting
could be overtaken by its driver's first size). A spare no page claims within
:data:`SPARE_TTL` seconds is stopped (its page was never run: a link preview, a script
fetching ``/``); one spare at a time, reused by the next page served.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from aiohttp import web

    from .web_server import SessionService

__all__ = ["SPARE_TTL", "SpareSession"]

SPARE_TTL = 20.0
"""Seconds a spare session waits for its page's websocket before it is stopped."""


class _Writers(Protocol):
    def __call__(
        self,
        *,
        write_bytes: Callable[[bytes], Awaitable[None]],
        write_str: Callable[[str], Awaitable[None]],
        close: Callable[[], Awaitable[object]],
    ) -> SessionService: ...


class SpareSession:
    """One session's app, started before its websocket: its output kept until then."""

    def __init__(self, make: _Writers, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self._output: list[bytes | str] = []
        self._ended = False
        self.service = make(write_bytes=self._keep, write_str=self._keep, close=self._end)
        self._started: asyncio.Task[bool] | None = None

    async def _keep(self, data: bytes | str) -> None:
        self._output.append(data)

    async def _end(self) -> None:
        self._ended = True

    def start(self, ready: Callable[[], Awaitable[bool]]) -> None:
        """Start the app (once ``ready`` says the server it needs is: False, it never is)."""

        async def run() -> bool:
            if not await ready():
                return False
            await self.service.start(self.width, self.height)
            return True

        self._started = asyncio.create_task(run())

    async def started(self) -> bool:
        """Whether the app was started (waits for the start to be done)."""
        if self._started is None:
            return False
        try:
            return await self._started
        except Exception:
            return False

    def alive(self) -> bool:
        return not self._ended and self.service.running

    async def hand_to(self, websocket: web.WebSocketResponse, width: int, height: int) -> bool:
        """Connect the app to the page's (prepared) websocket: first what it wrote meanwhile.
        False if the page's size is not the app's, or it did not start or has ended already
        (the caller stops it and starts another)."""
        if (width, height) != (self.width, self.height):
            return False
        if not await self.started() or not self.alive():
            return False
        while self._output:  # (the app may write more while this sends: kept, sent here)
            data = self._output.pop(0)
            if isinstance(data, bytes):
                await websocket.send_bytes(data)
            else:
                await websocket.send_str(data)
        service = self.service
        service.remote_write_bytes = websocket.send_bytes
        service.remote_write_str = websocket.send_str
        service.remote_close = _closer(websocket)
        if self._ended:  # it ended while its output was sent
            await websocket.close()
        return True

    async def stop(self) -> None:
        """End the app no page took (after its start, if that is still under way): killed,
        not asked to quit, for it had no user: quitting, it would save the state it had
        restored (a tree still loading: the cursor on its top row) over what the user's own
        session saves."""
        with contextlib.suppress(Exception):
            await self.started()
        self.service.kill_now()
        await self.service.stop()


def _closer(websocket: web.WebSocketResponse) -> Callable[[], Awaitable[None]]:
    async def close() -> None:
        await websocket.close()

    return close
