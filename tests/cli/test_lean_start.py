"""The app's start imports only what its first screen (Browse, with its tree) draws.

Each check runs in a fresh interpreter, as ``gitbook-tui`` starts: what a start imports
costs its CPU time at every start (the warm start's budget is 0.8 s, issue #24), and an
eager import added anywhere on the way would silently bring it back.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from support.waits import until

START = """
import gc, json, sys
from gitbook_tui.cli.lean_start import (
    imports_kept_from_collections,
    skip_unused_optional_imports,
)

skip_unused_optional_imports()  # as cli.app_start.run_app does, before anything else
with imports_kept_from_collections():
    from gitbook_tui.api import AsyncGitBook
    from gitbook_tui.cache import ResponseCache
    from gitbook_tui.tui.app import GitBookApp
    from gitbook_tui.tui.app_signals import run_keeping_drafts
    from gitbook_tui.tui.common.state import parse_target
frozen = gc.get_freeze_count()
client = AsyncGitBook("token", base_url="http://127.0.0.1:9")  # its transport: httpcore
app = GitBookApp(client, demo=True)
loaded = sorted(name for name, module in sys.modules.items() if module is not None)
print(json.dumps({"loaded": loaded, "frozen": frozen, "gc": gc.isenabled()}))
"""

NOT_AT_START = (
    # the markdown parser and its plugins: a page is parsed when it opens
    "markdown_it",
    "mdit_py_plugins",
    "linkify_it",
    "yaml",
    "gitbook_tui.markdown.parser",
    "gitbook_tui.markdown.blocks",
    "gitbook_tui.markdown.progressive",
    # the page viewer's layout engine and the block model it lays out: with the first page
    "gitbook_tui.tui.render",
    "gitbook_tui.markdown.model",
    "gitbook_tui.markdown.includes",
    # the content API (pages, includes): with the first space opened
    "gitbook_tui.api.content",
    # syntax highlighting: with a page's first code block
    "pygments",
    "rich.syntax",
    # httpx's own command-line client and trio (see cli/lean_start.py)
    "httpx._main",
    "click",
    "trio",
    # screens shown later, or not on a usual start
    "gitbook_tui.tui.account.org_picker_screen",
    "gitbook_tui.tui.account.starting_screen",
    "gitbook_tui.tui.common.help_screen",
    "gitbook_tui.tui.browse.outline_screen",
    "gitbook_tui.tui.search.search_screen",
    "gitbook_tui.tui.account.welcome_screen",  # the sign-in: a start without a token
    "gitbook_tui.tui.common.palette",  # its providers: when the palette first opens
    "gitbook_tui.tui.common.palette_data",
    "gitbook_tui.tui.common.palette_loading",
    # the server: the demo's runs in a process of its own
    "fastapi",
    "uvicorn",
    "sqlalchemy",
    # the command's other subcommands
    "gitbook_tui.cli.web",
)

OTHER_VIEWS = ("review", "comments", "sites", "admin", "history", "search")
"""Features whose views are not the first screen: only their ``feature`` module (what they
register: view, intents, palette commands) may be imported at start."""


def _start() -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", START], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_the_start_imports_nothing_the_first_screen_does_not_draw() -> None:
    """(A fresh interpreter importing the whole app: a few seconds on a busy machine.)
    Also: what was imported is frozen for the collector, which runs again afterwards."""
    result = _start()
    loaded = result["loaded"]
    assert isinstance(loaded, list)
    unexpected = [
        name for name in loaded if any(name == n or name.startswith(n + ".") for n in NOT_AT_START)
    ]
    views = tuple(f"gitbook_tui.tui.{feature}." for feature in OTHER_VIEWS)
    unexpected += [n for n in loaded if n.startswith(views) and not n.endswith(".feature")]
    assert unexpected == []
    # the check sees the start's imports (not an empty process)
    assert {"textual.app", "httpx", "gitbook_tui.tui.browse.browser_screen"} <= set(loaded)
    assert isinstance(result["frozen"], int) and result["frozen"] > 10_000
    assert result["gc"] is True


def test_without_its_optional_imports_httpx_still_serves_the_app() -> None:
    """httpx's fallback for its missing CLI, and a request over a real socket under asyncio
    (httpcore then uses anyio, as when trio is not installed). A fresh interpreter, as the
    app's start: a few seconds on a busy machine."""
    code = textwrap.dedent(
        """
        import asyncio, http.server, sys, threading
        from gitbook_tui.cli.lean_start import skip_unused_optional_imports

        skip_unused_optional_imports()
        import httpx

        class Hello(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200)
                self.send_header("Content-Length", "5")
                self.end_headers()
                self.wfile.write(b"hello")

            def log_message(self, *args):
                pass

        server = http.server.HTTPServer(("127.0.0.1", 0), Hello)
        threading.Thread(target=server.serve_forever, args=(0.005,), daemon=True).start()

        async def fetch():
            async with httpx.AsyncClient() as client:
                url = f"http://127.0.0.1:{server.server_address[1]}/"
                return (await client.get(url)).text

        print(asyncio.run(fetch()), callable(httpx.main), sys.modules.get("trio"))
        server.shutdown()
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["hello", "True", "None"]


def test_the_collector_paused_for_the_start_resumes_once_with_what_exists_frozen() -> None:
    """(A fresh interpreter: freezing in the test process would keep its heap frozen.)"""
    code = textwrap.dedent(
        """
        import gc
        from gitbook_tui.cli.lean_start import pause_collections

        resume = pause_collections()
        paused = gc.isenabled()
        kept = [[] for _ in range(1000)]  # the start's objects
        resume()
        after = (gc.isenabled(), gc.get_freeze_count() >= 1000)
        gc.disable()  # (something else turns it off later: a second call leaves it so)
        resume()
        print(paused, *after, gc.isenabled())
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "True", "True", "False"]


async def test_the_app_resumes_the_collector_once_its_first_screen_is_up(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The command pauses the collector for the start; the app resumes it (once) when the
    idle collector's first walks may begin, not before its first screen is up."""
    from gitbook_tui.api import AsyncGitBook
    from gitbook_tui.tui import app as app_module
    from gitbook_tui.tui.common.config import TuiConfig
    from gitbook_tui.tui.common.state import StateStore

    monkeypatch.setattr(app_module, "FIRST_COLLECTION_DELAY", 0.3)
    resumed: list[float] = []
    client = AsyncGitBook("tok", base_url="http://127.0.0.1:9/v1", max_retries=0)
    app = app_module.GitBookApp(
        client,
        config=TuiConfig(),
        state_store=StateStore(tmp_path / "s.json"),
        resume_collections=lambda: resumed.append(time.monotonic()),
    )
    started = time.monotonic()
    async with app.run_test(size=(80, 24)) as pilot:
        assert resumed == []  # the first screen is being built
        await until(pilot, lambda: resumed, "the first collection delay")
    assert len(resumed) == 1 and resumed[0] - started >= 0.3
