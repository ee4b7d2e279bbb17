"""Workspace tree benchmark: the whole app (``GitBookApp``) on the local server over loopback.

Run: python benchmarks/bench_tree.py [--spaces 10000] [--rounds 3] [--size 120x40] [--quick]

``--quick`` (CI smoke test): 300 spaces, one round; it checks that every step still
reaches its frame, not how fast (well under 20 s; exits 0).

The database is written straight into storage (no API calls), in a temporary folder:

* "My Workspace", the owner's only organization (token ``bench-token``): ``--spaces``
  spaces at its root, no collection;
* "Knowledge", a second organization with another member (token ``bench-kb``): the
  Tidewater knowledge base of :func:`gitbook_tui.server.demo.generated.knowledge_base_pages`
  (2,124 pages, 9 top-level categories) as the main revision of one space, next to 3
  one-page spaces.

Every figure is wall-clock time in this process, headless ``App.run_test(size=…)``; the
server runs in a thread of the same process (``start_in_thread(…, port=0)``), so the
clock includes its work. A "frame" is a call of ``WorkspaceTree.render_lines`` (the
compositor painting the tree's region): a figure ends when the tree's lines of the first
frame that shows the wanted state have been rendered.

(a) space expand: the cursor on the collapsed, never-loaded knowledge-base space; from
    just before ``pilot.press("l")`` until the first frame in which the space node is
    expanded with its 9 top-level page nodes and all 2,124 pages are in the tree's model
    (``space_pages``; deeper levels are added to the Tree widget as they are expanded).
    The load is one request (``GET /spaces/{id}/content/pages``, the whole page tree).
    "expand all" then opens every page that has sub-pages at once (the remembered-state
    path: ``state.open_keys`` + ``_render_key``) until a frame with every page as a line.
(b) org expand: the cursor on the collapsed, never-loaded organization; from just before
    ``pilot.press("l")`` until the first frame in which the org node is expanded with
    spaces under it ("first spaces": the tree is usable; long lists are drawn as they
    come), and until the first frame with all ``--spaces`` space nodes ("all"). The tree
    follows every page of ``GET /orgs/{id}/spaces`` at the client's default page size,
    plus one collections request. The org starts collapsed because the remembered state
    names an expanded node that is not the org (with nothing remembered the only org
    opens by itself).
(c) cold vs warm start: from just before entering ``App.run_test`` to the first frame of
    the tree at all ("first frame", with how many space nodes it showed under the org),
    and to the first frame in which the org node is expanded with all ``--spaces`` space
    nodes ("complete"). Cold: a new, empty response cache and no UI state. Warm: the
    cache and the UI state (``ui-state.json``) the cold run left behind (it waits for its
    loads to finish, then quits with ``q``); the first frame is drawn from the cache alone
    (``read="cache-only"``, the first page of each list), the rest is read after it.
    "Warm, deep cursor": the same, with the remembered cursor on a space near the end of
    the list (not in the first frame): also the time until the cursor is on it.
    "requests" counts the HTTP requests the client had sent when a frame was painted (a
    counting transport around ``httpx.AsyncHTTPTransport``): a warm start's first frame
    must come before any.

Each run is also listed with the full (generation 2) garbage collections that fell inside
it ("incl. N full GC x ms"): the server shares this process and its heap, and one full
collection takes 150-400 ms here, so it decides whether a sub-second figure is fast or slow.
Every measured run starts after a ``gc.collect()``: the garbage a previous run left in this
process (a real start is a new process) does not fall into the next one.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import shlex
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from textual.geometry import Region
from textual.strip import Strip

from gitbook_tui.api import AsyncGitBook
from gitbook_tui.cache import ResponseCache
from gitbook_tui.server.app import create_app
from gitbook_tui.server.bootstrap import add_member, create_org, create_user, ensure_owner
from gitbook_tui.server.content.space_revision import set_space_revision
from gitbook_tui.server.content.store import create_revision
from gitbook_tui.server.core.clock import Clock, iso
from gitbook_tui.server.core.context import issue_token
from gitbook_tui.server.core.storage import Tx
from gitbook_tui.server.demo.generated import knowledge_base_pages
from gitbook_tui.server.runner import start_in_thread
from gitbook_tui.tui.app import GitBookApp
from gitbook_tui.tui.browse.browser_screen import BrowserScreen
from gitbook_tui.tui.browse.tree.workspace_tree import WorkspaceTree, org_key, space_key
from gitbook_tui.tui.common.config import TuiConfig
from gitbook_tui.tui.common.state import AccountState, StateStore, account_key

OWNER_TOKEN = "bench-token"
KB_TOKEN = "bench-kb"


# -- the database --------------------------------------------------------------------------------
def _space(tx: Tx, storage: Any, org: str, title: str, now: str, pages: list[Any]) -> str:
    space_id, rev = storage.new_id(), storage.new_id()
    create_revision(
        tx,
        revision_id=rev,
        space_id=space_id,
        parents=[],
        pages=pages,
        files=[],
        type="initial",
        created_at=now,
    )
    record = {
        "id": space_id,
        "title": title,
        "emoji": None,
        "visibility": "private",
        "createdAt": now,
        "updatedAt": now,
        "editMode": "live",
        "organization": org,
        "parent": None,
        "revision": rev,
        "defaultLevel": None,
    }
    tx.put("space", space_id, record, scope=f"org:{org}")
    return space_id


def _page_nodes(tx: Tx, storage: Any, pages: list[dict[str, Any]], now: str) -> list[Any]:
    """Stored PageNodes (markdown in the blob store) for generated pages."""
    return [
        {
            "id": storage.new_id(),
            "title": page["title"],
            "type": "document",
            "slug": page["slug"],
            "description": page.get("description"),
            "createdAt": now,
            "updatedAt": now,
            "document": tx.put_blob(page["markdown"]),
            "pages": _page_nodes(tx, storage, page.get("pages") or [], now),
        }
        for page in pages
    ]


def count_pages(pages: list[dict[str, Any]]) -> int:
    return sum(1 + count_pages(p.get("pages") or []) for p in pages)


def build_database(path: Path, spaces: int) -> dict[str, Any]:
    clock = Clock()
    app = create_app(path, clock=clock)
    storage = app.state.server.storage
    ensure_owner(storage, clock, OWNER_TOKEN)
    now = iso(clock.now())
    generated = knowledge_base_pages()
    with storage.transaction() as tx:
        owner = tx.meta("owner")
        big = next(m["organization"] for m in tx.list("member") if m["user"] == owner)
        for n in range(spaces):
            _space(tx, storage, big, f"Space {n:05d}", now, [])
        kb_org = create_org(tx, storage, clock, "Knowledge", hostname="knowledge")["id"]
        reader = create_user(tx, storage, clock, "Kim Reader", "kim@knowledge.test")["id"]
        issue_token(tx, reader, KB_TOKEN)
        add_member(tx, clock, kb_org, reader, "admin")
        for title in ("Handbook", "Runbooks", "Release notes"):
            page = {"title": title, "slug": "intro", "markdown": f"# {title}\n", "pages": []}
            _space(tx, storage, kb_org, title, now, _page_nodes(tx, storage, [page], now))
        kb = _space(tx, storage, kb_org, "Knowledge base", now, [])
        rev = storage.new_id()
        create_revision(
            tx,
            revision_id=rev,
            space_id=kb,
            parents=[],
            pages=_page_nodes(tx, storage, generated, now),
            files=[],
            type="import",
            created_at=now,
        )
        set_space_revision(tx, tx.get("space", kb), rev, now)
    storage.close()
    return {
        "big_org": big,
        "kb_org": kb_org,
        "kb_space": kb,
        "kb_pages": count_pages(generated),
        "kb_top": len(generated),
    }


# -- instruments ----------------------------------------------------------------------------------
class CountingTransport(httpx.AsyncBaseTransport):
    def __init__(self) -> None:
        self.inner = httpx.AsyncHTTPTransport()
        self.requests = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.requests += 1
        return await self.inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self.inner.aclose()


Probe = Callable[[WorkspaceTree], None]
_probes: list[Probe] = []
_original_render_lines = WorkspaceTree.render_lines


def _render_lines(self: WorkspaceTree, crop: Region) -> list[Strip]:
    lines = _original_render_lines(self, crop)
    for probe in list(_probes):
        probe(self)
    return lines


WorkspaceTree.render_lines = _render_lines  # type: ignore[method-assign]


class FullCollections:
    """Counts the full (generation 2) garbage collections of the process and their time."""

    def __init__(self) -> None:
        self.count = 0
        self.seconds = 0.0
        self._started = 0.0
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if info.get("generation") != 2:
            return
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.count += 1
            self.seconds += time.perf_counter() - self._started

    def snapshot(self) -> tuple[int, float]:
        return self.count, self.seconds


FULL_GC = FullCollections()


class FrameWatch:
    """Records the time of the first tree frame in which ``condition(tree)`` holds (and
    of the first tree frame at all), with the transport's request count and the full
    garbage collections since the watch was made (count, seconds) then."""

    def __init__(
        self,
        condition: Callable[[WorkspaceTree], bool],
        transport: CountingTransport,
        shown: Callable[[WorkspaceTree], int] | None = None,
    ) -> None:
        self.condition = condition
        self.transport = transport
        self.shown = shown
        self.first_frame: float | None = None
        self.first_shown = 0  # what ``shown`` counted in the first frame
        self.first_requests = 0  # requests sent before the first frame
        self.first_gc: tuple[int, float] = (0, 0.0)  # full collections before it
        self.at: float | None = None
        self.requests: int | None = None
        self.gc_start = FULL_GC.snapshot()
        self.gc: tuple[int, float] = (0, 0.0)
        self.done = asyncio.Event()
        _probes.append(self)

    def __call__(self, tree: WorkspaceTree) -> None:
        now = time.perf_counter()
        if self.first_frame is None:
            self.first_frame = now
            self.first_shown = self.shown(tree) if self.shown is not None else 0
            self.first_requests = self.transport.requests
            count, seconds = FULL_GC.snapshot()
            self.first_gc = (count - self.gc_start[0], seconds - self.gc_start[1])
        if self.at is None and self.condition(tree):
            self.at = now
            self.requests = self.transport.requests
            count, seconds = FULL_GC.snapshot()
            self.gc = (count - self.gc_start[0], seconds - self.gc_start[1])
            _probes.remove(self)
            self.done.set()

    def close(self) -> None:
        if self in _probes:
            _probes.remove(self)

    async def wait(self, what: str, timeout: float = 120.0) -> float:
        """The time of that frame (waits on an event: polling with ``pilot.pause`` would
        post a callback to every widget each turn and slow down what is measured)."""
        try:
            await asyncio.wait_for(self.done.wait(), timeout)
        except TimeoutError:
            self.close()
            raise RuntimeError(f"timed out waiting for {what}") from None
        assert self.at is not None
        return self.at


def expanded_with(key: str, children: int) -> Callable[[WorkspaceTree], bool]:
    """The node of ``key`` is expanded with ``children`` nodes (at least, when negative:
    ``-1`` is "any")."""

    def condition(tree: WorkspaceTree) -> bool:
        node = tree._node_for(key)
        if node is None or not node.is_expanded:
            return False
        if children < 0:
            return len(node.children) >= -children and node.children[0].data.kind != "status"
        return len(node.children) == children

    return condition


def children_shown(key: str) -> Callable[[WorkspaceTree], int]:
    def count(tree: WorkspaceTree) -> int:
        node = tree._node_for(key)
        return len(node.children) if node is not None and node.is_expanded else 0

    return count


async def until(pilot: Any, condition: Callable[[], Any], what: str, timeout: float = 120) -> None:
    deadline = time.perf_counter() + timeout
    while not condition():
        if time.perf_counter() > deadline:
            raise RuntimeError(f"timed out waiting for {what}")
        await pilot.pause(0.01)


def make_app(
    url: str,
    token: str,
    state: Path,
    transport: CountingTransport,
    cache: ResponseCache | None = None,
) -> GitBookApp:
    client = AsyncGitBook(token, base_url=url, transport=transport, cache=cache)
    return GitBookApp(client, config=TuiConfig(), state_store=StateStore(state))


async def remember(url: str, token: str, state: Path, **fields: Any) -> None:
    """Write the UI state the next start reads (as a previous run would have)."""
    async with AsyncGitBook(token, base_url=url) as client:
        StateStore(state).save(account_key(client), AccountState(**fields))


# -- (a) the 2,000-page space ------------------------------------------------------------------------
async def bench_space(url: str, db: dict[str, Any], tmp: Path, size: tuple[int, int]) -> dict:
    state = tmp / f"state-space-{time.monotonic_ns()}.json"
    kb, org = db["kb_space"], db["kb_org"]
    await remember(
        url, KB_TOKEN, state, org_id=org, expanded=[org_key(org)], selected=space_key(kb)
    )
    transport = CountingTransport()
    app = make_app(url, KB_TOKEN, state, transport)
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: isinstance(app.screen, BrowserScreen), "the browser")
        browser = app.screen
        assert isinstance(browser, BrowserScreen)
        tree = browser.workspace_tree
        await until(pilot, lambda: tree._node_for(space_key(kb)) is not None, "the space")
        await pilot.pause()
        tree.focus()
        tree.select_key(space_key(kb))
        await pilot.pause()
        assert not tree.is_loaded(space_key(kb))
        requests = transport.requests
        loaded = expanded_with(space_key(kb), db["kb_top"])

        def all_pages(t: WorkspaceTree) -> bool:
            return loaded(t) and len(t.space_pages(kb)) == db["kb_pages"]

        gc.collect()  # start clean: no garbage of what came before (see the module docstring)
        watch = FrameWatch(all_pages, transport)
        started = time.perf_counter()
        await pilot.press("l")
        expand_s = await watch.wait("the expanded space") - started
        expand_requests = (watch.requests or 0) - requests
        expand_gc = watch.gc
        await pilot.pause()

        # every page with sub-pages opened at once, as a remembered state would
        lines = db["kb_pages"] + 4  # + the org and its 4 spaces
        gc.collect()
        watch = FrameWatch(lambda t: t.last_line + 1 >= lines, transport)
        started = time.perf_counter()
        kids = tree.state.kids
        tree.state.open_keys.update(p.key for p in tree.space_pages(kb) if kids.get(p.key))
        tree._render_key(space_key(kb))
        all_s = await watch.wait("the fully expanded space") - started
    return {
        "expand_s": expand_s,
        "expand_gc": expand_gc,
        "requests": expand_requests,
        "all_s": all_s,
        "all_gc": watch.gc,
        "lines": lines,
    }


# -- (b) the organization with 10,000 spaces --------------------------------------------------------
async def bench_org(url: str, db: dict[str, Any], tmp: Path, size: tuple[int, int], spaces: int):
    state = tmp / f"state-org-{time.monotonic_ns()}.json"
    org = db["big_org"]
    # remembered: something expanded, but not the org (so it starts collapsed)
    await remember(url, OWNER_TOKEN, state, org_id=org, expanded=["space:elsewhere"], selected=None)
    transport = CountingTransport()
    app = make_app(url, OWNER_TOKEN, state, transport)
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: isinstance(app.screen, BrowserScreen), "the browser")
        browser = app.screen
        assert isinstance(browser, BrowserScreen)
        tree = browser.workspace_tree
        await until(pilot, lambda: tree._node_for(org_key(org)) is not None, "the org node")
        await pilot.pause()
        tree.focus()
        tree.select_key(org_key(org))
        await pilot.pause()
        assert not tree.is_loaded(org_key(org)), "the org was loaded before the expand"
        requests = transport.requests
        gc.collect()
        first = FrameWatch(expanded_with(org_key(org), -1), transport)
        watch = FrameWatch(expanded_with(org_key(org), spaces), transport)
        started = time.perf_counter()
        await pilot.press("l")
        first_s = await first.wait("the org expanded with spaces") - started
        expand_s = await watch.wait("the expanded org") - started
        expand_requests = (watch.requests or 0) - requests
        first_requests = (first.requests or 0) - requests
    return {
        "first_s": first_s,
        "first_gc": first.gc,
        "first_requests": first_requests,
        "expand_s": expand_s,
        "expand_gc": watch.gc,
        "requests": expand_requests,
    }


# -- (c) cold and warm start ------------------------------------------------------------------------
async def start_once(
    url: str,
    org: str,
    state: Path,
    cache: ResponseCache,
    size: tuple[int, int],
    spaces: int,
    cursor: str | None = None,
) -> dict[str, Any]:
    """One start of the app until the org is shown expanded with every space (and the
    cursor on ``cursor``, when given); then let the loads (cold) or the background
    revalidations (warm) finish and quit with q (the state is saved)."""
    gc.collect()  # as a new process would: no garbage of the run before
    transport = CountingTransport()
    app = make_app(url, OWNER_TOKEN, state, transport, cache=cache)
    watch = FrameWatch(expanded_with(org_key(org), spaces), transport, children_shown(org_key(org)))
    on_cursor = FrameWatch(lambda t: t.selected_key == cursor, transport) if cursor else None
    started = time.perf_counter()
    async with app.run_test(size=size) as pilot:
        shown = await watch.wait("the org expanded") - started
        cursor_s = await on_cursor.wait("the cursor") - started if on_cursor else None
        assert watch.first_frame is not None
        browser = app.screen
        assert isinstance(browser, BrowserScreen)
        tree = browser.workspace_tree
        await until(pilot, lambda: not tree.loader.in_flight, "the loads")
        await pilot.pause(0.2)
        await until(pilot, lambda: all(w.is_finished for w in app.workers), "the workers")
        total_requests = transport.requests
        spaces_in_order = [c.key for c in tree.state.kids.get(org_key(org), [])]
        await pilot.press("q")
    return {
        "shown_s": shown,
        "shown_gc": watch.gc,
        "first_frame_s": watch.first_frame - started,
        "first_frame_gc": watch.first_gc,
        "first_shown": watch.first_shown,
        "first_requests": watch.first_requests,
        "cursor_s": cursor_s,
        "cursor_gc": on_cursor.gc if on_cursor else (0, 0.0),
        "requests": watch.requests,
        "total_requests": total_requests,
        "spaces": spaces_in_order,
    }


async def bench_start(
    url: str, db: dict[str, Any], tmp: Path, size: tuple[int, int], spaces: int, round_: int
) -> dict[str, dict[str, Any]]:
    """A cold start on a new cache and state, a warm start on what it left, and a warm
    start with the cursor remembered on a space near the end of the list."""
    state = tmp / f"state-start-{round_}.json"
    cache = ResponseCache(tmp / f"cache-start-{round_}.sqlite")
    try:
        cold = await start_once(url, db["big_org"], state, cache, size, spaces)
        warm = await start_once(url, db["big_org"], state, cache, size, spaces)
        deep = warm["spaces"][len(warm["spaces"]) * 19 // 20]
        async with AsyncGitBook(OWNER_TOKEN, base_url=url) as client:
            account = account_key(client)
        store = StateStore(state)
        remembered = store.load(account)
        remembered.selected = deep
        store.save(account, remembered)
        far = await start_once(url, db["big_org"], state, cache, size, spaces, cursor=deep)
    finally:
        cache.close()
    return {"cold": cold, "warm": warm, "warm, deep cursor": far}


# -- main -----------------------------------------------------------------------------------------
def spread(values: list[float]) -> str:
    return (
        f"median {statistics.median(values) * 1000:.1f} ms "
        f"(min {min(values) * 1000:.1f}, max {max(values) * 1000:.1f}, n={len(values)})"
    )


def each(figures: list[dict[str, Any]], name: str) -> str:
    """Every run's figure with the full garbage collections that fell inside it."""
    parts = []
    for f in figures:
        count, seconds = f[f"{name}_gc"]
        gc_note = f" incl. {count} full GC {seconds * 1000:.0f} ms" if count else ""
        parts.append(f"{f[f'{name}_s'] * 1000:.1f}{gc_note}")
    return "runs (ms): " + "; ".join(parts)


async def run(args: argparse.Namespace) -> None:
    columns, rows = (int(part) for part in args.size.split("x"))
    size = (columns, rows)
    tmp = Path(tempfile.mkdtemp(prefix="gitbook-tui-bench-tree-"))
    for name in ("CONFIG", "CACHE", "DATA"):  # never the user's own config, cache or state
        os.environ[f"XDG_{name}_HOME"] = str(tmp / name.lower())
    started = time.perf_counter()
    db = build_database(tmp / "bench.sqlite", args.spaces)
    build_s = time.perf_counter() - started
    handle = start_in_thread(tmp / "bench.sqlite", port=0, token=OWNER_TOKEN)
    url = handle.url
    try:
        async with httpx.AsyncClient(headers={"Authorization": f"Bearer {OWNER_TOKEN}"}) as c:
            await c.get(f"{url}/orgs/{db['big_org']}/spaces", params={"limit": 1000})  # warm up
        print(
            f"database: {args.spaces:,} spaces in one org; a {db['kb_pages']:,}-page space "
            f"({db['kb_top']} top-level pages) in another; built in {build_s:.1f} s"
        )
        print(f"terminal {columns}x{rows}, {args.rounds} rounds, server {url}")

        space = [await bench_space(url, db, tmp, size) for _ in range(args.rounds)]
        print(f"(a) expand the {db['kb_pages']:,}-page space ('l' → frame with it expanded):")
        print(f"      {spread([f['expand_s'] for f in space])}, {space[0]['requests']} request(s)")
        print(f"      {each(space, 'expand')}")
        print(f"    expand all its pages at once (→ frame with {space[0]['lines']:,} lines):")
        print(f"      {spread([f['all_s'] for f in space])}")
        print(f"      {each(space, 'all')}")

        orgs = [await bench_org(url, db, tmp, size, args.spaces) for _ in range(args.rounds)]
        print(f"(b) expand the org of {args.spaces:,} spaces ('l' →):")
        print(f"    frame with its first spaces: {spread([f['first_s'] for f in orgs])}, ")
        print(f"      {orgs[0]['first_requests']} request(s); {each(orgs, 'first')}")
        print(f"    frame with them all: {spread([f['expand_s'] for f in orgs])}, ")
        print(f"      {orgs[0]['requests']} requests; {each(orgs, 'expand')}")

        starts = [await bench_start(url, db, tmp, size, args.spaces, n) for n in range(args.rounds)]
        print(f"(c) start → frames of the tree (the org of {args.spaces:,} spaces expanded):")
        for kind in ("cold", "warm", "warm, deep cursor"):
            runs = [s[kind] for s in starts]
            print(f"    {kind}:")
            print(f"      first frame: {spread([r['first_frame_s'] for r in runs])}")
            print(f"        {each(runs, 'first_frame')}")
            print(
                f"        space nodes in it: {[r['first_shown'] for r in runs]}; "
                f"requests before it: {[r['first_requests'] for r in runs]}"
            )
            if runs[0]["cursor_s"] is not None:
                print(
                    f"      cursor on the remembered space: {spread([r['cursor_s'] for r in runs])}"
                )
                print(f"        {each(runs, 'cursor')}")
            print(f"      complete (all {args.spaces:,}): {spread([r['shown_s'] for r in runs])}")
            print(f"        {each(runs, 'shown')}")
            print(
                f"        requests before it: {[r['requests'] for r in runs]}; "
                f"all requests of the run: {[r['total_requests'] for r in runs]}"
            )
    finally:
        handle.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spaces", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--size", default="120x40", help="terminal size, COLSxROWS")
    parser.add_argument(
        "--quick", action="store_true", help="300 spaces, 1 round: a smoke test for CI"
    )
    args = parser.parse_args()
    if args.quick:
        args.spaces, args.rounds = min(args.spaces, 300), 1
    print("$", shlex.join([sys.executable, *sys.argv]))
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
