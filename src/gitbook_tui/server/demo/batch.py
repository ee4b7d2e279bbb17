"""BatchStorage: a Storage whose writes can be grouped into one outer transaction (the demo
seeder's phases: other connections see all of a phase or none of it)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from ..core.storage import Storage, Tx

__all__ = ["BatchStorage"]


class BatchStorage(Storage):
    """Inside :meth:`batch`, every :meth:`transaction` is a savepoint of one outer write
    transaction and :meth:`read` reads inside it; the batch commits at its end (or rolls
    back everything on an error). Used by the demo seeder on a connection of its own, so
    the server's connection (WAL) keeps reading the last committed state meanwhile."""

    _batching = False

    @contextmanager
    def batch(self) -> Iterator[None]:
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            self._batching = True
        try:
            yield
        except BaseException:
            with self._lock:
                self._batching = False
                self._conn.execute("ROLLBACK")
                self._wrote()
            raise
        with self._lock:
            self._batching = False
            self._conn.execute("COMMIT")
            self._wrote()

    @contextmanager
    def transaction(self) -> Iterator[Tx]:
        if not self._batching:
            with super().transaction() as tx:
                yield tx
            return
        with self._lock:
            self._conn.execute("SAVEPOINT seed_step")
            try:
                yield Tx(self)
            except BaseException:
                self._conn.execute("ROLLBACK TO seed_step")
                self._conn.execute("RELEASE seed_step")
                raise
            finally:
                self._wrote()  # this connection's reads see it before the batch commits
            self._conn.execute("RELEASE seed_step")

    @contextmanager
    def read(self) -> Iterator[Tx]:
        if not self._batching:
            with super().read() as tx:
                yield tx
            return
        with self._lock:
            yield Tx(self)
