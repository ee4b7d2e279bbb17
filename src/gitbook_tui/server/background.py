"""BackgroundStart: the local server started in a process of its own (or a daemon thread),
its URL known at once.

Light on purpose (sockets, processes and threads only): the server itself — FastAPI, the
storage, seeding a new demo database, which takes seconds — is imported and prepared in the
server's process while the app draws its first frames.
"""

from __future__ import annotations

import asyncio
import os
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

__all__ = ["BackgroundStart", "bind_preferred", "bind_socket", "holds_demo"]

DEMO_MARKS = ("demo_seed", "demo_org", "owner")
"""The meta keys of a seeded demo database (:func:`.demo.seed.seed_phase`: any of them and
the workspace the app's first screen needs is there)."""


def holds_demo(db: str | Path) -> bool:
    """Whether ``db`` holds a seeded demo already (its first phase at least): its server
    then only imports and opens it before it serves — nothing to seed."""
    if not Path(db).is_file():
        return False
    try:
        conn = sqlite3.connect(f"{Path(db).resolve().as_uri()}?mode=ro", uri=True, timeout=1.0)
        try:
            marks = ",".join("?" * len(DEMO_MARKS))
            found = conn.execute(f"SELECT 1 FROM meta WHERE key IN ({marks})", DEMO_MARKS)
            return found.fetchone() is not None
        finally:
            conn.close()
    except sqlite3.Error:  # not a database, no meta table yet, locked: as if new
        return False


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
    """A server starting in the background (seeding a new demo database takes seconds): its
    URL is known at once; :meth:`poll` says when it serves (or raises why it cannot).

    On POSIX it runs in a process of its own (:func:`_serve`):
    importing and seeding it there takes nothing from the app's own start, on another core.
    The process serves on the socket bound here and stops when its stdin closes — when
    :meth:`stop` closes it, or when the app is gone, however it ended. Elsewhere it runs
    in a daemon thread."""

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
        self.seeded = not demo
        """True once a demo is wholly seeded (its second phase may follow :meth:`poll`)."""
        self.warm = not demo or holds_demo(db)
        """Whether the server has its data already (only its imports and start before it
        serves). Its socket is listening from now on: requests sent before it serves wait
        for it (queued by the system), so an app can draw from its cache meanwhile."""
        self._ready = False
        self._error: str | None = None
        self._reports = b""
        self._process: subprocess.Popen[bytes] | None = None
        self._server: Any = None
        self._stopping = False
        self.thread: threading.Thread | None = None
        if os.name == "posix":
            self._start_process(db, sock, demo)
        else:
            self._start_thread(db, sock, demo)

    def _start_process(self, db: str | Path, sock: socket.socket, demo: bool) -> None:
        # The same gitbook_tui as this process's: its folder goes first on the server's
        # path only when the default path would find another one (or none).
        root = str(Path(__file__).resolve().parents[2])
        command = [sys.executable, "-c", _CHILD.format(root=root), str(sock.fileno()), str(db)]
        self._process = subprocess.Popen(
            [*command, "--demo"] if demo else command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,  # the terminal belongs to the app
            pass_fds=(sock.fileno(),),
            start_new_session=True,  # ctrl+c and ctrl+z in the terminal are the app's
        )
        sock.close()  # the server process has it now
        assert self._process.stdout is not None
        os.set_blocking(self._process.stdout.fileno(), False)

    def _start_thread(self, db: str | Path, sock: socket.socket, demo: bool) -> None:
        def run() -> None:
            try:
                from .runner import prepare

                server, _, _, _ = prepare(db, sock=sock, demo=demo)
                server.config.install_signal_handlers = False  # type: ignore[attr-defined]
                self._server = server
                self.seeded = True
                if self._stopping:
                    return
                asyncio.run(server.serve(sockets=[sock]))
            except BaseException as exc:  # reported by poll()
                self._error = str(exc)

        self.thread = threading.Thread(target=run, name="gitbook-tui-server", daemon=True)
        self.thread.start()

    @property
    def pid(self) -> int | None:
        """The server process's id (None when it runs in a thread)."""
        return self._process.pid if self._process is not None else None

    def poll(self) -> bool:
        """True once the server accepts connections; raises what stopped it starting."""
        self._read_reports()
        if self._error is not None and not self._ready:
            raise RuntimeError(f"the local server did not start: {self._error}")
        if self._process is None:
            self._ready = self._server is not None and bool(self._server.started)
        return self._ready

    def _read_reports(self) -> None:
        process = self._process
        if process is None or process.stdout is None or process.stdout.closed:
            return
        ended = False
        while not ended:
            try:
                chunk = os.read(process.stdout.fileno(), 4096)
            except BlockingIOError:
                break
            ended = not chunk  # the process is ending
            self._reports += chunk
        *lines, self._reports = self._reports.split(b"\n")
        for line in lines:
            word, _, rest = line.decode("utf-8", "replace").partition(" ")
            if word == "serving":
                self._ready = True
            elif word == "seeded":
                self.seeded = True
            elif word == "error":
                self._error = rest
        if ended:
            process.stdout.close()
            if not self._ready and self._error is None:
                self._error = f"the server process ended (exit code {process.wait()})"

    def wait_seeded(self, timeout: float) -> bool:
        """Wait (up to ``timeout`` seconds) until a demo is wholly seeded (benchmarks, tests)."""
        deadline = time.monotonic() + timeout
        while not self.seeded and time.monotonic() < deadline:
            self.poll()
            time.sleep(0.02)
        return self.seeded

    def stop(self, timeout: float = 10.0) -> None:
        self._stopping = True
        process = self._process
        if process is not None:
            if process.stdin is not None:
                process.stdin.close()  # the server process's cue to stop
            try:
                process.wait(timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            if process.stdout is not None:
                process.stdout.close()
            return
        if self._server is not None:
            self._server.should_exit = True
        if self.thread is not None:
            self.thread.join(timeout)

    def __repr__(self) -> str:
        return f"BackgroundStart(url={self.url!r})"


_CHILD = """import sys
from importlib.util import find_spec
found = find_spec("gitbook_tui")
if found is None or not (found.origin or "").startswith({root!r}):
    sys.path.insert(0, {root!r})
from gitbook_tui.server.background import _serve
sys.exit(_serve(sys.argv[1:]))
"""


def _serve(argv: list[str]) -> int:
    """The server process: ``FD DB [--demo]``; reports "serving", "seeded" or "error …"
    lines on stdout; stops when stdin closes."""
    fd, db, *flags = argv
    stopping = threading.Event()

    def watch_parent() -> None:
        try:
            sys.stdin.buffer.read()  # returns at end of file: stop() or the app gone
        finally:
            stopping.set()

    def report(line: str) -> None:
        try:
            sys.stdout.write(line.replace("\n", " ") + "\n")
            sys.stdout.flush()
        except OSError:
            stopping.set()  # nobody listens any more

    threading.Thread(target=watch_parent, name="parent-watch", daemon=True).start()
    try:
        from .runner import serve_on

        sock = socket.socket(fileno=int(fd))
        serve_on(sock, db, demo="--demo" in flags, report=report, stopping=stopping)
    except BaseException as exc:
        report(f"error {str(exc) or type(exc).__name__}")
        return 1
    return 0
