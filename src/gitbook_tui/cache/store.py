"""Persistent SQLite store of GET responses, keyed per account, size-capped with LRU eviction."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from platformdirs import user_cache_dir

SCHEMA_VERSION = 2
DEFAULT_MAX_BYTES = 200 * 1024 * 1024

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS entries(
    key TEXT PRIMARY KEY,
    account TEXT NOT NULL,
    path TEXT NOT NULL,
    etag TEXT,
    body BLOB NOT NULL,
    size INTEGER NOT NULL,
    stored_at REAL NOT NULL,
    used_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS entries_by_account_path ON entries(account, path);
CREATE INDEX IF NOT EXISTS entries_by_use ON entries(used_at);
"""


def default_cache_path() -> Path:
    return Path(user_cache_dir("gitbook-tui", appauthor=False)) / "responses.sqlite"


def account_fingerprint(base_url: str, token: str | None) -> str:
    """A one-way fingerprint of (server, token): two accounts never share entries."""
    raw = f"{base_url.rstrip('/')}\n{token or ''}".encode()
    return hashlib.sha256(raw).hexdigest()[:24]


def entry_key(account: str, method: str, path: str, query: str) -> str:
    return hashlib.sha256(f"{account}\n{method.upper()}\n{path}?{query}".encode()).hexdigest()


@dataclass(frozen=True)
class CachedResponse:
    body: bytes
    etag: str | None
    stored_at: float

    @property
    def age(self) -> float:
        return max(0.0, time.time() - self.stored_at)


class ResponseCache:
    """The response cache file. Safe to share between threads; every call is short."""

    def __init__(
        self, path: str | Path | None = None, *, max_bytes: int = DEFAULT_MAX_BYTES
    ) -> None:
        self.path = Path(path) if path is not None else default_cache_path()
        self.max_bytes = max_bytes
        self._lock = threading.Lock()
        self._conn = self._open()

    def __repr__(self) -> str:
        return f"ResponseCache(path={str(self.path)!r})"

    # -- opening ------------------------------------------------------------------------
    def _open(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            conn = self._connect()
            version = conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
            if version is None or int(version[0]) != SCHEMA_VERSION:
                conn.close()
                raise sqlite3.DatabaseError("old schema")
            conn.execute("SELECT COUNT(*) FROM entries").fetchone()
            return conn
        except (sqlite3.DatabaseError, ValueError):
            # An old or corrupt cache is only a cache: start a new one.
            for suffix in ("", "-wal", "-shm", "-journal"):
                Path(f"{self.path}{suffix}").unlink(missing_ok=True)
            return self._connect()

    def _connect(self) -> sqlite3.Connection:
        if not self.path.exists():
            fd = os.open(self.path, os.O_CREAT | os.O_WRONLY, 0o600)
            os.close(fd)
        os.chmod(self.path, 0o600)
        conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.executescript(_SCHEMA)
        if conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone() is None:
            conn.execute(
                "INSERT INTO meta(key, value) VALUES('schema_version', ?)", (str(SCHEMA_VERSION),)
            )
        return conn

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    # -- entries ------------------------------------------------------------------------
    def get(self, key: str) -> CachedResponse | None:
        with self._lock:
            row = self._conn.execute(
                "SELECT body, etag, stored_at FROM entries WHERE key=?", (key,)
            ).fetchone()
            if row is None:
                return None
            self._conn.execute("UPDATE entries SET used_at=? WHERE key=?", (time.time(), key))
        return CachedResponse(body=bytes(row[0]), etag=row[1], stored_at=float(row[2]))

    def put(self, key: str, account: str, path: str, body: bytes, etag: str | None) -> None:
        now = time.time()
        with self._lock:
            self._conn.execute(
                "INSERT OR REPLACE INTO entries(key, account, path, etag, body, size, stored_at, used_at)"
                " VALUES(?,?,?,?,?,?,?,?)",
                (key, account, path, etag, body, len(body), now, now),
            )
            self._evict()

    def touch(self, key: str) -> None:
        """A 304 answer: the entry is fresh as of now."""
        now = time.time()
        with self._lock:
            self._conn.execute(
                "UPDATE entries SET stored_at=?, used_at=? WHERE key=?", (now, now, key)
            )

    def invalidate(self, account: str, paths: list[str], prefixes: list[str]) -> int:
        """Drop entries of ``account`` whose path is one of ``paths`` or under a prefix."""
        removed = 0
        with self._lock:
            for path in paths:
                removed += self._conn.execute(
                    "DELETE FROM entries WHERE account=? AND path=?", (account, path)
                ).rowcount
            for prefix in prefixes:
                removed += self._conn.execute(
                    "DELETE FROM entries WHERE account=? AND (path=? OR substr(path, 1, ?)=?)",
                    (account, prefix, len(prefix) + 1, prefix + "/"),
                ).rowcount
        return removed

    def _evict(self) -> None:
        total = self._conn.execute("SELECT COALESCE(SUM(size), 0) FROM entries").fetchone()[0]
        if total <= self.max_bytes:
            return
        excess = total - self.max_bytes
        rows = self._conn.execute("SELECT key, size FROM entries ORDER BY used_at").fetchall()
        doomed = []
        for key, size in rows:
            if excess <= 0:
                break
            doomed.append((key,))
            excess -= size
        self._conn.executemany("DELETE FROM entries WHERE key=?", doomed)

    # -- maintenance --------------------------------------------------------------------
    def info(self) -> dict[str, Any]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT account, COUNT(*), COALESCE(SUM(size), 0) FROM entries GROUP BY account"
            ).fetchall()
        file_size = sum(
            Path(f"{self.path}{s}").stat().st_size
            for s in ("", "-wal")
            if Path(f"{self.path}{s}").exists()
        )
        return {
            "path": str(self.path),
            "file_bytes": file_size,
            "max_bytes": self.max_bytes,
            "accounts": {acc: {"entries": n, "bytes": size} for acc, n, size in rows},
        }

    def clear(self) -> int:
        with self._lock:
            removed = self._conn.execute("DELETE FROM entries").rowcount
            self._conn.execute("VACUUM")
        return removed
