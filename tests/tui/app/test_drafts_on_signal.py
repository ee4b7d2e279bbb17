"""Drafts typed just before the terminal goes away (SIGHUP, SIGTERM) are on disk: a real app."""

from __future__ import annotations

import json
import signal
from pathlib import Path

import pytest

from support.pty_app import PtyApp, demo_in_pty
from support.worlds import Template

pytestmark = pytest.mark.slow


def _draft_texts(home: Path) -> list[str]:
    texts = []
    for path in (home / "data" / "gitbook-tui" / "drafts").glob("*/*.json"):
        try:
            texts.append(json.loads(path.read_text())["text"])
        except (OSError, ValueError, KeyError):
            continue  # being replaced right now
    return texts


def _open_new_thread_composer(app: PtyApp) -> None:
    """Browse → Product docs → Tidewater User Guide → its first page → Comments → new thread."""
    app.until_text("Product docs")
    app.send("j\r")
    app.until_text("Tidewater User Guide")
    app.send("jj\r")  # API & CLI reference (closed), then the guide: expand it
    app.until(lambda: "Every block, once" in app.screen.text() or "Quickstart" in app.screen.text())
    app.send("j\r")  # its first page
    app.until(lambda: "Choose a page" not in app.screen.text())
    app.send("3")
    app.until_text("Comments · Tidewater User Guide")
    app.send("c")
    app.until_text("New thread on this page")


@pytest.mark.parametrize("sig", [signal.SIGHUP, signal.SIGTERM], ids=["SIGHUP", "SIGTERM"])
def test_a_signal_inside_the_debounce_window_keeps_the_last_words(
    tmp_path: Path, sig: signal.Signals, demo_template: Template
) -> None:
    """A SIGHUP/SIGTERM right after typing keeps the last words in the draft. Slow: the real app in a
    pty, started, typed into and killed."""
    app = demo_in_pty(tmp_path, demo_template)
    try:
        _open_new_thread_composer(app)
        app.send("first words")
        app.until(lambda: "first words" in _draft_texts(tmp_path))  # the debounced save
        app.send(" LAST")
        app.until_text("first words LAST")  # the app has the keys; the write is ~1 s away
        app.signal(sig)
        status = app.wait()
        assert _draft_texts(tmp_path) == ["first words LAST"]
        assert status == 128 + sig  # a clean exit, as a shell reports the signal
    finally:
        app.close()


def test_after_a_dropped_connection_the_app_comes_back_where_it_was(
    tmp_path: Path, demo_template: Template
) -> None:
    """SIGHUP (dropped SSH) with a page open and a group expanded after it: the next start
    opens the same page with the same tree, as after a normal quit."""
    app = demo_in_pty(tmp_path, demo_template)
    try:
        app.until_text("Product docs")
        app.send("j\r")
        app.until_text("Tidewater User Guide")
        app.send("jj\r")
        app.until_text("Every block, once")
        app.send("j\r")  # the guide's first page: "Welcome to Tidewater"
        app.until_text("Tidewater User Guide / Welcome to")
        assert "▶ ▤ API & CLI reference" in app.screen.text()
        app.send("w")  # back to the tree (the page took the focus): its edge lights up
        app.until(lambda: app.screen.text().startswith("█▼ Lanternfish Labs"))
        app.send("kk\r")  # up to "API & CLI reference": expanded, no page opened
        app.until(lambda: "▼ ▤ API & CLI reference" in app.screen.text())
        app.signal(signal.SIGHUP)
        assert app.wait() == 128 + signal.SIGHUP
    finally:
        app.close()
    again = PtyApp(tmp_path, "--demo")
    try:
        again.until_text("Tidewater User Guide / Welcome to")
        again.until(lambda: "▼ ▤ API & CLI reference" in again.screen.text())
    finally:
        again.close()
