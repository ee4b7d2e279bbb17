"""Command line: ``gitbook-tui`` (the app), ``serve``, ``auth …`` and ``cache …``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from platformdirs import user_data_dir


def data_dir() -> Path:
    path = Path(user_data_dir("gitbook-tui", appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path


def _add_serve(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    serve = sub.add_parser("serve", help="run the local workspace server")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (loopback by default)")
    serve.add_argument("--port", type=int, default=8080, help="port (0 picks a free one)")
    serve.add_argument("--db", type=Path, default=None, help="database file (created if missing)")
    serve.add_argument(
        "--demo", action="store_true", help="seed the demo workspace into a new database"
    )
    serve.add_argument("--token", default=None, help="the owner's token (generated if not given)")
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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gitbook-tui",
        description="Browse and review GitBook documentation workspaces from the terminal.",
    )
    parser.add_argument(
        "--demo", action="store_true", help="open the app on the bundled demo workspace"
    )
    sub = parser.add_subparsers(dest="command")
    _add_serve(sub)
    return parser


def run_serve(args: argparse.Namespace) -> int:
    from .server.faults import parse_faults
    from .server.runner import serve_forever

    try:
        faults = parse_faults(args.faults)
    except ValueError as exc:
        print(f"gitbook-tui serve: --faults: {exc}", file=sys.stderr)
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
        )
    except OSError as exc:
        print(
            f"gitbook-tui serve: cannot listen on {args.host}:{args.port}: {exc}", file=sys.stderr
        )
        return 1
    except KeyboardInterrupt:
        pass
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "serve":
        return run_serve(args)
    return run_app(args)


def run_app(args: argparse.Namespace) -> int:
    from .api import AsyncGitBook

    handle = None
    if args.demo:
        from .server.runner import start_in_thread

        handle = start_in_thread(data_dir() / "demo.sqlite", demo=True)
        client = AsyncGitBook(handle.token, base_url=handle.url)
    else:
        client = AsyncGitBook()
        if not client.has_token:
            print(
                "gitbook-tui: no token. Run 'gitbook-tui --demo' to try the bundled demo "
                "workspace, or set GITBOOK_TOKEN.",
                file=sys.stderr,
            )
            return 2
    from .tui.app import GitBookApp

    try:
        GitBookApp(client).run()
    finally:
        if handle is not None:
            handle.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
