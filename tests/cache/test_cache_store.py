"""The response cache's file and keys: location, modes, damaged or old files rebuilt, eviction, key rules."""

from __future__ import annotations

import sqlite3
import stat
import threading
from contextlib import closing
from pathlib import Path
from typing import Any

from gitbook_tui.cache import (
    ResponseCache,
    account_fingerprint,
    default_cache_path,
    entry_key,
    store,
)
from gitbook_tui.cache.store import PENDING_MAX, PENDING_MAX_BYTES, SCHEMA_VERSION
from support.cache_kit import BASE, client_for


# -- the file -------------------------------------------------------------------------------
def test_default_path_is_in_the_user_cache_dir(tmp_path: Path) -> None:
    path = default_cache_path()
    assert path.is_relative_to(tmp_path / "cache")
    with closing(ResponseCache()) as c:
        assert c.path == path and path.exists()


def test_file_is_created_owner_only(cache: ResponseCache) -> None:
    cache.put("k", "acct", "/x", b"{}", None)
    for suffix in ("", "-wal"):
        mode = stat.S_IMODE(Path(f"{cache.path}{suffix}").stat().st_mode)
        assert mode == 0o600, (suffix, oct(mode))


def test_garbage_file_is_rebuilt(tmp_path: Path) -> None:
    path = tmp_path / "responses.sqlite"
    path.write_bytes(b"this is not a database at all" * 100)
    path.chmod(0o644)
    with closing(ResponseCache(path)) as c:
        assert c.info()["entries"] == 0
        c.put("k", "acct", "/x", b'{"a": 1}', None)
        got = c.get("k")
        assert got is not None and got.body == b'{"a": 1}'
        assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_damaged_pages_never_crash(tmp_path: Path) -> None:
    path = tmp_path / "responses.sqlite"
    c = ResponseCache(path)
    for i in range(50):
        c.put(f"k{i}", "acct", f"/x/{i}", b"x" * 2000, None)
    c.close()
    data = bytearray(path.read_bytes())
    for offset in range(4096, len(data), 997):
        data[offset : offset + 64] = b"\xff" * 64
    path.write_bytes(bytes(data))
    with closing(ResponseCache(path)) as c:
        for i in range(50):
            c.get(f"k{i}")  # a miss or a hit, never an exception
        c.put("new", "acct", "/y", b"{}", None)
        assert c.get("new") is not None


def test_old_schema_version_is_rebuilt(tmp_path: Path) -> None:
    path = tmp_path / "responses.sqlite"
    conn = sqlite3.connect(path)
    conn.executescript(
        "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);"
        "INSERT INTO meta VALUES('schema_version', '1');"
        "CREATE TABLE entries(url TEXT PRIMARY KEY, body BLOB);"
        "INSERT INTO entries VALUES('http://x', 'old');"
    )
    conn.commit()
    conn.close()
    with closing(ResponseCache(path)) as c:
        assert c.info()["entries"] == 0
        c.put("k", "acct", "/x", b"{}", None)
        assert c.get("k") is not None
    conn = sqlite3.connect(path)
    version = conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
    conn.close()
    assert version == (str(SCHEMA_VERSION),)


def test_foreign_database_without_version_is_rebuilt(tmp_path: Path) -> None:
    path = tmp_path / "responses.sqlite"
    conn = sqlite3.connect(path)
    conn.executescript("CREATE TABLE entries(url TEXT PRIMARY KEY, body BLOB);")
    conn.close()
    with closing(ResponseCache(path)) as c:
        c.put("k", "acct", "/x", b"{}", None)
        assert c.get("k") is not None


def test_reopening_keeps_entries(tmp_path: Path) -> None:
    path = tmp_path / "responses.sqlite"
    c = ResponseCache(path)
    c.put("k", "acct", "/x", b"{}", '"e1"')
    c.close()
    with closing(ResponseCache(path)) as c:
        got = c.get("k")
        assert got is not None and got.etag == '"e1"'


def test_least_recently_used_is_evicted_at_the_cap(tmp_path: Path) -> None:
    with closing(ResponseCache(tmp_path / "r.sqlite", max_bytes=3500)) as c:
        for i in range(3):
            c.put(f"k{i}", "acct", f"/p/{i}", b"x" * 1000, None)
        assert c.get("k0") is not None  # k0 is now more recent than k1
        c.put("k3", "acct", "/p/3", b"x" * 1000, None)
        assert c.get("k1") is None
        assert all(c.get(k) is not None for k in ("k0", "k2", "k3"))
        assert c.info()["accounts"]["acct"]["bytes"] <= 3500
        c.put("huge", "acct", "/p/huge", b"x" * 10_000, None)  # bigger than the whole cache
        assert c.get("huge") is None and c.get("k3") is not None


def test_keys_differ_per_account_and_sort_the_query() -> None:
    a = account_fingerprint(BASE, "tok-alice")
    b = account_fingerprint(BASE, "tok-carol")
    other_server = account_fingerprint("http://elsewhere/v1", "tok-alice")
    assert len({a, b, other_server}) == 3
    assert "tok-alice" not in a
    assert entry_key(a, "GET", "/x", "a=1&b=2") != entry_key(b, "GET", "/x", "a=1&b=2")


async def test_query_order_does_not_matter(world: Any, cache: ResponseCache) -> None:
    client, _ = client_for(world, cache)
    async with client:
        path = f"/orgs/{world.org}/members"
        first = await client.get(path, dict, params={"limit": 2, "role": "admin"})
        again = await client.get(
            path, dict, params={"role": "admin", "limit": 2}, read="cache-only"
        )
    assert again == first


def test_answers_held_in_memory_read_as_written_and_are_written_by_close(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite"
    c = ResponseCache(path)
    c.put("k0", "acct", "/p/0", b"zero", 'W/"0"')
    c.put("k1", "acct", "/p/1", b"one", None)
    c.put("k2", "acct", "/p/2", b"two", None)
    held = c.get("k0")
    assert held is not None and held.body == b"zero" and held.etag == 'W/"0"'
    c.put("k0", "acct", "/p/0", b"zero again", None)
    assert (c.get("k0") or held).body == b"zero again"
    c.delete("k1")
    assert c.get("k1") is None
    c.invalidate("acct", ["/p/2"], [])
    assert c.get("k2") is None
    c.put("k3", "acct", "/p/3", b"three", None)
    c.close()
    again = ResponseCache(path)
    try:
        assert [again.get(k) is not None for k in ("k0", "k1", "k2", "k3")] == [
            True,
            False,
            False,
            True,
        ]
        assert again.info()["entries"] == 2
    finally:
        again.close()


def test_answers_are_written_in_batches_another_reader_sees(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite"
    c = ResponseCache(path)
    other = ResponseCache(path)
    try:
        for i in range(PENDING_MAX):
            c.put(f"k{i}", "acct", f"/p/{i}", b"x" * 100, None)
        assert all(other.get(f"k{i}") is not None for i in range(PENDING_MAX))
        c.put("big", "acct", "/p/big", b"x" * PENDING_MAX_BYTES, None)  # written at once
        assert other.get("big") is not None
    finally:
        c.close()
        other.close()


def test_the_log_is_folded_into_the_file_as_answers_are_written(
    tmp_path: Path, monkeypatch: Any
) -> None:
    """Checkpoints run apart from the writes (a thread of the cache's own) once
    CHECKPOINT_FROM bytes were written: the write-ahead log stays that size or so, and the
    answers reach the database file itself, read by a new reader as by the writer."""
    monkeypatch.setattr(store, "CHECKPOINT_FROM", 256 * 1024)
    path = tmp_path / "r.sqlite"
    wal = Path(f"{path}-wal")
    c = ResponseCache(path)
    body = bytes(range(256)) * 256  # 64 KB
    largest = 0
    try:
        for i in range(64):  # 4 MB
            c.put(f"k{i}", "acct", f"/p/{i}", body, None)
            largest = max(largest, wal.stat().st_size if wal.exists() else 0)
        assert largest < 2 * 1024 * 1024, largest
        assert all((got := c.get(f"k{i}")) is not None and got.body == body for i in range(64))
    finally:
        c.close()
    assert not wal.exists() or wal.stat().st_size == 0  # the last connection folded the rest
    assert path.stat().st_size >= 64 * len(body)
    with closing(ResponseCache(path)) as again:
        assert all(again.get(f"k{i}") is not None for i in range(64))


def test_writes_go_on_while_a_checkpoint_is_under_way(tmp_path: Path, monkeypatch: Any) -> None:
    """A checkpoint waits on the disk (its syncs) in a thread of its own: the writes of
    answers that come meanwhile do not wait for it (a screen reading pages goes on)."""
    monkeypatch.setattr(store, "CHECKPOINT_FROM", 256 * 1024)
    release, finished = threading.Event(), threading.Event()
    checkpoint = store._checkpoint_file

    def slow_disk(path: Path) -> None:
        release.wait(30)
        checkpoint(path)
        finished.set()

    monkeypatch.setattr(store, "_checkpoint_file", slow_disk)
    path = tmp_path / "r.sqlite"
    c = ResponseCache(path)
    body = b"x" * (64 * 1024)
    try:
        for i in range(16):  # two batches: the first starts a checkpoint
            c.put(f"k{i}", "acct", f"/p/{i}", body, None)
        with closing(ResponseCache(path)) as other:  # written, not held in memory
            assert all(other.get(f"k{i}") is not None for i in range(16))
        assert not finished.is_set()
    finally:
        release.set()
        c.close()
    assert finished.is_set()
