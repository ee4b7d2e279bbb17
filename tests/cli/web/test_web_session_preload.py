"""What the zygote prepares covers a session: a session run after ``prepare`` (as a forked
one is) imports no module and builds no model's validator on its way to the tree drawn and
out again — either left there would cost every browser tab its time. The app runs as
textual-serve runs it (the web driver on pipes) on a demo server."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from gitbook_tui.cli.web import DEMO_URL_ENV
from gitbook_tui.cli.web_server import shared_environment
from gitbook_tui.server.background import BackgroundStart
from support.waits import until_sync
from support.web_browser import folders_env
from support.worlds import Template, copy_file

pytestmark = pytest.mark.app

SESSION = """
import sys
from gitbook_tui.cli.web_session import main, prepare
from gitbook_tui.models.common import ApiModel

def models(base):
    for model in base.__subclasses__():
        yield model
        yield from models(model)

prepare()
from gitbook_tui.models.common import _PAGE_TYPES
pages = set(_PAGE_TYPES)
before = set(sys.modules)
unbuilt = [model for model in models(ApiModel) if not model.__pydantic_complete__]
try:
    main()
finally:
    with open(sys.argv[1], "w") as out:
        out.write("\\n".join(sorted(set(sys.modules) - before)))
    with open(sys.argv[2], "w") as out:
        out.write("\\n".join(m.__qualname__ for m in unbuilt if m.__pydantic_complete__))
        out.write("\\n" + "\\n".join(f"Page[{t.__qualname__}]" for _, t in set(_PAGE_TYPES) - pages))
"""

QUIT = b'{"type": "quit"}'


@pytest.fixture(scope="module")
def demo_url(tmp_path_factory: pytest.TempPathFactory, demo_template: Template) -> Iterator[str]:
    home = tmp_path_factory.mktemp("preload-demo")
    copy_file(demo_template, home / "demo.sqlite")
    server = BackgroundStart(home / "demo.sqlite", demo=True)
    try:
        until_sync(server.poll, "the demo's server", timeout=60)
        yield server.url
    finally:
        server.stop()


def _read_until(stream: int, text: bytes, timeout: float) -> bytes:
    seen = b""
    deadline = time.monotonic() + timeout
    while text not in seen:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([stream], [], [], left)[0]:
            raise AssertionError(f"{text!r} not drawn in {timeout:g} s")
        chunk = os.read(stream, 65536)
        if not chunk:
            raise AssertionError(f"the session ended before drawing {text!r}")
        seen += chunk
    return seen


def test_a_prepared_session_imports_and_builds_nothing_on_its_way_to_the_tree(
    demo_url: str, tmp_path: Path
) -> None:
    """Over 5 s on a loaded machine: a Python imports the app, then runs it to its tree."""
    env = shared_environment(folders_env(tmp_path))
    env.update({DEMO_URL_ENV: demo_url, "COLUMNS": "157", "ROWS": "49"})
    imported = tmp_path / "imported.txt"
    built = tmp_path / "built.txt"
    session = subprocess.Popen(
        [sys.executable, "-c", SESSION, str(imported), str(built)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=env,
    )
    try:
        assert session.stdout is not None and session.stdin is not None
        _read_until(session.stdout.fileno(), b"Tidewater", timeout=60)
        session.stdin.write(b"M" + len(QUIT).to_bytes(4, "big") + QUIT)
        session.stdin.flush()
        session.stdout.read()
        assert session.wait(30) == 0
    finally:
        session.kill()
        session.wait()
    assert imported.read_text().split() == []
    assert built.read_text().split() == []  # no model's validator built by the session
