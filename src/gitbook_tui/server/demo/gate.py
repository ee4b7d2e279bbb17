"""SeedingGate: while the demo's second phase is being written, a request for what it adds
waits for it, so the app never sees a demo half made (a space without its pages)."""

from __future__ import annotations

import asyncio
import re
import threading
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

__all__ = ["SeedingGate"]

Scope = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Any, Any], Awaitable[None]]

# Complete once the first phase is: the organization, its people, collections and spaces
# (the app's first screen), and the pages (and search) of the written spaces. Everything
# else (the generated spaces, threads, change requests, sites, search across the
# organization, integrations, …) and every write waits for the second.
_READY_AFTER_STRUCTURE = re.compile(
    r"/v1/(user|users/[^/]+|orgs|orgs/[^/]+(/(members|teams|collections|spaces)(/.*)?)?"
    r"|collections/[^/]+(/.*)?)"
)
_SPACE = re.compile(r"/v1/spaces/(?P<space>[^/]+)(?P<rest>/[^/]*)?")
_SPACE_PARTS_LATER = {"/comments", "/change-requests", "/integrations"}


class SeedingGate:
    """An ASGI app in front of the server's: until :meth:`open` (called from the seeding
    thread when the second phase is committed), requests for data that phase writes wait;
    the rest pass at once. ``later_spaces``: spaces whose pages the second phase writes."""

    def __init__(self, app: ASGIApp, later_spaces: set[str]) -> None:
        self.app = app
        self._later_spaces = frozenset(later_spaces)
        self._open = threading.Event()
        self._lock = threading.Lock()
        self._waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = []
        self._running = 0  # requests being answered (not the held ones)
        self._answered = 0
        self._last_end = 0.0

    @property
    def is_open(self) -> bool:
        return self._open.is_set()

    def open(self) -> None:
        """Let every request through from now on (and the waiting ones go on)."""
        with self._lock:
            self._open.set()
            waiters, self._waiters = self._waiters, []
        for loop, event in waiters:
            loop.call_soon_threadsafe(event.set)

    def must_wait(self, method: str, path: str) -> bool:
        """Whether a request needs the second phase (only asked while the gate is shut)."""
        if not path.startswith("/v1/"):
            return False  # file downloads: their links come from answers that waited
        if method not in ("GET", "HEAD"):
            return True  # a write waits: the seeding holds the database's write lock
        if _READY_AFTER_STRUCTURE.fullmatch(path):
            return False
        space = _SPACE.match(path)
        if space is None:
            return True
        return space["space"] in self._later_spaces or space["rest"] in _SPACE_PARTS_LATER

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if (
            scope["type"] == "http"
            and not self._open.is_set()
            and self.must_wait(scope["method"], scope["path"])
        ):
            event = asyncio.Event()
            with self._lock:
                if not self._open.is_set():
                    self._waiters.append((asyncio.get_running_loop(), event))
                else:
                    event.set()
            await event.wait()
        with self._lock:
            self._running += 1
        try:
            await self.app(scope, receive, send)
        finally:
            with self._lock:
                self._running -= 1
                self._answered += 1
                self._last_end = time.monotonic()

    def wait_for_a_lull(
        self, stop: threading.Event, *, quiet: float = 0.25, longest: float = 2.0
    ) -> None:
        """Block until the app's first requests are answered: at least one answered and none
        running for ``quiet`` seconds (at most ``longest`` seconds, or until ``stop``; at
        once when a request waits for the second phase). The second phase starts then, so
        the first screen's answers do not share the CPU with it."""
        deadline = time.monotonic() + longest
        while time.monotonic() < deadline and not stop.is_set():
            with self._lock:
                settled = bool(self._waiters) or (  # someone waits for the second phase
                    self._answered > 0
                    and self._running == 0
                    and time.monotonic() - self._last_end >= quiet
                )
            if settled:
                return
            stop.wait(0.02)
