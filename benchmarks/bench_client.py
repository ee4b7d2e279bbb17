"""Client benchmark on loopback: listing spaces (ours, the official JS client, raw httpx), cached reads, warm tree.

Run (from the repository root):
    PYTHONPATH=$PWD/src python benchmarks/bench_client.py            # 3,002 spaces, median of 5
    PYTHONPATH=$PWD/src python benchmarks/bench_client.py --quick    # small, one round (CI)
    ... --db /tmp/bench-3002.sqlite   # keep the seeded database between runs (~15 s to seed)

The official ``@gitbook/api`` client comes from ``tests/js`` (``cd tests/js && npm ci``); without
its ``node_modules`` that part is skipped with a message. The server runs in its own process
(as for any real client), so no client shares its interpreter with the server; pass
``--in-process-server`` for the older setup (server in a thread of this process). Its socket
has TCP_NODELAY (see ``loopback_socket``). ``--quick`` only shows that everything still runs:
its one round of tiny pages says nothing about speed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import uvicorn

from gitbook_tui.api import AsyncGitBook, response_meta
from gitbook_tui.cache import ResponseCache
from gitbook_tui.models import ChangeRequestContentChange
from gitbook_tui.server.app import create_app, server_clock, server_storage
from gitbook_tui.server.bootstrap import ensure_owner

ROOT = Path(__file__).resolve().parent.parent
JS_DIR = ROOT / "tests" / "js"
JS_WORKER = Path(__file__).resolve().parent / "official_list_spaces.mjs"
TOKEN = "bench-token"


# -- the workspace --------------------------------------------------------------------------
async def seed(db: Path, spaces: int, pages: int) -> None:
    """An organization with ``spaces`` root spaces, the first with a tree of ``pages`` pages,
    made through the API (in-process, before the server starts)."""
    app = create_app(db)
    storage = server_storage(app)
    ensure_owner(storage, server_clock(app), TOKEN)
    transport = httpx.ASGITransport(app=app)
    async with AsyncGitBook(TOKEN, base_url="http://seed/v1", transport=transport) as c:
        org = (await c.orgs.list()).items[0].id
        first = ""
        for n in range(spaces):
            space = await c.spaces.create_in_org(org, title=f"Space {n:05d}", emoji="📘")
            first = first or space.id
        cr = await c.change_requests.create(first, subject="Pages")
        changes = [
            ChangeRequestContentChange.insert_markdown(f"Page {n}", f"# Page {n}\n\nBody.")
            for n in range(pages)
        ]
        for at in range(0, len(changes), 50):  # the API takes 50 changes a request
            await c.change_requests.edit_content(first, cr.id, changes[at : at + 50])
        await c.change_requests.merge(first, cr.id)
    storage.close()


def loopback_socket() -> socket.socket:
    """A listening loopback socket whose connections send at once (TCP_NODELAY).

    Made with ``IPPROTO_TCP`` so asyncio turns TCP_NODELAY on for each accepted connection:
    without it the server's response body waits for the client's delayed ACK of the
    headers, ~40 ms a request on Linux, which would swamp what is measured here."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    return sock


def http_server(db: Path) -> tuple[uvicorn.Server, socket.socket, str]:
    """The local server app on a fresh loopback socket: (server, socket, base URL)."""
    app = create_app(db)
    ensure_owner(server_storage(app), server_clock(app), TOKEN)
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
    sock = loopback_socket()
    return uvicorn.Server(config), sock, f"http://127.0.0.1:{sock.getsockname()[1]}/v1"


def serve_forever(db: Path) -> None:
    """``--serve DB``: the child process: print the URL, serve until terminated."""
    server, sock, url = http_server(db)
    print(f"Serving {url}", flush=True)
    asyncio.run(server.serve(sockets=[sock]))


class Server:
    """The local server: a child process (default), or a thread of this process."""

    def __init__(self, db: Path, *, in_process: bool) -> None:
        self.proc: subprocess.Popen[str] | None = None
        self.thread: tuple[uvicorn.Server, threading.Thread] | None = None
        if in_process:
            server, sock, self.url = http_server(db)
            server.config.install_signal_handlers = False  # type: ignore[attr-defined]
            thread = threading.Thread(
                target=lambda: asyncio.run(server.serve(sockets=[sock])), daemon=True
            )
            thread.start()
            self.thread = (server, thread)
            while not server.started:
                time.sleep(0.01)
            return
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--serve", str(db)], stdout=subprocess.PIPE, text=True
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()  # "Serving http://127.0.0.1:PORT/v1"
        if not line.startswith("Serving "):
            self.stop()
            raise RuntimeError(f"the local server did not start: {line!r}")
        self.url: str = line.split()[1]

    def stop(self) -> None:
        if self.thread is not None:
            server, thread = self.thread
            server.should_exit = True
            thread.join(10)
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(timeout=10)


# -- the three listers ----------------------------------------------------------------------
async def list_raw(client: httpx.AsyncClient, org: str, limit: int) -> int:
    """httpx and ``response.json()``: the floor for a Python client (untyped dicts)."""
    items: list[dict[str, Any]] = []
    page: str | None = None
    while True:
        params: dict[str, Any] = {"limit": limit, **({"page": page} if page else {})}
        body = (await client.get(f"orgs/{org}/spaces", params=params)).json()
        items.extend(body["items"])
        page = (body.get("next") or {}).get("page")
        if not page:
            return len(items)


async def list_ours(client: AsyncGitBook, org: str, limit: int) -> int:
    """Our client: typed ``Space`` models, following ``next.page``."""
    return len([s async for s in client.spaces.list_in_org(org, limit=limit)])


class Official:
    """The official ``@gitbook/api`` client in a node worker (timed inside node)."""

    def __init__(self, url: str) -> None:
        env = {**os.environ, "GITBOOK_ENDPOINT": url.removesuffix("/v1"), "GITBOOK_TOKEN": TOKEN}
        env["GITBOOK_JS_DIR"] = str(JS_DIR)
        self.proc = subprocess.Popen(
            ["node", str(JS_WORKER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )

    def list(self, org: str, limit: int) -> Sample:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps({"org": org, "limit": limit}) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the official client's worker stopped (see its error above)")
        answer = json.loads(line)
        return Sample(answer["ms"] / 1000, answer["cpuMs"] / 1000, int(answer["count"]))

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=10)


def official_unavailable() -> str | None:
    if shutil.which("node") is None:
        return "node is not installed"
    if not (JS_DIR / "node_modules" / "@gitbook" / "api").is_dir():
        return "tests/js/node_modules is absent (cd tests/js && npm ci)"
    return None


@dataclass
class Sample:
    wall: float  # seconds
    cpu: float  # seconds of the client's process (user + system)
    count: int


async def timed(lister: Callable[[], Awaitable[int]]) -> Sample:
    wall, cpu = time.perf_counter(), time.process_time()
    count = await lister()
    return Sample(time.perf_counter() - wall, time.process_time() - cpu, count)


async def bench_listing(
    url: str, org: str, spaces: int, limit: int, rounds: int, *, cpu: bool
) -> None:
    """Each lister lists every space and keeps them all (as a screen showing them does).
    Each uses one client for all its rounds, as an app does: made outside the timing (an
    httpx client costs an SSL context, ~10-40 ms, whatever the URL's scheme), its
    keep-alive connection warm after the first round (node's fetch keeps its own).
    Wall time is the target; the client's own CPU time is shown too: it says what the
    client costs on a busy machine, where wall times of a few hundred milliseconds wander."""
    skip = official_unavailable()
    official = Official(url) if skip is None else None
    samples: dict[str, list[Sample]] = {"ours": [], "httpx": [], "official": []}
    headers = {"Authorization": f"Bearer {TOKEN}"}
    ours = AsyncGitBook(TOKEN, base_url=url)
    raw = httpx.AsyncClient(base_url=url + "/", headers=headers)
    try:

        async def one(name: str) -> Sample:
            if name == "ours":
                return await timed(lambda: list_ours(ours, org, limit))
            if name == "httpx":
                return await timed(lambda: list_raw(raw, org, limit))
            assert official is not None
            return official.list(org, limit)

        names = ["ours", "httpx"] + (["official"] if official else [])
        for name in names:  # warm up: imports, JIT, the server's statement cache
            await one(name)
        for r in range(rounds):
            for name in names[r % len(names) :] + names[: r % len(names)]:
                sample = await one(name)
                assert sample.count == spaces, (name, sample.count, spaces)
                samples[name].append(sample)
    finally:
        await ours.close()
        await raw.aclose()
        if official is not None:
            official.close()
    wall = {name: statistics.median(x.wall for x in s) for name, s in samples.items() if s}
    used = {name: statistics.median(x.cpu for x in s) for name, s in samples.items() if s}
    pages = -(-spaces // limit)
    print(
        f"list {spaces} spaces ({pages} pages of {limit}, median of {rounds}): "
        + ", ".join(f"{name} {seconds * 1000:.0f} ms" for name, seconds in wall.items())
    )
    if cpu:
        print(
            "  client CPU: "
            + ", ".join(f"{name} {seconds * 1000:.0f} ms" for name, seconds in used.items())
        )
    print(
        f"  ours/httpx    {wall['ours'] / wall['httpx']:.3f} (target <= 1.10)"
        f"   paired: {paired(samples, 'httpx'):.3f}"
    )
    if "official" in wall:
        print(
            f"  ours/official {wall['ours'] / wall['official']:.3f} (target <= 1.00)"
            f"   paired: {paired(samples, 'official'):.3f}"
        )
    else:
        print(f"  official client skipped: {skip}")


def paired(samples: dict[str, list[Sample]], other: str) -> float:
    """Median of the rounds' own ratios (ours / other, run back to back): steadier than
    the ratio of medians when the machine's load changes between rounds."""
    return statistics.median(
        a.wall / b.wall for a, b in zip(samples["ours"], samples[other], strict=True)
    )


async def bench_cached_read(url: str, space: str, cache: ResponseCache, reads: int) -> None:
    async with AsyncGitBook(TOKEN, base_url=url, cache=cache) as c:
        page = (await c.content.pages(space)).pages[0].id
        await c.content.get_page(space, page, format="markdown")
        samples = []
        for _ in range(reads):
            start = time.perf_counter()
            await c.content.get_page(space, page, format="markdown", read="cache-only")
            samples.append(time.perf_counter() - start)
    p95 = sorted(samples)[int(len(samples) * 0.95)]
    print(
        f"cached page read: median {statistics.median(samples) * 1000:.3f} ms, "
        f"p95 {p95 * 1000:.3f} ms (target <= 2 ms)"
    )


class CountingTransport(httpx.AsyncBaseTransport):
    def __init__(self) -> None:
        self.inner = httpx.AsyncHTTPTransport()
        self.requests = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.requests += 1
        return await self.inner.handle_async_request(request)


async def bench_warm_tree(url: str, org: str, space: str, cache: ResponseCache) -> None:
    counting = CountingTransport()
    async with AsyncGitBook(TOKEN, base_url=url, cache=cache) as c:
        await c.orgs.list()
        await c.spaces.list_in_org(org, limit=100)
        await c.content.pages(space)
    async with AsyncGitBook(TOKEN, base_url=url, cache=cache, transport=counting) as warm:
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


async def find_workspace(url: str) -> tuple[str, str, int]:
    """(org id, id of the space with the page tree, number of spaces) of a seeded database."""
    async with AsyncGitBook(TOKEN, base_url=url) as c:
        org = (await c.orgs.list()).items[0].id
        spaces = [s async for s in c.spaces.list_in_org(org, limit=1000)]
    first = next(s.id for s in spaces if s.title == "Space 00000")
    return org, first, len(spaces)


async def run(args: argparse.Namespace) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="gitbook-tui-bench-"))
    db = args.db or tmp / "bench.sqlite"
    try:
        if not db.exists():
            start = time.perf_counter()
            await seed(tmp / "seeding.sqlite", args.spaces, args.pages)
            shutil.copyfile(tmp / "seeding.sqlite", db)  # only a complete database is kept
            print(f"seeded {args.spaces} spaces in {time.perf_counter() - start:.1f} s")
        server = Server(db, in_process=args.in_process_server)
        try:
            org, space, spaces = await find_workspace(server.url)
            await bench_listing(
                server.url, org, spaces, args.limit, args.rounds, cpu=not args.in_process_server
            )
            cache = ResponseCache(tmp / "cache.sqlite")
            try:
                await bench_cached_read(server.url, space, cache, 20 if args.quick else 200)
                await bench_warm_tree(server.url, org, space, cache)
            finally:
                cache.close()
        finally:
            server.stop()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spaces", type=int, default=3002)
    parser.add_argument("--limit", type=int, default=1000, help="page size of the listing")
    parser.add_argument("--pages", type=int, default=200, help="pages in the first space")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="small sizes, one round")
    parser.add_argument(
        "--db", type=Path, help="database to reuse (seeded into it first when it does not exist)"
    )
    parser.add_argument(
        "--in-process-server",
        action="store_true",
        help="run the server in a thread of this process",
    )
    parser.add_argument("--serve", type=Path, help=argparse.SUPPRESS)  # the server child
    args = parser.parse_args()
    if args.serve:
        serve_forever(args.serve)
        return 0
    if args.quick:
        args.spaces, args.limit, args.pages, args.rounds = 25, 10, 5, 1
    asyncio.run(run(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
