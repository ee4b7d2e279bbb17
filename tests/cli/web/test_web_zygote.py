"""The zygote of ``gitbook-tui web`` without a browser: a launcher's session is an app process
forked by the zygote, on the launcher's streams, with the launcher's environment; signals
to the launcher reach the app and the launcher exits as the app did; a killed launcher
takes its app along; without a zygote (gone, or imported under other settings) the
launcher runs the app itself; the socket is private. One zygote for the module; the apps
sign in to an address where nothing listens (they start all the same)."""

from __future__ import annotations

import contextlib
import os
import signal
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from gitbook_tui.cli.web_server import shared_environment
from gitbook_tui.cli.web_zygote import Zygote
from support.waits import until_sync
from support.web_browser import alive, children, cmdline, folders_env, parent_pid

pytestmark = pytest.mark.app

READY = b"__GANGLION__\n"
"""The first line Textual's web driver writes (textual-serve waits for it)."""


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("zygote")


@pytest.fixture(scope="module")
def zygote(home: Path) -> Iterator[Zygote]:
    process = Zygote(shared_environment(folders_env(home)))
    try:
        yield process
    finally:
        process.stop()


def _session_env(home: Path, **extra: str) -> dict[str, str]:
    env = shared_environment(folders_env(home))
    env.update(
        GITBOOK_TOKEN="a-token-of-the-session",
        GITBOOK_API_URL="http://127.0.0.1:9",  # nothing listens: the app starts regardless
        GITBOOK_TUI_DATA_DIR=str(home / "session-data"),
        COLUMNS="100",
        ROWS="30",
    )
    env.update(extra)
    return env


def _launch(command: str, env: dict[str, str]) -> subprocess.Popen[bytes]:
    """As textual-serve runs a session: a shell command on three pipes."""
    return subprocess.Popen(
        command,
        shell=True,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )


def _started(launcher: subprocess.Popen[bytes]) -> None:
    assert launcher.stdout is not None
    assert launcher.stdout.readline() == READY  # the app's first words, through the launcher
    assert launcher.stdin is not None


def _forked_apps(zygote: Zygote) -> list[int]:
    return children(zygote.pid)


def _threads(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(status.split("Threads:", 1)[1].split()[0])


@contextlib.contextmanager
def _forked_session(zygote: Zygote, home: Path) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """A session started through its launcher, and its app (forked by the zygote); the
    launcher killed after."""
    before = set(_forked_apps(zygote))
    launcher = _launch(zygote.command(), _session_env(home))
    try:
        _started(launcher)
        (app,) = set(_forked_apps(zygote)) - before
        yield launcher, app
    finally:
        launcher.kill()
        launcher.wait()


def test_the_socket_is_private(zygote: Zygote) -> None:
    assert stat.S_IMODE(zygote.socket_path.stat().st_mode) == 0o600
    assert stat.S_IMODE(zygote.folder.stat().st_mode) == 0o700
    assert stat.S_ISSOCK(zygote.socket_path.stat().st_mode)


def test_a_session_is_an_app_forked_by_the_zygote_until_its_launcher_is_stopped(
    zygote: Zygote, home: Path
) -> None:
    """Over 5 s on a loaded machine: the module's first session waits for the zygote to
    import the app (~1.5 s on a quiet machine)."""
    with _forked_session(zygote, home) as (launcher, app):
        assert parent_pid(app) == zygote.pid
        assert _threads(zygote.pid) == 1  # forking a process with threads is unsafe
        assert b"web_launcher" in cmdline(launcher.pid)  # not the app: it stands in for it
        assert not children(launcher.pid)
        # textual-serve stops a session with SIGTERM: the app gets it (and quits)
        launcher.send_signal(signal.SIGTERM)
        until_sync(lambda: not alive(app), "the app to end on its launcher's SIGTERM", timeout=10)
        launcher.wait(10)


def test_the_launcher_ends_as_its_app_did(zygote: Zygote, home: Path) -> None:
    with _forked_session(zygote, home) as (launcher, app):
        os.kill(app, signal.SIGKILL)
        assert launcher.wait(10) == -signal.SIGKILL


def test_a_killed_launcher_takes_its_app_along(zygote: Zygote, home: Path) -> None:
    with _forked_session(zygote, home) as (launcher, app):
        launcher.kill()  # textual-serve's last resort, and the web server's exit
        launcher.wait()
    until_sync(lambda: not alive(app), "the killed launcher's app to end", timeout=10)


def test_the_app_ends_when_the_page_asks_it_to_quit(zygote: Zygote, home: Path) -> None:
    """textual-serve's own stop: a quit message on the app's input (read by the app, not
    the launcher, which gave its streams away); the launcher then exits as the app did."""
    launcher = _launch(zygote.command(), _session_env(home))
    _started(launcher)
    assert launcher.stdin is not None
    quit_packet = b'{"type": "quit"}'
    launcher.stdin.write(b"M" + len(quit_packet).to_bytes(4, "big") + quit_packet)
    launcher.stdin.flush()
    assert launcher.wait(20) == 0


def test_without_the_zygote_the_launcher_runs_the_app_itself(home: Path) -> None:
    """Over 5 s on a loaded machine: the app starts in a new Python (its imports, ~1.5 s)."""
    gone = Zygote(shared_environment(folders_env(home)))
    command = gone.command()
    gone.process.kill()  # the socket's file is left, no one listens on it
    gone.process.wait()
    launcher = _launch(command, _session_env(home))
    try:
        _started(launcher)
        assert b"gitbook_tui.cli.web_session" in cmdline(launcher.pid)  # it became the app
    finally:
        launcher.kill()
        launcher.wait()
        gone.stop()


def test_a_session_under_other_textual_settings_is_not_forked(zygote: Zygote, home: Path) -> None:
    """Textual reads its settings when imported: the zygote's import cannot serve a session
    whose settings differ; its launcher runs the app itself (in a new Python: over 5 s on
    a loaded machine)."""
    before = set(_forked_apps(zygote))
    launcher = _launch(zygote.command(), _session_env(home, TEXTUAL_FPS="30"))
    try:
        _started(launcher)
        assert set(_forked_apps(zygote)) == before
        assert b"gitbook_tui.cli.web_session" in cmdline(launcher.pid)
    finally:
        launcher.send_signal(signal.SIGTERM)
        launcher.wait(20)


def test_a_zygote_whose_web_server_was_killed_ends_and_removes_its_socket(home: Path) -> None:
    """Over 5 s on a loaded machine: the zygote imports the app before it reads its input."""
    zygote = Zygote(shared_environment(folders_env(home)))
    try:
        assert zygote.process.stdin is not None
        zygote.process.stdin.close()  # as when the server is killed: nothing else happens
        assert zygote.process.wait(60) == 0
        assert not zygote.folder.exists()
    finally:
        zygote.stop()


def test_the_zygote_ends_with_the_web_server_and_takes_its_sessions_along(home: Path) -> None:
    """Over 5 s on a loaded machine: a zygote of its own imports the app (~1.5 s) and
    gives its session up to 2 s to end."""
    zygote = Zygote(shared_environment(folders_env(home)))
    launcher = _launch(zygote.command(), _session_env(home))
    try:
        _started(launcher)
        (app,) = _forked_apps(zygote)
        zygote.stop()  # its input closes: the web server is gone
        assert zygote.process.returncode == 0
        until_sync(lambda: not alive(app), "the session to end with the zygote", timeout=10)
        assert not zygote.folder.exists()
        launcher.wait(10)
    finally:
        launcher.kill()
        launcher.wait()
        zygote.stop()


def test_a_zygote_whose_listener_has_a_high_number_serves_sessions(home: Path) -> None:
    """The listener keeps in the zygote the number it had in the web server's process: one
    holding over a thousand files (select's limit is 1024) still gets a zygote that serves.
    Over 5 s on a loaded machine: a zygote of its own imports the app."""
    held: list[int] = []
    try:
        while not held or held[-1] < 1100:
            held.append(os.open(os.devnull, os.O_RDONLY))
        many = Zygote(shared_environment(folders_env(home)))
    finally:
        for number in held:
            os.close(number)
    try:
        with _forked_session(many, home) as (launcher, app):
            assert parent_pid(app) == many.pid
            launcher.send_signal(signal.SIGTERM)
            until_sync(lambda: not alive(app), "the app to end on its launcher's SIGTERM")
            launcher.wait(10)
        assert many.process.poll() is None  # still serving
    finally:
        many.stop()
    assert many.process.returncode == 0
