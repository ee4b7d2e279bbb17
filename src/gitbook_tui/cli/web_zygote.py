"""The zygote of ``gitbook-tui web``: one process that has imported the app, forking one
app process per browser session, so that a session does not pay the app's imports.

``Zygote`` (in the web server) binds a unix socket (mode 0600, in a folder of its own,
0700) and runs ``python -m gitbook_tui.cli.web_zygote FD`` on it, with the environment a
session gets minus everything per user (no token): Textual reads its settings from the
environment when imported. The zygote imports the app, then serves: for each
launcher (``cli/web_launcher.py``, the protocol is there) it receives the session's
streams and environment and forks. The child takes them over and runs the session
(``web_session.main``); the zygote relays the launcher's signals to it, kills it if the
launcher vanishes, and reports its exit. The zygote itself holds no thread, no event loop
and nothing of any user; it ends, with its sessions, when the web server does (its
standard input, a pipe from the server, closes).
"""

from __future__ import annotations

import contextlib
import gc
import os
import select
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from .web_launcher import LENGTH, NUMBER, decode_request, recv_exactly

__all__ = ["Zygote", "import_matters", "launcher_command", "main"]

STOP_GRACE = 2.0
"""Seconds the sessions have to end after SIGTERM when the zygote stops, before SIGKILL."""

HANDOVER_TIMEOUT = 10.0
"""Seconds a launcher has to send its session once connected."""

FD_COUNT = 3


def import_matters(name: str) -> bool:
    """Whether a module may read this environment variable when imported or prepared
    (Textual's settings, Python's own, Rich's character widths): a session whose value
    differs from the zygote's cannot be forked."""
    return name.startswith(("TEXTUAL", "PYTHON")) or name in ("ESCDELAY", "UNICODE_VERSION")


def launcher_command(socket_path: Path) -> str:
    """The shell command textual-serve runs for a session: the launcher, started as lightly
    as Python starts (``-I -S``: no site packages, no environment settings)."""
    import shlex

    script = Path(__file__).with_name("web_launcher.py")
    return (
        f"exec {shlex.quote(sys.executable)} -I -S {shlex.quote(str(script))} "
        f"{shlex.quote(str(socket_path))}"
    )


class Zygote:
    """The zygote's process, seen from the web server."""

    def __init__(self, env: Mapping[str, str]) -> None:
        base = os.environ.get("XDG_RUNTIME_DIR")
        if not base or not os.access(base, os.W_OK):
            base = None
        self.folder = Path(tempfile.mkdtemp(prefix="gitbook-tui-web-", dir=base))  # 0700
        self.socket_path = self.folder / "zygote.sock"
        # bound here, so that it exists as soon as the server serves: launchers queue on it
        # while the zygote imports the app
        listener = _listen(self.socket_path)
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "gitbook_tui.cli.web_zygote", str(listener.fileno())],
                stdin=subprocess.PIPE,  # never written: its end tells the zygote to stop
                env=dict(env),
                pass_fds=[listener.fileno()],
            )
        finally:
            listener.close()

    @property
    def pid(self) -> int:
        return self.process.pid

    def command(self) -> str:
        return launcher_command(self.socket_path)

    def stop(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(STOP_GRACE * 2)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


@dataclass
class _Session:
    conn: socket.socket
    pid: int
    reaped: bool = False
    launcher_gone: bool = False


def _listen(path: Path) -> socket.socket:
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    old = os.umask(0o177)
    try:
        listener.bind(str(path))
    finally:
        os.umask(old)
    os.chmod(path, 0o600)
    listener.listen(64)
    return listener


class _Server:
    def __init__(self, listener: socket.socket) -> None:
        self.listener = listener
        self.sessions: dict[int, _Session] = {}  # by pid
        self.environ = dict(os.environ)
        self.wake_r, self.wake_w = os.pipe()
        os.set_blocking(self.wake_w, False)
        self.stopping = False

    def _stop(self, signum: int, frame: object) -> None:
        self.stopping = True

    def serve(self) -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # ctrl+c: the web server stops us
        signal.signal(signal.SIGCHLD, lambda signum, frame: None)
        signal.signal(signal.SIGTERM, self._stop)  # its sessions end with it
        signal.set_wakeup_fd(self.wake_w)
        try:
            while self._step():
                pass
        finally:
            self._stop_all()

    def _step(self) -> bool:
        launchers = [s.conn for s in self.sessions.values() if not s.launcher_gone]
        watched: list[socket.socket | int] = [self.listener, 0, self.wake_r, *launchers]
        # poll, not select: the listener keeps the number it had in the web server's process,
        # which may be past select's limit (1024) in a process holding many files
        poller = select.poll()
        by_number: dict[int, socket.socket | int] = {}
        for item in watched:
            number = item if isinstance(item, int) else item.fileno()
            by_number[number] = item
            poller.register(number, select.POLLIN)
        try:
            readable = [by_number[number] for number, _ in poller.poll()]
        except InterruptedError:
            readable = []
        for item in readable:
            if item == 0:
                if not os.read(0, 4096):
                    return False  # the web server has gone
            elif item == self.wake_r:
                with contextlib.suppress(BlockingIOError):
                    os.read(self.wake_r, 4096)
            elif item is self.listener:
                self._accept()
            elif isinstance(item, socket.socket):
                self._relay(item)
        self._reap()
        return not self.stopping

    def _accept(self) -> None:
        try:
            conn, _ = self.listener.accept()
        except OSError:
            return
        try:
            uid = struct.unpack("3i", conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12))[1]
            if uid != os.getuid():
                conn.close()
                return
            conn.settimeout(HANDOVER_TIMEOUT)
            header, fds, _, _ = socket.recv_fds(conn, LENGTH.size, FD_COUNT)
        except OSError:
            conn.close()
            return
        try:
            if len(header) != LENGTH.size or len(fds) != FD_COUNT:
                raise ConnectionError("a launcher sent no streams")
            (size,) = LENGTH.unpack(header)
            cwd, env = decode_request(recv_exactly(conn, size, "the launcher left"))
            differ = sorted(
                name
                for name in {*env, *self.environ}
                if import_matters(name) and env.get(name) != self.environ.get(name)
            )
            if differ:  # imported under other settings: the launcher runs the app itself
                print(
                    "gitbook-tui web: a session's settings differ from the zygote's "
                    f"({', '.join(differ)}): it starts a Python of its own",
                    file=sys.stderr,
                )
                conn.sendall(b"R")
                raise ConnectionError("refused")
            pid = os.fork()
            if pid == 0:
                self._child(conn, fds, env, cwd)  # never returns
            conn.settimeout(None)
            self.sessions[pid] = _Session(conn, pid)
            conn.sendall(b"P" + NUMBER.pack(pid))
        except (OSError, ValueError):
            conn.close()
        finally:
            for fd in fds:  # the app holds them now: nothing else may keep its pipes open
                os.close(fd)

    def _child(self, conn: socket.socket, fds: list[int], env: dict[str, str], cwd: str) -> None:
        code = 1
        try:
            signal.set_wakeup_fd(-1)
            for sig in (signal.SIGCHLD, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
                signal.signal(sig, signal.SIG_DFL)
            signal.signal(signal.SIGINT, signal.default_int_handler)
            for target, fd in enumerate(fds):
                os.dup2(fd, target)
            for fd in (*fds, self.wake_r, self.wake_w):
                os.close(fd)
            conn.close()
            self.listener.close()
            for session in self.sessions.values():
                session.conn.close()
            os.environ.clear()
            os.environ.update(env)
            os.chdir(cwd)
            from .web_session import main as run_session

            code = run_session()
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        except BaseException:
            traceback.print_exc()
        finally:
            with contextlib.suppress(Exception):
                import logging

                logging.shutdown()
                sys.stdout.flush()
                sys.stderr.flush()
            os._exit(code)

    def _relay(self, conn: socket.socket) -> None:
        session = next(s for s in self.sessions.values() if s.conn is conn)
        try:
            data = conn.recv(64)
        except OSError:
            data = b""
        if session.reaped:
            return
        if not data:  # the launcher was killed: so is its app
            session.launcher_gone = True
            with contextlib.suppress(ProcessLookupError):
                os.kill(session.pid, signal.SIGKILL)
            return
        for signum in data:
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.kill(session.pid, signum)

    def _reap(self) -> None:
        while self.sessions:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            session = self.sessions.pop(pid, None)
            if session is None:
                continue
            session.reaped = True
            with contextlib.suppress(OSError):
                session.conn.sendall(b"X" + NUMBER.pack(os.waitstatus_to_exitcode(status)))
            session.conn.close()

    def _stop_all(self) -> None:
        for session in self.sessions.values():
            with contextlib.suppress(ProcessLookupError):
                os.kill(session.pid, signal.SIGTERM)
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        import time

        deadline = time.monotonic() + STOP_GRACE
        while self.sessions and time.monotonic() < deadline:
            self._reap()
            time.sleep(0.05)
        for session in self.sessions.values():
            with contextlib.suppress(ProcessLookupError):
                os.kill(session.pid, signal.SIGKILL)
        self._reap()


def main() -> int:
    if len(sys.argv) != 2 or not sys.argv[1].isdigit():
        print("usage: python -m gitbook_tui.cli.web_zygote LISTENING-FD", file=sys.stderr)
        return 2
    listener = socket.socket(fileno=int(sys.argv[1]))
    from .web_session import prepare

    prepare()
    gc.collect()
    gc.freeze()  # the sessions share these objects' pages instead of copying them
    path = Path(listener.getsockname())
    try:
        _Server(listener).serve()
    finally:
        listener.close()
        # (the web server removes them too; not when it was killed)
        with contextlib.suppress(OSError):
            path.unlink()
            path.parent.rmdir()
    return 0


if __name__ == "__main__":
    sys.exit(main())
