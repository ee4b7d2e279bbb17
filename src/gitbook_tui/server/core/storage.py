"""SQLite storage of the local server: JSON documents per kind, blobs, full-text index."""

from __future__ import annotations

import hashlib
import json
import os
import random
import secrets
import sqlite3
import string
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS docs(
    kind TEXT NOT NULL,
    id TEXT NOT NULL,
    scope TEXT NOT NULL DEFAULT '',
    pos REAL NOT NULL DEFAULT 0,
    seq INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (kind, id)
);
CREATE INDEX IF NOT EXISTS docs_by_scope ON docs(kind, scope, pos, seq);
CREATE TABLE IF NOT EXISTS blobs(hash TEXT PRIMARY KEY, data BLOB NOT NULL);
CREATE VIRTUAL TABLE IF NOT EXISTS page_sections USING fts5(
    revision UNINDEXED, page_id UNINDEXED, section_id UNINDEXED, title, body,
    tokenize = 'unicode61 remove_diacritics 2'
);
"""

_ID_ALPHABET = string.ascii_letters + string.digits
R = TypeVar("R")


def restrict(path: Path, mode: int) -> None:
    """``chmod`` an existing file of ours to ``mode`` (no-op when missing or not ours)."""
    try:
        if path.exists() and (path.stat().st_mode & 0o777) != mode:
            os.chmod(path, mode)
    except PermissionError:
        pass


def make_private_file(path: Path) -> None:
    """Create ``path`` (and a missing parent folder, 0700) readable by its owner only (0600),
    or make an existing one so: the database holds private spaces and token digests."""
    if not path.parent.exists():
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    try:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except FileExistsError:
        restrict(path, 0o600)


class Storage:
    """One SQLite database file; every write goes through :meth:`transaction`.

    A single connection guarded by a lock keeps writers serialised (SQLite allows one
    writer anyway) so concurrent requests never lose an update.
    """

    def __init__(self, path: str | Path, *, id_seed: int | None = None) -> None:
        self.path = str(path)
        self._lock = threading.RLock()
        private = self.path != ":memory:" and not self.path.startswith("file:")
        if private:
            make_private_file(Path(self.path))
        self._conn = sqlite3.connect(
            self.path, check_same_thread=False, isolation_level=None, timeout=30
        )
        self._conn.row_factory = sqlite3.Row
        self._conn.execute("PRAGMA journal_mode=WAL")
        if private:  # SQLite gives -wal/-shm the database's mode; older files are fixed here
            for suffix in ("-wal", "-shm", "-journal"):
                restrict(Path(self.path + suffix), 0o600)
        self._conn.execute("PRAGMA synchronous=NORMAL")
        self._conn.execute("PRAGMA busy_timeout=30000")
        self._conn.executescript(_SCHEMA)
        self._rng: random.Random = (
            random.Random(id_seed) if id_seed is not None else secrets.SystemRandom()
        )
        self._revision_cache: dict[str, dict[str, Any]] = {}
        self._writes = 0
        # Watches the file for commits of other connections (this process's others, other
        # processes'): its ``data_version`` moves with each. A database in memory has none.
        self._watch: sqlite3.Connection | None = None
        self._watch_lock = threading.Lock()
        if self.path != ":memory:":
            self._watch = sqlite3.connect(self.path, check_same_thread=False, timeout=30)
        with self.transaction() as tx:
            if tx.meta("schema_version") is None:
                tx.set_meta("schema_version", str(SCHEMA_VERSION))

    def close(self) -> None:
        with self._lock:
            self._conn.close()
        with self._watch_lock:
            if self._watch is not None:
                self._watch.close()

    def change_stamp(self) -> tuple[int, int]:
        """A stamp that differs once anything was written to the database since it was
        taken: by this storage (a transaction ended, committed or not) or by any other
        connection to the file, of this process or another (SQLite's ``data_version``).
        Cheap (no lock of the storage's connection, which a long write may hold): what
        is read from the database can be kept in memory, labelled with the stamp taken
        *before* reading it, and used as long as the stamp has not moved."""
        if self._watch is None:
            return self._writes, 0
        with self._watch_lock:
            row = self._watch.execute("PRAGMA data_version").fetchone()
        return self._writes, int(row[0])

    def _wrote(self) -> None:
        self._writes += 1

    def new_id(self, length: int = 20) -> str:
        with self._lock:
            return "".join(self._rng.choice(_ID_ALPHABET) for _ in range(length))

    def reseed_ids(self, seed: int | None) -> None:
        """Make ids deterministic (demo seeding) or random again (``None``)."""
        with self._lock:
            self._rng = random.Random(seed) if seed is not None else secrets.SystemRandom()

    @contextmanager
    def transaction(self) -> Iterator[Tx]:
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            tx = Tx(self)
            try:
                yield tx
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            else:
                self._conn.execute("COMMIT")
            finally:
                self._wrote()

    def run_if_free(self, action: Callable[[], R]) -> tuple[bool, R | None]:
        """``(True, action())`` with the storage held, if no other thread holds it now;
        ``(False, None)`` at once otherwise (a write under way: the caller does not wait)."""
        if not self._lock.acquire(blocking=False):
            return False, None
        try:
            return True, action()
        finally:
            self._lock.release()

    @contextmanager
    def read(self) -> Iterator[Tx]:
        """A consistent read: a deferred transaction that never writes."""
        with self._lock:
            self._conn.execute("BEGIN")
            try:
                yield Tx(self)
            finally:
                self._conn.execute("ROLLBACK" if self._conn.in_transaction else "SELECT 1")


class Tx:
    """Operations inside one transaction."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.conn = storage._conn

    # -- meta -------------------------------------------------------------------------
    def meta(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        self.conn.execute(
            "INSERT INTO meta(key, value) VALUES(?, ?) "
            "ON CONFLICT(key) DO UPDATE SET value=excluded.value",
            (key, value),
        )

    def next_number(self, counter: str) -> int:
        """An incrementing counter (change request numbers, sequence numbers)."""
        current = int(self.meta(f"counter:{counter}") or "0") + 1
        self.set_meta(f"counter:{counter}", str(current))
        return current

    # -- documents --------------------------------------------------------------------
    def get(self, kind: str, id: str) -> dict[str, Any] | None:
        row = self.conn.execute(
            "SELECT data FROM docs WHERE kind=? AND id=?", (kind, id)
        ).fetchone()
        return None if row is None else json.loads(row[0])

    def put(
        self,
        kind: str,
        id: str,
        data: dict[str, Any],
        *,
        scope: str | None = None,
        pos: float | None = None,
    ) -> dict[str, Any]:
        """Insert or replace a document; scope and position are kept when not given."""
        row = self.conn.execute(
            "SELECT scope, pos, seq FROM docs WHERE kind=? AND id=?", (kind, id)
        ).fetchone()
        if row is None:
            seq = self.next_number("docs")
            new_scope = scope if scope is not None else ""
            new_pos = pos if pos is not None else float(seq)
        else:
            seq = row["seq"]
            new_scope = scope if scope is not None else row["scope"]
            new_pos = pos if pos is not None else row["pos"]
        self.conn.execute(
            "INSERT OR REPLACE INTO docs(kind, id, scope, pos, seq, data) VALUES(?,?,?,?,?,?)",
            (kind, id, new_scope, new_pos, seq, json.dumps(data, separators=(",", ":"))),
        )
        return data

    def delete(self, kind: str, id: str) -> bool:
        cur = self.conn.execute("DELETE FROM docs WHERE kind=? AND id=?", (kind, id))
        return cur.rowcount > 0

    def delete_scope(self, kind: str, scope: str) -> int:
        cur = self.conn.execute("DELETE FROM docs WHERE kind=? AND scope=?", (kind, scope))
        return cur.rowcount

    def list(self, kind: str, scope: str | None = None) -> list[dict[str, Any]]:
        """Documents of a kind (optionally in one scope), in position then creation order."""
        if scope is None:
            rows = self.conn.execute(
                "SELECT data FROM docs WHERE kind=? ORDER BY pos, seq", (kind,)
            )
        else:
            rows = self.conn.execute(
                "SELECT data FROM docs WHERE kind=? AND scope=? ORDER BY pos, seq",
                (kind, scope),
            )
        return [json.loads(r[0]) for r in rows]

    def count(self, kind: str, scope: str | None = None) -> int:
        if scope is None:
            row = self.conn.execute("SELECT COUNT(*) FROM docs WHERE kind=?", (kind,)).fetchone()
        else:
            row = self.conn.execute(
                "SELECT COUNT(*) FROM docs WHERE kind=? AND scope=?", (kind, scope)
            ).fetchone()
        return int(row[0])

    def position_of(self, kind: str, id: str) -> tuple[str, float] | None:
        row = self.conn.execute(
            "SELECT scope, pos FROM docs WHERE kind=? AND id=?", (kind, id)
        ).fetchone()
        return None if row is None else (row["scope"], row["pos"])

    def set_position(
        self, kind: str, id: str, *, scope: str | None = None, pos: float | None = None
    ) -> None:
        current = self.position_of(kind, id)
        if current is None:
            return
        self.conn.execute(
            "UPDATE docs SET scope=?, pos=? WHERE kind=? AND id=?",
            (
                scope if scope is not None else current[0],
                pos if pos is not None else current[1],
                kind,
                id,
            ),
        )

    def place(
        self,
        kind: str,
        id: str,
        scope: str,
        *,
        before: str | None = None,
        after: str | None = None,
    ) -> None:
        """Move a document into ``scope`` before or after a sibling (else at the end)."""
        siblings = [
            (r["id"], r["pos"])
            for r in self.conn.execute(
                "SELECT id, pos FROM docs WHERE kind=? AND scope=? AND id<>? ORDER BY pos, seq",
                (kind, scope, id),
            )
        ]
        order = [sid for sid, _ in siblings]
        if before is not None and before in order:
            order.insert(order.index(before), id)
        elif after is not None and after in order:
            order.insert(order.index(after) + 1, id)
        else:
            order.append(id)
        for index, sid in enumerate(order):
            self.conn.execute(
                "UPDATE docs SET scope=?, pos=? WHERE kind=? AND id=?",
                (scope, float(index + 1), kind, sid),
            )

    # -- blobs ------------------------------------------------------------------------
    def put_blob(self, data: bytes | str) -> str:
        raw = data.encode("utf-8") if isinstance(data, str) else data
        digest = hashlib.sha256(raw).hexdigest()
        self.conn.execute("INSERT OR IGNORE INTO blobs(hash, data) VALUES(?, ?)", (digest, raw))
        return digest

    def get_blob(self, digest: str) -> bytes | None:
        row = self.conn.execute("SELECT data FROM blobs WHERE hash=?", (digest,)).fetchone()
        return None if row is None else bytes(row[0])

    def get_text(self, digest: str) -> str:
        raw = self.get_blob(digest)
        return "" if raw is None else raw.decode("utf-8", errors="replace")
