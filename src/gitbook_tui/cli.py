"""Command line: ``gitbook-tui`` (the app), ``serve``, ``auth …`` and ``cache …``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from platformdirs import user_data_dir

if TYPE_CHECKING:
    from .api import auth
    from .models import User
    from .server.background import BackgroundStart

DEMO_PORT = 47831
"""Where ``--demo`` serves when the port is free: a stable URL keeps the demo account's
cache and remembered tree from one run to the next."""


def data_dir() -> Path:
    """The app's data folder (server databases, owner tokens): private to the user (0700)."""
    path = Path(user_data_dir("gitbook-tui", appauthor=False))
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    if path.stat().st_mode & 0o077:
        path.chmod(0o700)  # made by an older version with the default mode
    return path


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
    from . import __version__

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
    _add_open(sub)
    _add_review(sub)
    _add_auth(sub)
    _add_cache(sub)
    return parser


def run_serve(args: argparse.Namespace) -> int:
    from .server.core.faults import parse_faults
    from .server.core.url_guard import parse_host_rule
    from .server.runner import serve_forever

    try:
        faults = parse_faults(args.faults)
    except ValueError as exc:
        print(f"gitbook-tui serve: --faults: {exc}", file=sys.stderr)
        return 2
    for root in args.import_roots:
        if not root.is_dir():
            print(f"gitbook-tui serve: --allow-import-root {root}: not a folder", file=sys.stderr)
            return 2
    for host in args.fetch_hosts:
        try:
            parse_host_rule(host)
        except ValueError as exc:
            print(f"gitbook-tui serve: --allow-fetch-host: {exc}", file=sys.stderr)
            return 2
    for folder in args.imports:
        if not (folder / "SUMMARY.md").exists() and not (folder / ".gitbook.yaml").exists():
            print(
                f"gitbook-tui serve: --import {folder}: not a Git Sync folder "
                "(no .gitbook.yaml or SUMMARY.md)",
                file=sys.stderr,
            )
            return 2
    db = args.db or data_dir() / ("demo.sqlite" if args.demo else "workspace.sqlite")
    try:
        serve_forever(
            db,
            host=args.host,
            port=args.port,
            token=args.token,
            faults=faults,
            demo=args.demo,
            import_dirs=args.imports,
            allow_import_roots=args.import_roots,
            allow_fetch_hosts=args.fetch_hosts,
            rotate_token=args.rotate_token,
        )
    except OSError as exc:
        print(
            f"gitbook-tui serve: cannot listen on {args.host}:{args.port}: {exc}", file=sys.stderr
        )
        return 1
    except ValueError as exc:
        # An import refused (ContentImportError is a ValueError): say why, no traceback.
        print(f"gitbook-tui serve: --import: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


def _read_token(given: str | None) -> str:
    if given is not None:
        return given
    if sys.stdin is not None and sys.stdin.isatty():
        import getpass

        return getpass.getpass("GitBook API token: ")
    return sys.stdin.readline() if sys.stdin is not None else ""


def run_auth(args: argparse.Namespace) -> int:
    import asyncio

    from .api import auth
    from .api.config import DEFAULT_API_URL, config_path
    from .api.errors import APIConnectionError, AuthenticationError, GitBookError

    if args.auth_command == "login":
        api_url = args.api_url or DEFAULT_API_URL
        token = _read_token(args.token).strip()
        if not token:
            print("gitbook-tui auth login: no token given", file=sys.stderr)
            return 1
        try:
            result = asyncio.run(auth.login(token, api_url=api_url, profile=args.profile))
        except AuthenticationError as exc:
            print(
                f"gitbook-tui auth login: {api_url} rejected the token ({exc.message}); "
                "nothing was stored",
                file=sys.stderr,
            )
            return 1
        except APIConnectionError as exc:
            print(f"gitbook-tui auth login: cannot reach {api_url}: {exc}", file=sys.stderr)
            return 1
        except (GitBookError, ValueError) as exc:
            print(f"gitbook-tui auth login: {exc}; nothing was stored", file=sys.stderr)
            return 1
        if result.stored_in == "config":
            print(
                "gitbook-tui auth login: warning: no usable OS keyring; the token is stored "
                f"in {result.config_file} (readable only by you)",
                file=sys.stderr,
            )
        where = "the OS keyring" if result.stored_in == "keyring" else str(result.config_file)
        print(
            f"Logged in to {result.api_url} as {auth.describe_user(result.user)} "
            f"(profile '{result.profile}'); token stored in {where}."
        )
        return 0
    if args.auth_command == "status":
        env = asyncio.run(auth.env_status())
        profiles = asyncio.run(auth.status())
        if env is not None:
            print("GITBOOK_TOKEN is set: it overrides the stored tokens.")
            _print_status(env, auth.describe_user)
        if not profiles:
            print(f"No stored profiles in {config_path()}. Run 'gitbook-tui auth login'.")
        for profile in profiles:
            _print_status(profile, auth.describe_user)
        ok = all(p.ok for p in profiles) and (env is None or env.ok)
        return 0 if ok and (profiles or env is not None) else 1
    removed = auth.logout(args.profile)
    if not removed:
        print(f"gitbook-tui auth logout: no stored token for profile '{args.profile}'")
        return 1
    places = " and ".join(
        "the OS keyring" if r == "keyring" else "the config file" for r in removed
    )
    print(f"Logged out of profile '{args.profile}' (token removed from {places}).")
    return 0


def _print_status(profile: auth.ProfileStatus, describe: Callable[[User], str]) -> None:
    where = {"keyring": "OS keyring", "config": "config file", None: "none"}[profile.stored_in]
    if profile.name == "GITBOOK_TOKEN":
        where = "environment"
    default = " (default)" if profile.is_default else ""
    print(f"{profile.name}{default}")
    print(f"  API URL: {profile.api_url}")
    print(f"  token:   {where}")
    if profile.user is not None:
        print(f"  user:    {describe(profile.user)}")
    else:
        print(f"  error:   {profile.error}")


def _size(n: int) -> str:
    value = float(n)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if value < 1024 or unit == "GiB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{n} B"


def run_cache(args: argparse.Namespace) -> int:
    from .cache import ResponseCache

    cache = ResponseCache()
    try:
        if args.cache_command == "clear":
            removed = cache.clear()
            print(f"Removed {removed} cached responses from {cache.path}.")
            return 0
        info = cache.info()
    finally:
        cache.close()
    print(f"Cache file: {info['path']}")
    print(f"Size:       {_size(info['file_bytes'])} on disk (cap {_size(info['max_bytes'])})")
    print(f"Entries:    {info['entries']}")
    for account, stats in info["accounts"].items():
        print(f"  account {account}: {stats['entries']} entries, {_size(stats['bytes'])}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "serve":
        return run_serve(args)
    if args.command == "auth":
        return run_auth(args)
    if args.command == "cache":
        return run_cache(args)
    return run_app(args)  # no command, "open" or "review"


def _start_demo_server() -> BackgroundStart:
    """The demo's server, starting (the first time: seeding) in a process of its own while
    the app imports and shows its progress; on the same port each run when it is free."""
    from .server.background import BackgroundStart

    return BackgroundStart(data_dir() / "demo.sqlite", demo=True, preferred_port=DEMO_PORT)


def run_app(args: argparse.Namespace) -> int:
    """The app (``gitbook-tui``, ``gitbook-tui open``, ``gitbook-tui review``). Without a token
    it starts on the welcome screen; asking there for the demo restarts on the demo server."""
    if sys.stdout.isatty():  # a line at once: the imports below take a moment
        print("gitbook-tui: starting…", flush=True)
    demo = bool(args.demo or getattr(args, "open_demo", False))
    handle = _start_demo_server() if demo else None  # first: it starts while the app imports
    try:
        return _run_app(args, demo, handle)
    finally:
        if handle is not None:
            handle.stop()


def _run_app(args: argparse.Namespace, demo: bool, handle: BackgroundStart | None) -> int:
    from .api import AsyncGitBook
    from .cache import ResponseCache
    from .server.demo.identity import demo_admin_token
    from .tui.app import RESULT_DEMO, GitBookApp
    from .tui.common.state import parse_target

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
            client = AsyncGitBook(demo_admin_token(), base_url=handle.url, cache=ResponseCache())
        else:
            client = AsyncGitBook(cache=ResponseCache())
        view = "reviews" if args.command == "review" else None
        app = GitBookApp(
            client,
            demo=demo,
            start=start,
            starting=handle.poll if handle is not None else None,
            start_view=view,
        )
        try:
            result = app.run()
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


if __name__ == "__main__":
    sys.exit(main())
