"""A cold demo is seeded in two atomic phases: what the app's first screen needs before the
server answers, the rest while it answers — requests for that rest wait for it, a phase
cut short leaves nothing and is done again on the next start."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from gitbook_tui.server.app import create_app
from gitbook_tui.server.background import BackgroundStart
from gitbook_tui.server.content.search_index import is_indexed
from gitbook_tui.server.core.storage import Storage
from gitbook_tui.server.demo.batch import BatchStorage
from gitbook_tui.server.demo.gate import SeedingGate
from gitbook_tui.server.demo.phases import DemoSeeding
from gitbook_tui.server.demo.seed import demo_token, seed_phase
from gitbook_tui.server.demo.seed_base import SeedCancelled
from gitbook_tui.server.demo.seed_comments_extra import BUSY_PAGE_THREADS
from support.waits import until_sync

# -- one transaction per phase -----------------------------------------------------------------


def test_a_batch_is_seen_whole_or_not_at_all(tmp_path: Path) -> None:
    db = tmp_path / "b.sqlite"
    writer, reader = BatchStorage(db), Storage(db)
    with writer.batch():
        with writer.transaction() as tx:
            tx.put("note", "kept", {"n": 1})
        with pytest.raises(ValueError), writer.transaction() as tx:
            tx.put("note", "dropped", {"n": 2})
            raise ValueError("one step refused")
        with writer.read() as tx:  # the batch reads its own writes
            assert tx.get("note", "kept") == {"n": 1}
            assert tx.get("note", "dropped") is None
        with reader.read() as tx:  # another connection: nothing yet
            assert tx.get("note", "kept") is None
    with reader.read() as tx:
        assert tx.get("note", "kept") == {"n": 1}
    with pytest.raises(RuntimeError), writer.batch():
        with writer.transaction() as tx:
            tx.put("note", "lost", {"n": 3})
        raise RuntimeError("the phase stopped")
    with reader.read() as tx:
        assert tx.get("note", "lost") is None
    with writer.transaction() as tx:  # after a batch: plain transactions again
        tx.put("note", "later", {"n": 4})
    with reader.read() as tx:
        assert tx.get("note", "later") == {"n": 4}


# -- the gate ----------------------------------------------------------------------------------


def test_the_gate_lets_the_first_screen_through_and_holds_the_rest() -> None:
    gate = SeedingGate(lambda *_: asyncio.sleep(0), {"kb1"})
    for path in (
        "/v1/user",
        "/v1/orgs",
        "/v1/orgs/o1",
        "/v1/orgs/o1/spaces",
        "/v1/orgs/o1/collections",
        "/v1/orgs/o1/members",
        "/v1/collections/c1/spaces",
        "/v1/spaces/guide1",
        "/v1/spaces/guide1/content/pages",
        "/v1/spaces/guide1/content/page/p1",
        "/v1/spaces/guide1/search",  # a written space is all there
        "/files/abc/logo.png",
    ):
        assert not gate.must_wait("GET", path), path
    for method, path in (
        ("GET", "/v1/spaces/kb1/content/pages"),  # its pages come in the second phase
        ("GET", "/v1/spaces/kb1"),
        ("GET", "/v1/spaces/guide1/comments"),
        ("GET", "/v1/spaces/guide1/change-requests"),
        ("GET", "/v1/spaces/kb1/search"),
        ("GET", "/v1/orgs/o1/change-requests"),
        ("GET", "/v1/orgs/o1/sites"),
        ("GET", "/v1/orgs/o1/search"),
        ("POST", "/v1/spaces/guide1/comments"),  # writes wait: the seeding holds the lock
        ("PATCH", "/v1/orgs/o1"),
    ):
        assert gate.must_wait(method, path), (method, path)


async def test_a_held_request_goes_on_when_the_gate_opens() -> None:
    served: list[str] = []

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        served.append(scope["path"])

    gate = SeedingGate(app, set())
    scope = {"type": "http", "method": "GET", "path": "/v1/orgs/o1/change-requests"}
    held = asyncio.create_task(gate(scope, None, None))
    await gate({"type": "http", "method": "GET", "path": "/v1/user"}, None, None)
    await asyncio.sleep(0)
    assert served == ["/v1/user"] and not held.done()
    await asyncio.get_running_loop().run_in_executor(None, gate.open)  # from another thread
    await asyncio.wait_for(held, 10)
    assert served == ["/v1/user", "/v1/orgs/o1/change-requests"]


async def test_the_second_phase_waits_for_a_lull_in_the_first_requests() -> None:
    import threading

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        await asyncio.sleep(0)

    gate = SeedingGate(app, set())
    stop = threading.Event()
    began = time.monotonic()
    gate.wait_for_a_lull(stop, quiet=0.05, longest=0.2)  # nobody asks: at most `longest`
    assert time.monotonic() - began >= 0.2
    await gate({"type": "http", "method": "GET", "path": "/v1/user"}, None, None)
    began = time.monotonic()
    gate.wait_for_a_lull(stop, quiet=0.05, longest=30)  # answered, then quiet
    assert 0.05 <= time.monotonic() - began < 30
    held = asyncio.create_task(gate({"type": "http", "method": "POST", "path": "/v1/x"}, 0, 0))
    await asyncio.sleep(0)
    began = time.monotonic()
    gate.wait_for_a_lull(stop, quiet=10, longest=30)  # someone waits for the phase: at once
    assert time.monotonic() - began < 10
    gate.open()
    await asyncio.wait_for(held, 10)
    stop.set()
    gate.wait_for_a_lull(stop, quiet=10, longest=30)  # stopping: at once


# -- the two phases ----------------------------------------------------------------------------


def _client(db: Path) -> TestClient:
    client = TestClient(create_app(db), base_url="http://testserver/v1")
    client.headers["Authorization"] = f"Bearer {demo_token('maya')}"
    return client


def _spaces(client: TestClient) -> dict[str, str]:
    org = client.get("/orgs").json()["items"][0]["id"]
    spaces = client.get(f"/orgs/{org}/spaces", params={"limit": 1000}).json()["items"]
    for coll in client.get(f"/orgs/{org}/collections", params={"limit": 1000}).json()["items"]:
        spaces += client.get(f"/collections/{coll['id']}/spaces").json()["items"]
    return {s["title"]: s["id"] for s in spaces}


def _page_count(client: TestClient, space: str) -> int:
    def count(nodes: list[dict[str, Any]]) -> int:
        return sum(1 + count(n.get("pages", [])) for n in nodes)

    return count(client.get(f"/spaces/{space}/content/pages").json()["pages"])


def _threads(client: TestClient, space: str) -> int:
    r = client.get(f"/spaces/{space}/comments", params={"limit": 1000})
    assert r.status_code == 200, r.text
    return len(r.json()["items"])


@pytest.mark.slow
def test_two_phases_and_a_second_phase_cut_short(tmp_path: Path) -> None:
    """The demo seeds in two phases; a second phase cut short is completed later, never half-done.
    Slow: seeds the whole demo workspace."""
    db = tmp_path / "demo.sqlite"
    storage = BatchStorage(db)
    calls = {"n": 0}

    def stop_after_a_while() -> bool:
        calls["n"] += 1
        return calls["n"] > 60

    with DemoSeeding(storage, app=create_app(storage)) as seeding:
        seeding.seed_structure()
        later = seeding.space_ids_filled_later()
    reader = _client(db)
    assert seed_phase(reader.app.state.server.storage) == "structure"
    spaces = _spaces(reader)
    assert len(spaces) == 11  # every space is there for the first screen
    assert later == {spaces["Support knowledge base"], spaces["Config reference (full)"]}
    assert _page_count(reader, spaces["Tidewater User Guide"]) >= 10
    assert _page_count(reader, spaces["Support knowledge base"]) == 0
    assert _threads(reader, spaces["Tidewater User Guide"]) == 0

    cut = BatchStorage(db)  # the second phase on a connection of its own, cut short
    seeding = DemoSeeding(cut, app=create_app(cut), cancelled=stop_after_a_while)
    with seeding, pytest.raises(SeedCancelled):
        seeding.seed_extras()
    assert calls["n"] > 60
    assert seed_phase(reader.app.state.server.storage) == "structure"
    assert _page_count(reader, spaces["Support knowledge base"]) == 0  # nothing of it kept
    assert _threads(reader, spaces["Tidewater User Guide"]) == 0

    again = BatchStorage(db)  # the next start does it again, whole
    with DemoSeeding(again, app=create_app(again)) as seeding:
        assert seeding.pending
        seeding.seed_extras()
        assert not seeding.pending
    assert seed_phase(reader.app.state.server.storage) == "done"
    assert _page_count(reader, spaces["Support knowledge base"]) >= 2000
    assert _threads(reader, spaces["Support knowledge base"]) == BUSY_PAGE_THREADS
    assert _threads(reader, spaces["Tidewater User Guide"]) > 5
    # The second phase leaves the generated spaces' search index to their first search.
    kb = spaces["Support knowledge base"]
    with reader.app.state.server.storage.read() as tx:
        kb_revision = tx.get("space", kb)["revision"]
        assert not is_indexed(tx, kb, kb_revision)
    found = reader.get(f"/spaces/{kb}/search", params={"query": "consumer lag"})
    assert found.status_code == 200, found.text
    assert found.json()["items"]
    with reader.app.state.server.storage.read() as tx:
        assert is_indexed(tx, kb, kb_revision)
    # ...or the runner's pass once the gate is open: every other space the phase left
    indexer = BatchStorage(db)
    with DemoSeeding(indexer, app=create_app(indexer)) as seeding:
        assert seeding.index_for_search() >= 1  # (the full config reference)
        assert seeding.index_for_search() == 0  # nothing left
    with reader.app.state.server.storage.read() as tx:
        assert all(is_indexed(tx, s["id"], s["revision"]) for s in tx.list("space"))
    reader.close()


def test_two_starts_at_once_seed_the_demo_once(tmp_path: Path) -> None:
    db = tmp_path / "demo.sqlite"
    one, other = BatchStorage(db), BatchStorage(db)
    first = DemoSeeding(one, app=create_app(one))
    second = DemoSeeding(other, app=create_app(other))
    assert first.phase is None and second.phase is None  # both found a new database
    first.seed_structure()
    second.seed_structure()  # finds, holding the lock, that the other did it
    assert second.phase == "structure"
    with Storage(db).read() as tx:
        assert tx.count("org") == 1
        assert tx.count("space") == 11


# -- the server process ------------------------------------------------------------------------


def _wait(predicate: Any, timeout: float = 120) -> None:
    until_sync(predicate, timeout=timeout)


@pytest.mark.slow
def test_the_demo_server_process_answers_before_the_demo_is_complete(tmp_path: Path) -> None:
    """The demo server answers during its second seeding phase, and a stopped seed is finished by the
    next start. Slow: two real server processes seed the demo."""
    db = tmp_path / "demo.sqlite"
    first = BackgroundStart(db, demo=True)
    try:
        _wait(first.poll)
    finally:
        first.stop()  # at once: most likely during the second phase
    assert first.pid is not None and first._process is not None
    assert first._process.returncode is not None  # the process is gone
    storage = Storage(db)
    try:
        assert seed_phase(storage) in ("structure", "done")  # never half a phase
    finally:
        storage.close()

    start = BackgroundStart(db, demo=True)  # the next start finishes the demo
    try:
        _wait(start.poll)
        headers = {"Authorization": f"Bearer {demo_token('maya')}"}
        with httpx.Client(base_url=start.url, headers=headers, timeout=120) as http:
            org = http.get("/orgs").json()["items"][0]["id"]
            assert http.get(f"/orgs/{org}/spaces").status_code == 200
            listed = http.get(f"/orgs/{org}/collections", params={"limit": 1000}).json()
            kb = next(
                s["id"]
                for c in listed["items"]
                for s in http.get(f"/collections/{c['id']}/spaces").json()["items"]
                if s["title"] == "Support knowledge base"
            )
            # answered once the second phase is in: all of it, once
            threads = http.get(f"/spaces/{kb}/comments", params={"limit": 1000}).json()
            assert len(threads["items"]) == BUSY_PAGE_THREADS
        assert start.wait_seeded(60)
    finally:
        start.stop()
    storage = Storage(db)
    try:
        assert seed_phase(storage) == "done"
    finally:
        storage.close()  # now: the last connection's close removes the -wal file
    for made in tmp_path.iterdir():  # the database, its -wal/-shm, the owner's token
        assert (made.stat().st_mode & 0o777) == 0o600, made.name


@pytest.mark.slow
def test_a_server_process_that_cannot_start_says_why(tmp_path: Path) -> None:
    """Over 5 s under load: a real server process imports the server before it finds it cannot open its database."""
    (tmp_path / "folder").mkdir()
    start = BackgroundStart(tmp_path / "folder", demo=True)  # a folder is no database
    try:
        with pytest.raises(RuntimeError, match="did not start: unable to open database"):
            _wait(start.poll)
    finally:
        start.stop()
