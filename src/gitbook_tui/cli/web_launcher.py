"""A browser session's launcher: hands the session to the pre-imported app (the zygote).

textual-serve runs this for each browser session (``python -I -S web_launcher.py SOCKET``,
see ``cli/web.py``): standard library only, no site packages, no package import, so it
starts in a few tens of milliseconds where the app's own imports take over a second. It
passes its standard streams (the pipes textual-serve reads and writes) and its environment
to the zygote (``cli/web_zygote.py``) over the zygote's private unix socket; the zygote
forks an app process that takes them over. The launcher then stands in for that process:
the signals textual-serve sends it reach the app, and it exits as the app did. Should the
zygote be unreachable, it runs the app itself (``python -m gitbook_tui.cli.web_session``).

The protocol (shared with the zygote): the launcher sends a 4-byte big-endian length with
the three descriptors attached, then that many bytes: its working folder and its
environment's ``NAME=value`` entries, each ending with a NUL byte (``encode_request``). The zygote
answers ``P`` + the app's pid (4 bytes), or ``R`` (refused: the launcher runs the app
itself); then, once the app has ended, ``X`` + its exit code (4 bytes, signed: minus the
signal's number when a signal ended it). Meanwhile each byte the launcher sends is a signal
for the app.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import struct
import sys

__all__ = [
    "FORWARDED",
    "REPLY_TIMEOUT",
    "decode_request",
    "encode_request",
    "launch",
    "main",
    "recv_exactly",
]

FORWARDED = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT)
"""Signals the app gets when the launcher does (textual-serve stops a session with SIGTERM,
then SIGKILL: the zygote kills the app when the launcher's connection closes)."""

REPLY_TIMEOUT = 30.0
"""Seconds to wait for the zygote's answer (it may still be importing the app)."""

LENGTH = struct.Struct("!I")
NUMBER = struct.Struct("!i")


def encode_request(cwd: bytes, environ: dict[bytes, bytes]) -> bytes:
    """(No JSON: its import, with ``re``'s, is most of a bare Python's start.)"""
    return b"".join(
        [cwd + b"\0", *(name + b"=" + value + b"\0" for name, value in environ.items())]
    )


def decode_request(data: bytes) -> tuple[str, dict[str, str]]:
    """(working folder, environment) from ``encode_request``'s bytes; ValueError if bad."""
    cwd, *entries = data.split(b"\0")
    if entries[-1:] != [b""]:
        raise ValueError("a request ends with a NUL byte")
    environ = {}
    for entry in entries[:-1]:
        name, equals, value = entry.partition(b"=")
        if not equals or not name:
            raise ValueError("an environment entry is NAME=value")
        environ[os.fsdecode(name)] = os.fsdecode(value)
    return os.fsdecode(cwd), environ


def recv_exactly(
    sock: socket.socket, size: int, gone: str = "the zygote closed the connection"
) -> bytes:
    """``size`` bytes from ``sock`` (ConnectionError saying ``gone`` if its peer left)."""
    data = b""
    while len(data) < size:
        chunk = sock.recv(size - len(data))
        if not chunk:
            raise ConnectionError(gone)
        data += chunk
    return data


def _hand_over(path: str) -> tuple[socket.socket, int] | None:
    """Give the session to the zygote: (the connection, the app's pid), or None when the
    zygote is unreachable or refused it."""
    payload = encode_request(os.getcwdb(), dict(os.environb))
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.settimeout(REPLY_TIMEOUT)
        sock.connect(path)
        socket.send_fds(sock, [LENGTH.pack(len(payload))], [0, 1, 2])
        sock.sendall(payload)
        if recv_exactly(sock, 1) != b"P":
            sock.close()
            return None
        (pid,) = NUMBER.unpack(recv_exactly(sock, NUMBER.size))
    except OSError:
        sock.close()
        return None
    sock.settimeout(None)
    return sock, pid


def _run_app_here() -> None:
    """The fallback: this process becomes the app (the full Python, site packages and all)."""
    os.execv(sys.executable, [sys.executable, "-m", "gitbook_tui.cli.web_session"])


def _end_as(code: int) -> None:
    """Exit as the app did: with its code, or by the signal that ended it."""
    sys.stdout.flush()
    if code < 0:
        with contextlib.suppress(OSError, ValueError):  # (SIGKILL's cannot be set, nor need be)
            signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    os._exit(code if code >= 0 else 128 - code)


def launch(path: str) -> None:
    pending: list[int] = []
    conn: list[socket.socket] = []

    def forward(signum: int, frame: object) -> None:
        if conn:
            with contextlib.suppress(OSError):
                conn[0].send(bytes([signum]))
        else:
            pending.append(signum)

    for sig in FORWARDED:
        signal.signal(sig, forward)
    handed = _hand_over(path)
    if handed is None:
        if pending:  # stopped before anything ran
            _end_as(-pending[0])
        print(
            "gitbook-tui web: no zygote answered: the session starts its own Python",
            file=sys.stderr,
        )
        for sig in FORWARDED:
            signal.signal(sig, signal.SIG_DFL)
        _run_app_here()
        return
    sock, pid = handed
    # The app holds the streams now: textual-serve sees their end when the app's ends.
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.close(null)
    conn.append(sock)
    for signum in pending:
        forward(signum, None)
    try:
        if recv_exactly(sock, 1) == b"X":
            (code,) = NUMBER.unpack(recv_exactly(sock, NUMBER.size))
            _end_as(code)
    except OSError:
        pass
    # The zygote went away under the app: end the app too (its parent is gone).
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGTERM)
    print("gitbook-tui web: the session's zygote ended", file=sys.stderr)
    _end_as(1)


def main() -> None:
    if len(sys.argv) != 2:
        print("usage: web_launcher.py SOCKET", file=sys.stderr)
        sys.exit(2)
    launch(sys.argv[1])


if __name__ == "__main__":
    main()
