"""Persistent SQLite store of GET responses, keyed per account, size-capped with LRU eviction."""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from ..folders import cache_folder, private_dir

SCHEMA_VERSION = 3
DEFAULT_MAX_BYTES = 200 * 1024 * 1024
PENDING_MAX = 16
"""Answers held in memory at most before they are written to the file, in one transaction:
a transaction per answer cost a cold blame (300 answers) ~1/3 of the time of a request's
own cache work; the last ones are written by :meth:`ResponseCache.close` (or the next
write): a process killed meanwhile loses them, as if they had not been read."""
PENDING_MAX_BYTES = 512 * 1024
"""The same, in bytes (a write on the event loop stays short), and at most an eighth of the
cache's cap (the cap holds but for that)."""
CHECKPOINT_FROM = 4 * 1024 * 1024
"""Bytes of answers written since the last checkpoint (the write-ahead log's frames copied
into the file) at which the next one starts, in a thread of its own. SQLite's automatic
checkpoint (at 1,000 pages, ~4 MB) ran inside the write that crossed it and waited there on
the disk (two syncs): a cold blame, 7.5 MB of answers written, waited ~100-150 ms of its
event loop for them on a busy disk."""
_SUFFIXES = ("", "-wal", "-shm", "-journal")
_COLUMNS = "key, account, path, etag, body, size, stored_at, used_at"

_SCHEMA = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE entries(
    key TEXT PRIMARY KEY,
    account TEXT NOT NULL,
    path TEXT NOT NULL,
    etag TEXT,
    body BLOB NOT NULL,
    size INTEGER NOT NULL,
    stored_at REAL NOT NULL,
    used_at REAL NOT NULL
);
CREATE INDEX entries_by_account_path ON entries(account, path);
CREATE INDEX entries_by_use ON entries(used_at, size);
"""

log = logging.getLogger("gitbook_tui.cache")
R = TypeVar("R")


def default_cache_path() -> Path:
    return cache_folder() / "responses.sqlite"


def account_fingerprint(base_url: str, token: str | None) -> str:
    """A one-way fingerprint of (server, token): two accounts never share entries."""
    raw = f"gitbook-tui cache v1\n{base_url.rstrip('/')}\n{token or ''}".encode()
    return hashlib.sha256(raw).hexdigest()[:32]


def entry_key(account: str, method: str, path: str, query: str) -> str:
    """The key of one request: account, method, path and (sorted) query string."""
    return hashlib.sha256(f"{account}\n{method.upper()}\n{path}?{query}".encode()).hexdigest()


@dataclass(frozen=True)
class CachedResponse:
    body: bytes
    etag: str | None
    stored_at: float

    @property
    def age(self) -> float:
        """Seconds since the server last gave (or confirmed) this answer."""
        return max(0.0, time.time() - self.stored_at)


def _checkpoint_file(path: Path) -> None:
    try:
        # mode=rw: a file removed meanwhile (a damaged cache rebuilt) is not made anew here
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=rw", uri=True, timeout=5.0)
        try:
            conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        finally:
            conn.close()
    except sqlite3.Error as exc:  # the next one will try again
        log.debug("response cache checkpoint of %s failed: %s", path, exc)


class _Rebuild(Exception):
    """The file is not a cache of the current schema."""


class ResponseCache:
    """The response cache file (owner-only, 0600). Safe to share between threads.

    An old, foreign or corrupt file is replaced by an empty cache, never an error:
    a failing cache behaves as an empty one."""

    def __init__(
        self, path: str | Path | None = None, *, max_bytes: int = DEFAULT_MAX_BYTES
    ) -> None:
        self.path = Path(path) if path is not None else default_cache_path()
        self.max_bytes = max_bytes
        self._lock = threading.Lock()
        self._last_use = 0.0
        self._pending: dict[str, tuple[Any, ...]] = {}
        """Rows put but not yet written, by key (read like written ones)."""
        self._pending_bytes = 0
        self._unchecked = 0
        """Bytes of answers written since the log was last rewound (about)."""
        self._written_since_checkpoint = False
        self._checkpointer: threading.Thread | None = None
        self._conn = self._open()

    def __repr__(self) -> str:
        return f"ResponseCache(path={str(self.path)!r})"

    # -- opening ------------------------------------------------------------------------
    def _open(self) -> sqlite3.Connection:
        private_dir(self.path.parent, tighten=False)
        conn: sqlite3.Connection | None = None
        try:
            conn = self._connect()
            self._check_or_create(conn)
            return conn
        except (sqlite3.DatabaseError, _Rebuild, ValueError) as exc:
            log.warning("rebuilding the response cache %s (%s)", self.path, exc)
            if conn is not None:
                conn.close()
            self._remove_files()
            conn = self._connect()
            self._check_or_create(conn)
            return conn

    def _connect(self) -> sqlite3.Connection:
        if not self.path.exists():
            os.close(os.open(self.path, os.O_CREAT | os.O_WRONLY, 0o600))
        os.chmod(self.path, 0o600)
        conn = sqlite3.connect(
            self.path, check_same_thread=False, isolation_level=None, timeout=5.0
        )
        conn.execute("PRAGMA journal_mode=WAL").fetchone()
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA wal_autocheckpoint=0")  # done apart (CHECKPOINT_FROM)
        return conn

    @staticmethod
    def _check_or_create(conn: sqlite3.Connection) -> None:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not tables:
            conn.executescript(_SCHEMA)
            conn.execute(
                "INSERT INTO meta(key, value) VALUES('schema_version', ?)", (str(SCHEMA_VERSION),)
            )
            return
        if "meta" not in tables or "entries" not in tables:
            raise _Rebuild("not a response cache")
        row = conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        if row is None or int(row[0]) != SCHEMA_VERSION:
            raise _Rebuild(f"schema version {row[0] if row else None}")
        conn.execute(f"SELECT {_COLUMNS} FROM entries LIMIT 1").fetchall()

    def _remove_files(self) -> None:
        for suffix in _SUFFIXES:
            Path(f"{self.path}{suffix}").unlink(missing_ok=True)

    def _run(
        self, action: Callable[[sqlite3.Connection], R], default: R, *, flush: bool = True
    ) -> R:
        """Run ``action`` under the lock (after writing the answers held, unless told not
        to); a broken file is rebuilt and ``default`` returned."""
        with self._lock:
            try:
                if flush and self._pending:
                    self._flush(self._conn)
                return action(self._conn)
            except sqlite3.OperationalError as exc:
                if "locked" in str(exc) or "busy" in str(exc):
                    log.debug("response cache busy: %s", exc)
                    return default
                self._reset(exc)
            except sqlite3.DatabaseError as exc:
                self._reset(exc)
            return default

    def _reset(self, exc: Exception) -> None:
        log.warning("response cache %s is damaged (%s); starting a new one", self.path, exc)
        with contextlib.suppress(sqlite3.Error):
            self._conn.close()
        self._remove_files()
        self._conn = self._connect()
        self._check_or_create(self._conn)

    def _tick(self) -> float:
        """A strictly increasing use time, so LRU order is exact within a process."""
        self._last_use = max(time.time(), self._last_use + 1e-6)
        return self._last_use

    def close(self) -> None:
        self._run(lambda conn: None, None)  # the answers held are written first
        with self._lock:
            if self._checkpointer is not None:
                self._checkpointer.join()
            self._conn.close()  # the last connection to the file folds the log into it

    def _flush(self, conn: sqlite3.Connection) -> None:
        """Write the answers held, in one transaction (under the lock)."""
        rows = list(self._pending.values())
        self._pending.clear()
        self._pending_bytes = 0
        self._before_write(conn)
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.executemany(
                f"INSERT OR REPLACE INTO entries({_COLUMNS}) VALUES(?,?,?,?,?,?,?,?)", rows
            )
            self._evict(conn)
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
        self._unchecked += sum(row[5] for row in rows)
        self._written_since_checkpoint = True
        running = self._checkpointer is not None and self._checkpointer.is_alive()
        if self._unchecked >= CHECKPOINT_FROM and not running:
            self._checkpoint_apart()

    def _before_write(self, conn: sqlite3.Connection) -> None:
        """The log is rewound (written from its start again) by the first write after a
        checkpoint that caught up with it: one no write overlapped. Checkpoints overlapping
        writes again and again (answers written back to back) would let it grow without
        end: past 4 × CHECKPOINT_FROM, this write waits for one, as SQLite's own would."""
        checkpointer = self._checkpointer
        if checkpointer is not None and not checkpointer.is_alive():
            self._checkpointer = None
            if not self._written_since_checkpoint:
                self._unchecked = 0  # it caught up: this write rewinds the log
        if self._unchecked >= 4 * CHECKPOINT_FROM:
            if self._checkpointer is not None:
                self._checkpointer.join()
                self._checkpointer = None
            conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            self._unchecked = 0

    def _checkpoint_apart(self) -> None:
        """Copy the log's frames into the file in a thread with its own connection (a
        passive checkpoint: it waits on no reader or writer, nor they on it)."""
        self._written_since_checkpoint = False
        self._checkpointer = threading.Thread(
            target=_checkpoint_file,
            args=(self.path,),
            name="response-cache-checkpoint",
            daemon=True,
        )
        self._checkpointer.start()

    # -- entries ------------------------------------------------------------------------
    def get(self, key: str) -> CachedResponse | None:
        def action(conn: sqlite3.Connection) -> CachedResponse | None:
            held = self._pending.get(key)
            if held is not None:  # (key, account, path, etag, body, size, stored_at, used_at)
                self._pending[key] = (*held[:7], self._tick())
                return CachedResponse(body=held[4], etag=held[3], stored_at=held[6])
            row = conn.execute(
                "SELECT body, etag, stored_at FROM entries WHERE key=?", (key,)
            ).fetchone()
            if row is None:
                return None
            conn.execute("UPDATE entries SET used_at=? WHERE key=?", (self._tick(), key))
            return CachedResponse(body=bytes(row[0]), etag=row[1], stored_at=float(row[2]))

        return self._run(action, None, flush=False)

    def put(self, key: str, account: str, path: str, body: bytes, etag: str | None) -> None:
        """Store one GET answer (a body larger than the whole cache is not kept)."""
        size = len(body) + len(path) + len(etag or "") + len(key) + len(account)
        if size > self.max_bytes:
            self.delete(key)
            return

        def action(conn: sqlite3.Connection) -> None:
            held = self._pending.pop(key, None)
            if held is not None:
                self._pending_bytes -= held[5]
            self._pending[key] = (key, account, path, etag, body, size, time.time(), self._tick())
            self._pending_bytes += size
            held_max = min(PENDING_MAX_BYTES, self.max_bytes // 8)
            if len(self._pending) >= PENDING_MAX or self._pending_bytes >= held_max:
                self._flush(conn)

        self._run(action, None, flush=False)

    def delete(self, key: str) -> None:
        self._run(lambda conn: conn.execute("DELETE FROM entries WHERE key=?", (key,)), None)

    def touch(self, key: str) -> None:
        """A 304 answer: the entry is fresh as of now."""
        self._run(
            lambda conn: conn.execute(
                "UPDATE entries SET stored_at=?, used_at=? WHERE key=?",
                (time.time(), self._tick(), key),
            ),
            None,
        )

    def invalidate(self, account: str, paths: list[str], prefixes: list[str]) -> int:
        """Drop entries of ``account`` whose path is one of ``paths`` or under a prefix."""

        def action(conn: sqlite3.Connection) -> int:
            removed = 0
            for path in paths:
                removed += conn.execute(
                    "DELETE FROM entries WHERE account=? AND path=?", (account, path)
                ).rowcount
            for prefix in prefixes:
                prefix = prefix.rstrip("/")
                removed += conn.execute(
                    "DELETE FROM entries WHERE account=? AND (path=? OR substr(path, 1, ?)=?)",
                    (account, prefix, len(prefix) + 1, prefix + "/"),
                ).rowcount
            return removed

        return self._run(action, 0)

    def _evict(self, conn: sqlite3.Connection) -> None:
        # Sizes are summed from the (used_at, size) index: in the table they sit after the
        # body, and reading them there walks every body's overflow pages (a second per put
        # once the cache holds a few hundred MB).
        total = conn.execute(
            "SELECT COALESCE(SUM(size), 0) FROM entries INDEXED BY entries_by_use"
        ).fetchone()[0]
        if total <= self.max_bytes:
            return
        excess = total - self.max_bytes
        doomed = []
        for key, size in conn.execute("SELECT key, size FROM entries ORDER BY used_at, rowid"):
            if excess <= 0:
                break
            doomed.append((key,))
            excess -= size
        conn.executemany("DELETE FROM entries WHERE key=?", doomed)

    # -- maintenance --------------------------------------------------------------------
    def info(self) -> dict[str, Any]:
        """Path, bytes on disk, the cap, and entries/bytes per account fingerprint."""
        rows: list[tuple[str, int, int]] = self._run(
            lambda conn: conn.execute(
                "SELECT account, COUNT(*), COALESCE(SUM(size), 0) FROM entries"
                " GROUP BY account ORDER BY account"
            ).fetchall(),
            [],
        )
        file_size = sum(
            Path(f"{self.path}{s}").stat().st_size
            for s in _SUFFIXES
            if Path(f"{self.path}{s}").exists()
        )
        return {
            "path": str(self.path),
            "file_bytes": file_size,
            "max_bytes": self.max_bytes,
            "entries": sum(n for _, n, _ in rows),
            "accounts": {acc: {"entries": n, "bytes": size} for acc, n, size in rows},
        }

    def clear(self) -> int:
        """Remove every entry and give the space back; the number of entries removed."""

        def action(conn: sqlite3.Connection) -> int:
            removed: int = conn.execute("DELETE FROM entries").rowcount
            conn.execute("VACUUM")
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            return removed

        return self._run(action, 0)
