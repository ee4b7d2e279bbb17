"""Command line: ``gitbook-tui`` (the app), ``serve``, ``web``, ``auth …`` and ``cache …``.

``main`` is the entry point (``gitbook_tui.cli:main``, ``python -m gitbook_tui.cli``); each
command lives in its own module and imports what it needs only when run, so the app's
start is not slowed by the server's or the cache's imports.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .app_start import DEMO_PORT, run_app
from .auth import run_auth
from .cache import run_cache
from .parser import build_parser
from .paths import data_dir
from .serve import run_serve

if TYPE_CHECKING:
    from .web import run_web

__all__ = [
    "DEMO_PORT",
    "build_parser",
    "data_dir",
    "main",
    "run_app",
    "run_auth",
    "run_cache",
    "run_serve",
    "run_web",
]


def main(argv: list[str] | None = None) -> int:
    """Run the command ``argv`` names (default: the process's arguments); its exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "serve":
        return run_serve(args)
    if args.command == "web":
        from .web import run_web  # its access checks (hashlib, ipaddress…): not the app's start

        return run_web(args)
    if args.command == "auth":
        return run_auth(args)
    if args.command == "cache":
        return run_cache(args)
    return run_app(args)  # no command, "open" or "review"


def __getattr__(name: str) -> Any:
    if name == "run_web":  # imported when asked for (see main)
        from .web import run_web

        return run_web
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
