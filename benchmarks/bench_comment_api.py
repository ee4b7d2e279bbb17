"""Comment listing through the in-process server: ``GET /spaces/{id}/comments`` on the demo's
2,000-page knowledge base.

Run: python benchmarks/bench_comment_api.py [--rounds 20] [--db PATH] [--quick]

Seeds the demo into a temporary database (or reuses ``--db``, seeding it when empty), then
times, through ``httpx.ASGITransport`` (the whole app: middleware, routing, the handler,
JSON), ``--rounds`` requests of each kind and prints the median wall-clock and CPU time:

* all threads — ``GET …/comments?limit=100`` (the Comments view's first page);
* one page's threads — ``GET …/comments?targetPage=…&limit=100`` (its busiest page);
* one thread — ``GET …/comments/{id}``.

The ETag cache of the middleware is bypassed (no ``If-None-Match``): each request is answered.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path

import httpx

from gitbook_tui.server.app import create_app
from gitbook_tui.server.demo.seed import demo_token, seed_demo_if_empty

BASE = "http://bench.local/v1"


async def _space(client: httpx.AsyncClient, title: str) -> str:
    org = (await client.get("/orgs")).json()["items"][0]["id"]
    spaces = (await client.get(f"/orgs/{org}/spaces", params={"limit": 1000})).json()["items"]
    collections = await client.get(f"/orgs/{org}/collections", params={"limit": 1000})
    for coll in collections.json()["items"]:
        spaces += (await client.get(f"/collections/{coll['id']}/spaces")).json()["items"]
    return next(s["id"] for s in spaces if s["title"] == title)


async def _time(client: httpx.AsyncClient, url: str, rounds: int) -> tuple[float, float]:
    walls: list[float] = []
    cpus: list[float] = []
    for _ in range(rounds):
        wall, cpu = time.perf_counter(), time.process_time()
        response = await client.get(url)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
        assert response.status_code == 200, response.text
    return statistics.median(walls), statistics.median(cpus)


async def run(db: Path, rounds: int) -> None:
    app = create_app(db)
    transport = httpx.ASGITransport(app=app)
    headers = {"Authorization": f"Bearer {demo_token('maya')}"}
    async with httpx.AsyncClient(transport=transport, base_url=BASE, headers=headers) as client:
        kb = await _space(client, "Support knowledge base")
        listing = f"/spaces/{kb}/comments?limit=100"
        everything = (await client.get(f"/spaces/{kb}/comments?limit=1000")).json()["items"]
        busiest = Counter(c["target"]["page"]["id"] for c in everything).most_common(1)[0][0]
        cases = {
            "all threads (limit=100)": listing,
            "one page's threads": f"/spaces/{kb}/comments?targetPage={busiest}&limit=100",
            "one thread": f"/spaces/{kb}/comments/{everything[0]['id']}",
        }
        await client.get(listing)  # warm: routes, caches of the first request
        print(f"{len(everything)} threads; median of {rounds} requests each:")
        for name, url in cases.items():
            wall, cpu = await _time(client, url, rounds)
            print(f"  {name:26} {wall * 1000:7.1f} ms wall  {cpu * 1000:7.1f} ms CPU")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--quick", action="store_true", help="3 requests each (CI smoke test)")
    parser.add_argument("--db", type=Path, help="a demo database to reuse (seeded if empty)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = args.db or Path(folder) / "demo.sqlite"
        started = time.perf_counter()
        if seed_demo_if_empty(create_app(db)):
            print(f"seeded the demo in {time.perf_counter() - started:.1f} s")
        asyncio.run(run(db, 3 if args.quick else args.rounds))


if __name__ == "__main__":
    main()
