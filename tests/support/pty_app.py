"""PtyApp: the real ``gitbook-tui`` process in a pseudo-terminal, its screen read back as text.

For tests of what only a real process shows (signals, the terminal going away). The screen
is a small emulation of what Textual writes (cursor moves and text; colours dropped), good
enough to wait for words on it. Dirs (HOME, XDG_*) are the caller's temporary ones.
"""

from __future__ import annotations

import codecs
import contextlib
import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable
from pathlib import Path

from .home_dirs import home_env
from .worlds import Template, copy_file

SRC = Path(__file__).resolve().parents[2] / "src"
_ESCAPE = re.compile(
    r"\x1b\[([0-9;?<>=]*)[ -/]*([@-~])"  # CSI
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"  # OSC
    r"|\x1bP[^\x1b]*\x1b\\"  # DCS
    r"|\x1b[()][0-9A-Za-z]|\x1b[=>78]"
)


class PtyScreen:
    """The characters on a ``rows`` x ``cols`` terminal after the bytes fed so far."""

    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols = rows, cols
        self.grid = [[" "] * cols for _ in range(rows)]
        self.y = self.x = 0
        self._pending = ""  # an escape sequence cut by the end of a read

    def feed(self, data: str) -> None:
        data, self._pending = self._pending + data, ""
        cut = data.rfind("\x1b")
        if cut >= 0 and not _ESCAPE.match(data, cut) and len(data) - cut < 256:
            data, self._pending = data[:cut], data[cut:]
        pos = 0
        for match in _ESCAPE.finditer(data):
            self._put(data[pos : match.start()])
            pos = match.end()
            final, params = match.group(2), (match.group(1) or "")
            if final == "H":
                parts = [*params.split(";"), "", ""]
                self.y = int(parts[0] or 1) - 1
                self.x = int(parts[1] or 1) - 1
            elif final == "J" and params in ("", "2"):
                self.grid = [[" "] * self.cols for _ in range(self.rows)]
        self._put(data[pos:])

    def _put(self, text: str) -> None:
        for char in text:
            if char == "\r":
                self.x = 0
            elif char == "\n":
                self.y += 1
            elif char >= " ":
                if 0 <= self.y < self.rows and 0 <= self.x < self.cols:
                    self.grid[self.y][self.x] = char
                self.x += 1

    def text(self) -> str:
        return "\n".join("".join(row).rstrip() for row in self.grid)


class PtyApp:
    """``python -m gitbook_tui.cli *args`` in a pty of ``rows`` x ``cols``, dirs under ``home``."""

    def __init__(self, home: Path, *args: str, rows: int = 40, cols: int = 120) -> None:
        self.home = home
        env = {  # no COLUMNS/LINES: they would win over the pty's size
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("GITBOOK_", "TEXTUAL")) and k not in ("COLUMNS", "LINES")
        }
        env.update(home_env(home))
        env.update(
            TERM="xterm-256color",
            COLORTERM="truecolor",
            PYTHONPATH=os.pathsep.join([str(SRC), env.get("PYTHONPATH", "")]),
        )
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.master = master
        self.screen = PtyScreen(rows, cols)
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gitbook_tui.cli", *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            start_new_session=True,  # its own session with the pty as controlling terminal
            close_fds=True,
        )
        os.close(slave)
        self._poller = select.poll()
        self._poller.register(self.master, select.POLLIN)

    def pump(self, seconds: float = 0.1) -> None:
        """Read what the app wrote for up to ``seconds``."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            # poll, not select: a long test process may hold fds above select's 1024
            if not self._poller.poll(left * 1000):
                return
            try:
                data = os.read(self.master, 65536)
            except OSError:  # the app ended: the pty is closed
                return
            if not data:
                return
            self.screen.feed(self._decoder.decode(data))

    def until(self, condition: Callable[[], object], timeout: float = 90.0) -> None:
        """Keep reading the screen until ``condition()`` holds (fails with the screen)."""
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise AssertionError(f"condition not reached; screen:\n{self.screen.text()}")
            self.pump(0.02)  # (the condition is looked at again after each short read)

    def until_text(self, text: str, timeout: float = 90.0) -> None:
        self.until(lambda: text in self.screen.text(), timeout)

    def send(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def signal(self, sig: int) -> None:
        self.process.send_signal(sig)

    def wait(self, timeout: float = 60.0) -> int:
        """The exit status (negative: killed by that signal), reading output meanwhile so
        the app never blocks on a full pty."""
        deadline = time.monotonic() + timeout
        while self.process.poll() is None:
            if time.monotonic() > deadline:
                raise AssertionError("the app did not exit")
            self.pump(0.05)
        return self.process.returncode

    def close(self) -> None:
        # its own session: whatever it started (the demo's server) goes with the group
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        os.close(self.master)


def demo_in_pty(home: Path, demo_template: Template) -> PtyApp:
    """``gitbook-tui --demo`` in a pty, its demo database copied from the seeded template
    (seeded once per test process) rather than seeded by its server from nothing."""
    copy_file(demo_template, home / "data" / "gitbook-tui" / "demo.sqlite")
    return PtyApp(home, "--demo")
