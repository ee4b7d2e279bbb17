"""Timing helpers shared by the whole-app benchmarks (bench_admin, bench_sites): waiting for a
condition at a fine grain, a private home for the app's files, and the figures' summary."""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

__all__ = ["app_arguments", "private_home", "summary", "terminal_size", "until"]


async def until(pilot: Any, condition: Callable[[], object], timeout: float = 60) -> None:
    """Let the app run (2 ms steps: a figure ends within them) until ``condition()``."""
    deadline = time.perf_counter() + timeout
    while not condition():
        if time.perf_counter() > deadline:
            raise RuntimeError("condition not reached in time")
        await pilot.pause(0.002)


def private_home(tmp: Path) -> None:
    """The app's data, cache and config under ``tmp`` (never the user's own)."""
    os.environ["XDG_DATA_HOME"] = str(tmp / "data")
    os.environ["XDG_CACHE_HOME"] = str(tmp / "cache")
    os.environ["XDG_CONFIG_HOME"] = str(tmp / "config")


def summary(rounds: Sequence[dict[str, float]], names: Sequence[str], width: int) -> list[str]:
    """``name   median ms (min–max)`` of each figure over the rounds."""
    lines = []
    for name in names:
        values = [r[name] for r in rounds]
        lines.append(
            f"  {name:<{width}} {statistics.median(values) * 1000:7.1f} ms "
            f"({min(values) * 1000:.1f}–{max(values) * 1000:.1f})"
        )
    return lines


def app_arguments(
    doc: str, *, rounds: int = 5, size: str = "120x40", quick: str = ""
) -> argparse.ArgumentParser:
    """The options every whole-app benchmark takes: ``--rounds``, ``--size``, ``--quick``."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=rounds)
    parser.add_argument("--size", default=size)
    parser.add_argument("--quick", action="store_true", help=quick)
    return parser


def terminal_size(text: str) -> tuple[int, int]:
    """``120x40`` → ``(120, 40)``."""
    width, height = (int(x) for x in text.split("x"))
    return width, height
