"""``gitbook-tui web``: check the options, then serve the app to web browsers.

Each browser session runs the app in a process of its own (``cli/web_session.py``), spawned
by the web server (``cli/web_server.py``, textual-serve): a launcher (``cli/web_launcher.py``)
that has it forked from a process which imported the app once (``cli/web_zygote.py``), so
a new tab does not wait for the app's imports (``--no-zygote``: each session starts its
own Python). The user's token reaches those processes through their environment only; with ``--demo`` one demo server, started here,
serves every session. The server and aiohttp are imported only when the command runs.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from .paths import data_dir
from .web_access import Access, is_loopback, new_key, read_key_file

if TYPE_CHECKING:
    from ..server.background import BackgroundStart

__all__ = [
    "DEMO_ACCOUNT_ENV",
    "DEMO_URL_ENV",
    "START_TARGET_ENV",
    "START_VIEW_ENV",
    "run_web",
    "session_command",
]

DEMO_URL_ENV = "GITBOOK_TUI_WEB_DEMO_URL"
DEMO_ACCOUNT_ENV = "GITBOOK_TUI_WEB_DEMO_ACCOUNT"
"""The demo's account name (``app_start.demo_account_server``), as the web server has it: a
session's own data folder is not where the demo's database is."""
"""A session's demo server (``--demo``): the app signs in as the demo's owner there."""
START_TARGET_ENV = "GITBOOK_TUI_WEB_OPEN"
START_VIEW_ENV = "GITBOOK_TUI_WEB_VIEW"


def _fail(message: str, code: int = 2) -> int:
    print(f"gitbook-tui web: {message}", file=sys.stderr)
    return code


def session_command() -> str:
    """The shell command textual-serve runs for a session. ``exec``: the app is the process
    textual-serve holds (and stops), not a shell around it. Nothing secret in it: a
    command line is visible to every user of the machine (``ps``)."""
    return f"exec {shlex.quote(sys.executable)} -m gitbook_tui.cli.web_session"


def _package_path() -> str:
    """PYTHONPATH for the sessions: this process's gitbook_tui comes first."""
    root = str(Path(__file__).resolve().parents[2])
    rest = os.environ.get("PYTHONPATH", "")
    return os.pathsep.join([root, rest]) if rest else root


def _access_key(args: argparse.Namespace) -> tuple[str | None, bool]:
    """(the key or None, whether it was made up here); ValueError for a bad key file."""
    if args.access_key_file is not None:
        return read_key_file(args.access_key_file), False
    if args.new_access_key:
        return new_key(), True
    return None, False


def run_web(args: argparse.Namespace) -> int:
    if args.max_sessions < 1:
        return _fail("--max-sessions must be at least 1")
    if args.access_key_file is not None and args.new_access_key:
        return _fail("give --access-key-file or --new-access-key, not both")
    try:
        key, made_up = _access_key(args)
    except ValueError as exc:
        return _fail(f"--access-key-file: {exc}")
    if key is None and not is_loopback(args.host):
        return _fail(
            f"refusing to serve on {args.host} without an access key: anyone who can reach "
            "it would use your GitBook account. Give --access-key-file PATH or "
            "--new-access-key (or bind 127.0.0.1)"
        )
    if args.target:
        from ..tui.common.state import parse_target

        try:
            parse_target(args.target)
        except ValueError as exc:
            return _fail(f"--open: {exc}")
    demo = bool(args.demo or args.open_demo)
    env: dict[str, str | None] = {"PYTHONPATH": _package_path()}
    if args.target:
        env[START_TARGET_ENV] = args.target
    if args.review:
        env[START_VIEW_ENV] = "reviews"
    if not demo:
        from ..api.config import resolve

        api_url, token = resolve()
        if not token:
            return _fail(
                "no GitBook token: set GITBOOK_TOKEN or run `gitbook-tui auth login` "
                "(or serve the bundled demo with --demo)"
            )
        # The sessions read it from their environment (never their command line).
        env.update(GITBOOK_TOKEN=token, GITBOOK_API_URL=api_url)
    else:
        env.update(GITBOOK_TOKEN=None, GITBOOK_API_URL=None)  # the demo's own owner
    handle = _start_demo_server() if demo else None
    try:
        if handle is not None:
            from .app_start import demo_account_server

            env[DEMO_URL_ENV] = handle.url
            env[DEMO_ACCOUNT_ENV] = demo_account_server()
            print(f"gitbook-tui web: the demo's server is {handle.url}", flush=True)
        from .web_server import WebServer, shared_environment
        from .web_zygote import Zygote

        # (its environment: the sessions' own, less the token and anything per session)
        zygote = Zygote(shared_environment(env)) if args.zygote else None
        try:
            server = WebServer(
                zygote.command() if zygote is not None else session_command(),
                host=args.host,
                port=args.port,
                access=Access(key),
                max_sessions=args.max_sessions,
                session_env=env,
                session_data=data_dir() / "web-sessions" if demo else None,
                server_ready=handle.poll if handle is not None else None,
                show_key=key if made_up else None,
            )
            server.serve()
        except OSError as exc:
            return _fail(f"cannot listen on {args.host}:{args.port}: {exc}", 1)
        finally:
            if zygote is not None:
                zygote.stop()
    finally:
        if handle is not None:
            handle.stop()
    return 0


def _start_demo_server() -> BackgroundStart:
    from ..server.background import BackgroundStart
    from .app_start import DEMO_PORT

    return BackgroundStart(data_dir() / "demo.sqlite", demo=True, preferred_port=DEMO_PORT)
