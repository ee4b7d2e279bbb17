"""Client benchmark against the local server on loopback: paging overhead, cached reads, warm tree.

Run: python benchmarks/bench_client.py [--spaces 10000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

from gitbook_tui.api import AsyncGitBook, response_meta
from gitbook_tui.cache import ResponseCache
from gitbook_tui.server.app import create_app
from gitbook_tui.server.bootstrap import ensure_owner
from gitbook_tui.server.content.space_revision import set_space_revision
from gitbook_tui.server.content.store import create_revision
from gitbook_tui.server.core.clock import Clock, iso
from gitbook_tui.server.runner import start_in_thread


def build_database(path: Path, spaces: int) -> tuple[str, str, str]:
    """An organization with ``spaces`` root spaces, one of them with a 200-page tree."""
    clock = Clock()
    app = create_app(path, clock=clock)
    storage = app.state.server.storage
    ensure_owner(storage, clock, "bench-token")
    now = iso(clock.now())
    with storage.transaction() as tx:
        owner = tx.meta("owner")
        org = next(m["organization"] for m in tx.list("member") if m["user"] == owner)
        first = ""
        for n in range(spaces):
            space_id, rev = storage.new_id(), storage.new_id()
            create_revision(
                tx,
                revision_id=rev,
                space_id=space_id,
                parents=[],
                pages=[],
                files=[],
                type="initial",
                created_at=now,
            )
            tx.put(
                "space",
                space_id,
                {
                    "id": space_id,
                    "title": f"Space {n:05d}",
                    "emoji": "📘",
                    "visibility": "private",
                    "createdAt": now,
                    "updatedAt": now,
                    "editMode": "live",
                    "organization": org,
                    "parent": None,
                    "revision": rev,
                    "defaultLevel": None,
                },
                scope=f"org:{org}",
            )
            first = first or space_id
        pages = [
            {
                "id": f"p{n}",
                "title": f"Page {n}",
                "type": "document",
                "slug": f"page-{n}",
                "createdAt": now,
                "updatedAt": now,
                "document": tx.put_blob(f"# Page {n}\n\nBody."),
                "pages": [],
            }
            for n in range(200)
        ]
        rev = storage.new_id()
        create_revision(
            tx,
            revision_id=rev,
            space_id=first,
            parents=[],
            pages=pages,
            files=[],
            type="edits",
            created_at=now,
        )
        set_space_revision(tx, tx.get("space", first), rev, now)
    storage.close()
    return org, first, "p0"


async def list_raw(url: str, token: str, path: str) -> int:
    count = 0
    async with httpx.AsyncClient(
        base_url=url + "/", headers={"Authorization": f"Bearer {token}"}
    ) as c:
        page: str | None = None
        while True:
            params = {"limit": 1000, **({"page": page} if page else {})}
            body = (await c.get(path.lstrip("/"), params=params)).json()
            count += len(body["items"])
            page = (body.get("next") or {}).get("page")
            if not page:
                return count


async def list_client(url: str, token: str, path_org: str) -> int:
    async with AsyncGitBook(token, base_url=url) as client:
        return len([s async for s in client.spaces.list_in_org(path_org, limit=1000)])


class CountingTransport(httpx.AsyncBaseTransport):
    def __init__(self) -> None:
        self.inner = httpx.AsyncHTTPTransport()
        self.requests = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.requests += 1
        return await self.inner.handle_async_request(request)


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--spaces", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="gitbook-tui-bench-"))
    org, space, page = build_database(tmp / "bench.sqlite", args.spaces)
    handle = start_in_thread(tmp / "bench.sqlite", port=0, token="bench-token")
    url, token = handle.url, "bench-token"
    try:
        await list_raw(url, token, f"/orgs/{org}/spaces")  # warm the server
        raw, client = [], []
        for _ in range(args.rounds):
            t = time.perf_counter()
            n_raw = await list_raw(url, token, f"/orgs/{org}/spaces")
            raw.append(time.perf_counter() - t)
            t = time.perf_counter()
            n_client = await list_client(url, token, org)
            client.append(time.perf_counter() - t)
        assert n_raw == n_client == args.spaces, (n_raw, n_client)
        ratio = statistics.median(client) / statistics.median(raw)
        print(
            f"list {args.spaces} spaces: raw httpx {statistics.median(raw) * 1000:.0f} ms, "
            f"client {statistics.median(client) * 1000:.0f} ms, ratio {ratio:.3f} (target <= 1.15)"
        )

        cache = ResponseCache(tmp / "cache.sqlite")
        async with AsyncGitBook(token, base_url=url, cache=cache) as c:
            await c.content.get_page(space, page, format="markdown")
            samples = []
            for _ in range(200):
                t = time.perf_counter()
                await c.content.get_page(space, page, format="markdown", read="cache-only")
                samples.append(time.perf_counter() - t)
        print(
            f"cached page read: median {statistics.median(samples) * 1000:.3f} ms, "
            f"p95 {sorted(samples)[int(len(samples) * 0.95)] * 1000:.3f} ms (target <= 2 ms)"
        )

        counting = CountingTransport()
        async with AsyncGitBook(token, base_url=url, cache=cache) as c:
            await c.orgs.list()
            await c.spaces.list_in_org(org, limit=100)
            await c.content.pages(space)
        async with AsyncGitBook(token, base_url=url, cache=cache, transport=counting) as warm:
            orgs = await warm.orgs.list(read="prefer-cache")
            spaces_page = await warm.spaces.list_in_org(org, limit=100, read="prefer-cache")
            tree = await warm.content.pages(space, read="prefer-cache")
            before = counting.requests
            for value in (orgs, spaces_page, tree):
                meta = response_meta(value)
                if meta and meta.refresh:
                    await meta.refresh
            after = counting.requests
        print(
            f"warm tree: {before} requests before first use (target 0), "
            f"{after} background revalidations after"
        )
    finally:
        handle.stop()


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
