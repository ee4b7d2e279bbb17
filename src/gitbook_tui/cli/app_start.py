"""Starting the app (``gitbook-tui``, ``open``, ``review``, ``--demo``): the demo's server in
a process of its own, the client, and a restart on the demo when the welcome screen asks."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from .lean_start import (
    imports_kept_from_collections,
    pause_collections,
    skip_unused_optional_imports,
)
from .paths import data_dir

if TYPE_CHECKING:
    from collections.abc import Callable

    import httpx

    from ..api import AsyncGitBook
    from ..server.background import BackgroundStart

__all__ = ["DEMO_PORT", "run_app"]

DEMO_PORT = 47831
"""Where ``--demo`` serves when the port is free: a stable URL keeps the demo account's
cache and remembered tree from one run to the next."""


def _start_demo_server() -> BackgroundStart:
    """The demo's server, starting (the first time: seeding) in a process of its own while
    the app imports and shows its progress; on the same port each run when it is free."""
    from ..server.background import BackgroundStart

    return BackgroundStart(data_dir() / "demo.sqlite", demo=True, preferred_port=DEMO_PORT)


def demo_account_server() -> str:
    """The demo's server as its account knows it: its database, not its URL (the port)."""
    return f"gitbook-tui demo {data_dir() / 'demo.sqlite'}"


def demo_transport() -> httpx.AsyncBaseTransport:
    """The demo client's connection: plain HTTP to its own server on this machine (no proxy
    either). httpx's default one loads the system's certificate store at once, for TLS the
    demo never uses (~0.05 s of each start's CPU); this one's TLS context trusts no
    certificate, so a TLS connection, were one ever tried, would be refused."""
    import ssl

    import httpx

    return httpx.AsyncHTTPTransport(verify=ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT))


def _adopt_port_named_demo_account(client: AsyncGitBook) -> None:
    """Drafts and queued actions written when the demo's account was named by its URL (on
    its usual port) move to its account now: unsent words are never left out of sight."""
    from ..cache import account_fingerprint
    from ..drafts.files import adopt_account_folders
    from ..server.demo.identity import demo_admin_token
    from ..tui.common.state import account_key

    token = demo_admin_token()
    adopt_account_folders(
        account_fingerprint(f"http://127.0.0.1:{DEMO_PORT}/v1", token), account_key(client)
    )


def run_app(args: argparse.Namespace) -> int:
    """The app (``gitbook-tui``, ``gitbook-tui open``, ``gitbook-tui review``). Without a token
    it starts on the welcome screen; asking there for the demo restarts on the demo server."""
    if sys.stdout.isatty():  # a line at once: the imports below take a moment
        print("gitbook-tui: starting…", flush=True)
    skip_unused_optional_imports()  # before the app's first import of httpx
    demo = bool(args.demo or getattr(args, "open_demo", False))
    handle = _start_demo_server() if demo else None  # first: it starts while the app imports
    # off until the app's first screen is up (lean_start): the app resumes it, else the end
    resume_collections = pause_collections()
    try:
        return _run_app(args, demo, handle, resume_collections)
    finally:
        resume_collections()
        if handle is not None:
            handle.stop()


def _run_app(
    args: argparse.Namespace,
    demo: bool,
    handle: BackgroundStart | None,
    resume_collections: Callable[[], None],
) -> int:
    with imports_kept_from_collections():
        from ..api import AsyncGitBook
        from ..cache import ResponseCache
        from ..server.demo.identity import demo_admin_token
        from ..tui.app import RESULT_DEMO, GitBookApp
        from ..tui.app_signals import run_keeping_drafts
        from ..tui.common.state import parse_target

    start = None
    if getattr(args, "command", None) == "open":
        try:
            start = parse_target(args.target)
        except ValueError as exc:
            print(f"gitbook-tui open: {exc}", file=sys.stderr)
            return 2
    while True:
        if demo:
            if handle is None:  # asked for on the welcome screen
                handle = _start_demo_server()
            client = AsyncGitBook(
                demo_admin_token(),
                base_url=handle.url,
                transport=demo_transport(),
                cache=ResponseCache(),
                # one demo account whichever port it is served on (another may be taken)
                account_server=demo_account_server(),
            )
            _adopt_port_named_demo_account(client)
        else:
            client = AsyncGitBook(cache=ResponseCache())
        view = "reviews" if args.command == "review" else None
        app = GitBookApp(
            client,
            demo=demo,
            start=start,
            starting=handle.poll if handle is not None else None,
            starting_warm=handle is not None and handle.warm,
            start_view=view,
            resume_collections=resume_collections,
        )
        try:
            result = run_keeping_drafts(app)  # drafts written on SIGHUP/SIGTERM too
        finally:
            if handle is not None:
                handle.stop()
                handle = None
            if client.cache is not None:
                client.cache.close()
        if result == RESULT_DEMO and not demo:
            demo = True
            continue
        return app.return_code or 0
