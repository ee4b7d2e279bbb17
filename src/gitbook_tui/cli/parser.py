"""The ``gitbook-tui`` argument parser: the app's options and the ``serve``, ``web``,
``open``, ``review``, ``auth`` and ``cache`` commands."""

from __future__ import annotations

import argparse
from pathlib import Path

__all__ = ["build_parser"]


def _add_serve(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    serve = sub.add_parser("serve", help="run the local workspace server")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (loopback by default)")
    serve.add_argument("--port", type=int, default=8080, help="port (0 picks a free one)")
    serve.add_argument("--db", type=Path, default=None, help="database file (created if missing)")
    serve.add_argument(
        "--demo", action="store_true", help="seed the demo workspace into a new database"
    )
    serve.add_argument(
        "--token",
        default=None,
        help="the owner's token. Without it, the first run mints one, prints it and saves it "
        "in <db stem>.owner-token next to the database (mode 0600); later runs reuse that "
        "token and do not print it again",
    )
    serve.add_argument(
        "--rotate-token",
        action="store_true",
        help="revoke every token of the owner, then mint (or take --token), print and save "
        "a new one",
    )
    serve.add_argument(
        "--faults",
        default=None,
        help="inject faults: latency=200ms,error-rate=0.1,rate-limit=30/min",
    )
    serve.add_argument(
        "--import",
        dest="imports",
        action="append",
        type=Path,
        default=[],
        metavar="DIR",
        help="import a Git Sync folder as a new space (repeatable)",
    )
    serve.add_argument(
        "--allow-import-root",
        dest="import_roots",
        action="append",
        type=Path,
        default=[],
        metavar="DIR",
        help="let API imports read file:// URLs under DIR (repeatable; by default the server "
        "reads no local file for an API caller)",
    )
    serve.add_argument(
        "--allow-fetch-host",
        dest="fetch_hosts",
        action="append",
        default=[],
        metavar="HOST[:PORT]",
        help="let imports, OpenAPI sources and integration tunnels fetch from HOST even when "
        "it is loopback, private or link-local (repeatable; by default those are refused)",
    )


def _add_web(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    web = sub.add_parser(
        "web",
        help="serve the app to web browsers (every view, the same keys)",
        description="Serve the app to web browsers: each browser tab runs the app in a "
        "process of its own. Binds 127.0.0.1 by default; another --host needs an access "
        "key (--access-key-file or --new-access-key), which every request must then carry.",
    )
    web.add_argument("--host", default="127.0.0.1", help="address to bind (loopback by default)")
    web.add_argument("--port", type=int, default=8000, help="port (0 picks a free one)")
    web.add_argument(
        "--demo", dest="open_demo", action="store_true", help="serve the bundled demo workspace"
    )
    web.add_argument(
        "--access-key-file",
        type=Path,
        default=None,
        metavar="PATH",
        help="a file holding the access key every browser must give (first line)",
    )
    web.add_argument(
        "--new-access-key",
        action="store_true",
        help="make up an access key and print the URL carrying it once",
    )
    web.add_argument(
        "--max-sessions",
        type=int,
        default=4,
        metavar="N",
        help="browser sessions (app processes) at once; more get a 'busy' page (default 4)",
    )
    web.add_argument(
        "--open",
        dest="target",
        default=None,
        metavar="TARGET",
        help="start each session at a space or page (as `gitbook-tui open`)",
    )
    web.add_argument("--review", action="store_true", help="start each session on the review inbox")
    web.add_argument(
        "--no-zygote",
        dest="zygote",
        action="store_false",
        help="start each session's app from scratch (slower) instead of forking it from a "
        "process that has imported the app once",
    )


def _add_auth(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    auth = sub.add_parser("auth", help="log in, check and log out stored API tokens")
    actions = auth.add_subparsers(dest="auth_command", required=True)
    login = actions.add_parser("login", help="check a token and store it for a profile")
    login.add_argument("--token", default=None, help="the API token (prompted for if not given)")
    login.add_argument(
        "--api-url", default=None, help="the API base URL (default https://api.gitbook.com/v1)"
    )
    login.add_argument("--profile", default="default", help="profile name (default: default)")
    actions.add_parser("status", help="show every stored profile and whose token it holds")
    logout = actions.add_parser("logout", help="remove a profile's stored token")
    logout.add_argument("--profile", default="default", help="profile name (default: default)")


def _add_cache(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    cache = sub.add_parser("cache", help="inspect or clear the response cache")
    actions = cache.add_subparsers(dest="cache_command", required=True)
    actions.add_parser("info", help="cache file, size and entries per account")
    actions.add_parser("clear", help="remove every cached response")


def _add_open(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    open_ = sub.add_parser(
        "open",
        help="start the app at a space or page",
        description="Start the app at a space or page: SPACE-ID, SPACE-ID/PAGE-ID, an app URL "
        "(…/s/<space>/<page path>) or a published URL (https://<host>/<space>/<page path>).",
    )
    open_.add_argument("target", help="space-id, space-id/page-id, or an app or published URL")
    open_.add_argument(
        "--demo", dest="open_demo", action="store_true", help="open it on the bundled demo"
    )


def _add_review(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    review = sub.add_parser(
        "review", help="start the app on the review inbox (change requests that need you)"
    )
    review.add_argument(
        "--demo", dest="open_demo", action="store_true", help="open it on the bundled demo"
    )


def build_parser() -> argparse.ArgumentParser:
    from .. import __version__

    parser = argparse.ArgumentParser(
        prog="gitbook-tui",
        description="Browse and review GitBook documentation workspaces from the terminal.",
        epilog=(
            "environment: GITBOOK_TOKEN (an API token; else the one stored by `auth login`) "
            "and GITBOOK_API_URL (default https://api.gitbook.com/v1). Settings (theme, keys): "
            "config.toml in the config folder (see README)."
        ),
    )
    parser.add_argument("--version", action="version", version=f"gitbook-tui {__version__}")
    parser.add_argument(
        "--demo", action="store_true", help="open the app on the bundled demo workspace"
    )
    sub = parser.add_subparsers(dest="command")
    _add_serve(sub)
    _add_web(sub)
    _add_open(sub)
    _add_review(sub)
    _add_auth(sub)
    _add_cache(sub)
    return parser
