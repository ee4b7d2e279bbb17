"""``gitbook-tui cache info|clear``: the response cache on disk."""

from __future__ import annotations

import argparse

__all__ = ["run_cache"]


def _size(n: int) -> str:
    value = float(n)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if value < 1024 or unit == "GiB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{n} B"


def run_cache(args: argparse.Namespace) -> int:
    from ..cache import ResponseCache

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
