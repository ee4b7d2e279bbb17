"""``gitbook-tui serve``: check the options, then run the local workspace server."""

from __future__ import annotations

import argparse
import sys

from .paths import data_dir

__all__ = ["run_serve"]


def run_serve(args: argparse.Namespace) -> int:
    from ..server.core.faults import parse_faults
    from ..server.core.url_guard import parse_host_rule
    from ..server.runner import serve_forever

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
