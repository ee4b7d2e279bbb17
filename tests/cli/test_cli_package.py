"""The ``gitbook-tui`` command as a package: the entry point, ``python -m gitbook_tui.cli``,
and a light import (the app's start must not pay for the server, Textual or the cache)."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from importlib import import_module
from pathlib import Path

import gitbook_tui
from gitbook_tui import cli

ROOT = Path(__file__).resolve().parents[2]


def test_the_entry_point_is_main() -> None:
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    module, _, name = scripts["gitbook-tui"].partition(":")
    assert getattr(import_module(module), name) is cli.main


def test_python_dash_m_runs_the_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "gitbook_tui.cli", "--version"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"gitbook-tui {gitbook_tui.__version__}"


def test_every_command_is_parsed() -> None:
    parser = cli.build_parser()
    assert parser.parse_args([]).command is None
    assert parser.parse_args(["--demo"]).demo
    assert parser.parse_args(["serve", "--port", "0"]).port == 0
    web = parser.parse_args(["web", "--demo", "--max-sessions", "2"])
    assert (web.command, web.open_demo, web.max_sessions, web.host) == ("web", True, 2, "127.0.0.1")
    assert parser.parse_args(["open", "s1/p1"]).target == "s1/p1"
    assert parser.parse_args(["review", "--demo"]).open_demo
    assert parser.parse_args(["auth", "logout"]).auth_command == "logout"
    assert parser.parse_args(["cache", "info"]).cache_command == "info"


def test_importing_the_command_stays_light() -> None:
    heavy = (
        "textual",
        "fastapi",
        "uvicorn",
        "aiohttp",
        "gitbook_tui.server",
        "gitbook_tui.tui",
    )
    code = (
        "import sys, gitbook_tui.cli; "
        f"print(sorted(m for m in sys.modules if m.startswith({heavy!r})))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
