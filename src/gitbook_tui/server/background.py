"""BackgroundStart: the local server started in a daemon thread, its URL known at once.

Light on purpose (sockets and threads only): the server itself — FastAPI, the storage,
seeding a new demo database, which takes seconds — is imported and prepared inside the
thread, while the app draws its first frame.
"""

from __future__ import annotations

import asyncio
import socket
import threading
from pathlib import Path
from typing import Any

__all__ = ["BackgroundStart", "bind_preferred", "bind_socket"]


def bind_socket(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP named explicitly: asyncio turns on TCP_NODELAY only for sockets whose proto
    # says TCP, and without it every small answer waits ~40 ms for the client's delayed ACK.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def bind_preferred(host: str, port: int, preferred_port: int | None) -> socket.socket:
    """A socket on ``port`` (0: ``preferred_port`` when it is free, else any free port)."""
    if port == 0 and preferred_port:
        try:
            return bind_socket(host, preferred_port)
        except OSError:
            pass  # taken (another demo running): any free port will do
    return bind_socket(host, port)


class BackgroundStart:
    """A server starting in a daemon thread (seeding a new demo database takes seconds):
    its URL is known at once; :meth:`poll` says when it serves (or raises why it cannot)."""

    def __init__(
        self,
        db: str | Path,
        *,
        host: str = "127.0.0.1",
        preferred_port: int | None = None,
        demo: bool = False,
    ) -> None:
        sock = bind_preferred(host, 0, preferred_port)
        shown_host = f"[{host}]" if ":" in host else host
        self.url = f"http://{shown_host}:{sock.getsockname()[1]}/v1"
        self._server: Any = None
        self._error: BaseException | None = None
        self._stopping = False

        def run() -> None:
            try:
                from .runner import prepare

                server, _, _, _ = prepare(db, host=host, sock=sock, demo=demo)
                server.config.install_signal_handlers = False  # type: ignore[attr-defined]
                self._server = server
                if self._stopping:
                    return
                asyncio.run(server.serve(sockets=[sock]))
            except BaseException as exc:  # reported by poll()
                self._error = exc

        self.thread = threading.Thread(target=run, name="gitbook-tui-server", daemon=True)
        self.thread.start()

    def poll(self) -> bool:
        """True once the server accepts connections; raises what stopped it starting."""
        if self._error is not None:
            raise RuntimeError(f"the local server did not start: {self._error}")
        return self._server is not None and bool(self._server.started)

    def stop(self, timeout: float = 10.0) -> None:
        self._stopping = True
        if self._server is not None:
            self._server.should_exit = True
        self.thread.join(timeout)

    def __repr__(self) -> str:
        return f"BackgroundStart(url={self.url!r})"
