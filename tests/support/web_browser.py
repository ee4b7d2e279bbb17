"""``gitbook-tui web`` in a process of its own and Chromium (Playwright) on its pages: start,
find the sessions' processes, read the screen a page draws.

Chromium is Debian's (``apt-get install chromium``): Playwright's own browser download is
not reachable here. When either is missing, :func:`chromium_path` fails the test naming
what to install — never a silent skip.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .waits import until_sync
from .worlds import Template, copy_file

SRC = Path(__file__).resolve().parents[2] / "src"

HOOK = """
// textual.js keeps its xterm.js terminal in a local object: catch that object when its
// constructor sets ``fitAddon``, so the page's screen can be read from its buffer.
Object.defineProperty(Object.prototype, "fitAddon", {
  configurable: true,
  set(value) {
    window.__textual = this;
    Object.defineProperty(this, "fitAddon", {
      value, writable: true, configurable: true, enumerable: true,
    });
  },
});
"""

SCREEN_JS = """() => {
  const t = window.__textual && window.__textual.terminal;
  if (!t) return "";
  const buffer = t.buffer.active, rows = [];
  for (let y = 0; y < t.rows; y++) {
    const line = buffer.getLine(y);
    rows.push(line ? line.translateToString(true) : "");
  }
  return rows.join("\\n");
}"""
"""The characters the page's terminal holds (what it draws on its next animation frame)."""

SHOWS_JS = f"(text) => ({SCREEN_JS})().includes(text)"

NEXT_FRAME_JS = "() => new Promise((done) => requestAnimationFrame(() => done(true)))"
"""Resolves once the page has drawn what its terminal holds (xterm.js draws on a frame)."""


def chromium_path() -> str:
    """Debian's Chromium (or ``$GITBOOK_TUI_CHROMIUM``); AssertionError naming what is
    missing (the browser tests then fail: they are never skipped)."""
    try:
        import playwright  # noqa: F401
    except ImportError as exc:
        raise AssertionError("Playwright for Python is missing: pip install -e '.[test]'") from exc
    given = os.environ.get("GITBOOK_TUI_CHROMIUM")
    found = given or shutil.which("chromium") or shutil.which("chromium-browser")
    if not found or not os.access(found, os.X_OK):
        raise AssertionError(
            "Chromium is missing: apt-get install chromium (Debian's package; "
            "or set GITBOOK_TUI_CHROMIUM to a Chromium executable)"
        )
    return found


def launch_chromium(playwright: Any) -> Any:
    return playwright.chromium.launch(
        executable_path=chromium_path(),
        # no name resolves (the tests' servers are on 127.0.0.1): a link the app opens in
        # a new tab never reaches the network
        args=[
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
        ],
    )


def screen_text(page: Any) -> str:
    return "\n".join(row.rstrip() for row in page.evaluate(SCREEN_JS).split("\n"))


def wait_text(page: Any, text: str, timeout: float = 20.0) -> None:
    """Wait until the page has drawn ``text`` (fails showing the screen)."""
    try:
        page.wait_for_function(SHOWS_JS, arg=text, timeout=timeout * 1000, polling=20)
    except Exception as exc:
        raise AssertionError(f"{text!r} not drawn; the page shows:\n{screen_text(page)}") from exc
    page.evaluate(NEXT_FRAME_JS)


def open_app(page: Any, url: str, text: str = "Lanternfish Labs") -> None:
    """Load the app's page, wait for ``text`` and give the terminal the keyboard."""
    page.add_init_script(HOOK)
    page.goto(url)
    wait_text(page, text, timeout=60.0)
    page.focus(".xterm-helper-textarea")


def press(page: Any, *keys: str) -> None:
    for key in keys:
        page.keyboard.press(key)


class WebProcess:
    """``python -m gitbook_tui.cli web --port 0 *args`` with its folders under ``home``."""

    def __init__(self, home: Path, *args: str, env: dict[str, str] | None = None) -> None:
        self.home = home
        base = {k: v for k, v in os.environ.items() if not k.startswith(("GITBOOK_", "TEXTUAL"))}
        base.update(
            HOME=str(home),
            XDG_DATA_HOME=str(home / "data"),
            XDG_CONFIG_HOME=str(home / "config"),
            XDG_CACHE_HOME=str(home / "cache"),
            XDG_STATE_HOME=str(home / "state"),
            PYTHONPATH=os.pathsep.join(filter(None, [str(SRC), os.environ.get("PYTHONPATH")])),
        )
        base.update(env or {})
        self.output = home / "web.out"
        self._out = self.output.open("wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gitbook_tui.cli", "web", "--port", "0", *args],
            stdout=self._out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=base,
            start_new_session=True,
        )
        self.url = ""

    def text(self) -> str:
        return self.output.read_text(encoding="utf-8", errors="replace")

    def wait_serving(self, timeout: float = 60.0) -> str:
        """The server's URL (``http://127.0.0.1:PORT``) once it listens."""
        marker = "serving on "
        until_sync(
            lambda: marker in self.text() or self.process.poll() is not None,
            "gitbook-tui web to listen",
            timeout=timeout,
        )
        if marker not in self.text():
            raise AssertionError(f"gitbook-tui web did not start:\n{self.text()}")
        self.url = self.text().split(marker, 1)[1].split()[0].rstrip("/")
        return self.url

    def line_after(self, marker: str) -> str:
        return self.text().split(marker, 1)[1].split()[0]

    def sessions(self) -> list[int]:
        """The pids of the sessions' app processes (not the demo's server): those the zygote
        forked, and those started from scratch (``--no-zygote``, or a launcher's fallback)."""
        found = []
        for pid in children(self.process.pid):
            command = cmdline(pid)
            if b"web_zygote" in command:
                found += children(pid)
            elif b"web_session" in command:
                found.append(pid)
        return found

    def launchers(self) -> list[int]:
        """The pids of the processes textual-serve started for the sessions (launchers, with
        each session's environment, until they run the app themselves)."""
        return [pid for pid in children(self.process.pid) if b"web_launcher" in cmdline(pid)]

    def zygote(self) -> int | None:
        """The pid of the process that forks the sessions' apps, if it runs."""
        found = [pid for pid in children(self.process.pid) if b"web_zygote" in cmdline(pid)]
        return found[0] if found else None

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(15)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)  # whatever it left behind
        self.process.wait()
        self._out.close()
        return self.process.returncode


@contextlib.contextmanager
def demo_web(home: Path, demo_template: Template) -> Iterator[WebProcess]:
    """``gitbook-tui web --demo`` serving, its demo database copied from the seeded
    template (seeded once per test process); stopped after."""
    copy_file(demo_template, home / "data" / "gitbook-tui" / "demo.sqlite")
    process = WebProcess(home, "--demo")
    try:
        process.wait_serving()
        yield process
    finally:
        process.stop()


def folders_env(home: Path) -> dict[str, str]:
    """A minimal environment whose user folders (home, XDG) are under ``home``, running
    this checkout's code."""
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_CACHE_HOME": str(home / "cache"),
        "XDG_STATE_HOME": str(home / "state"),
        "PYTHONPATH": str(SRC),
    }


def parent_pid(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def children(pid: int) -> list[int]:
    found: list[int] = []
    with contextlib.suppress(OSError):
        for task in os.listdir(f"/proc/{pid}/task"):
            text = Path(f"/proc/{pid}/task/{task}/children").read_text()
            found += [int(p) for p in text.split()]
    return found


def cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def alive(pid: int) -> bool:
    """The process runs (a zombie, ended but not reaped, counts as running)."""
    return Path(f"/proc/{pid}").exists()


def cpu_seconds(pid: int) -> float:
    """The CPU time (user + system) the process has used so far; 0 once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mib(pid: int) -> float:
    """The process's resident memory, MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def pss_mib(pid: int) -> float:
    """The process's proportional memory, MiB: its resident pages, each shared one counted
    as its share (forked sessions share the zygote's pages, which RSS counts in full)."""
    try:
        text = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return 0.0
    for line in text.splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1]) / 1024
    return 0.0
