"""CPU of the demo's second seeding phase (what the server's gate holds requests for).

Run: python benchmarks/bench_demo_phase2.py [--rounds 5] [--profile FILE] [--quick]

Each round seeds phase 1 into a new temporary database, then times phase 2 as the server
process runs it (a ``BatchStorage`` and an app of its own, ``DemoSeeding.seed_extras``):
process CPU time (all threads) and wall-clock. Prints each round and the min and median.
``--profile FILE``: one round under cProfile (sync routes run in worker threads, which
cProfile does not see: read the figures with that in mind), stats written to FILE.
"""

from __future__ import annotations

import argparse
import cProfile
import statistics
import tempfile
import time
from pathlib import Path

from gitbook_tui.server.app import create_app
from gitbook_tui.server.core.clock import Clock
from gitbook_tui.server.demo.batch import BatchStorage
from gitbook_tui.server.demo.phases import DemoSeeding


def one_round(folder: Path, profile: str | None = None) -> tuple[float, float]:
    db = folder / "demo.sqlite"
    first = BatchStorage(db)
    with DemoSeeding(first, app=create_app(first, clock=Clock())) as seeding:
        seeding.seed_structure()
    rest = BatchStorage(db)
    with DemoSeeding(rest, app=create_app(rest, clock=Clock())) as seeding:
        profiler = cProfile.Profile() if profile else None
        cpu, wall = time.process_time(), time.perf_counter()
        if profiler is not None:
            profiler.enable()
        seeding.seed_extras()
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(profile)
        return time.process_time() - cpu, time.perf_counter() - wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="one round (CI smoke test)")
    parser.add_argument("--profile", help="write cProfile stats of one round to this file")
    args = parser.parse_args()
    rounds = 1 if args.profile or args.quick else args.rounds
    cpus: list[float] = []
    for n in range(rounds):
        with tempfile.TemporaryDirectory() as folder:
            cpu, wall = one_round(Path(folder), args.profile)
        cpus.append(cpu)
        print(f"round {n + 1}: phase 2 {cpu:.3f} s CPU, {wall:.3f} s wall")
    print(f"phase 2 CPU: min {min(cpus):.3f} s, median {statistics.median(cpus):.3f} s")


if __name__ == "__main__":
    main()
