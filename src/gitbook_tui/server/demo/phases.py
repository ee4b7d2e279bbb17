"""DemoSeeding: a demo database seeded in two atomic phases on a connection of its own, so a
server can answer from the first phase while the second is written."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from types import TracebackType

from fastapi import FastAPI

from ..content.search_index import index_space, is_indexed
from ..content.space_revision import search_index_deferred
from .batch import BatchStorage
from .seed import PHASE_DONE, PHASE_STRUCTURE, DemoSeeder, seed_phase

__all__ = ["DemoSeeding"]


class DemoSeeding:
    """Seeds the demo into ``storage`` through ``app`` (an app over that storage, see
    ``runner``). Each phase is one transaction: a reader on another
    connection sees all of it or none of it, and an interrupted phase leaves nothing, so
    the next start simply does it again (:attr:`phase` says what is done).

    ``cancelled``: asked before every step of a phase; True aborts it (rolled back)."""

    def __init__(
        self,
        storage: BatchStorage,
        *,
        app: FastAPI,
        cancelled: Callable[[], bool] | None = None,
    ) -> None:
        self.storage = storage
        self.app = app
        self.phase = seed_phase(self.storage)
        self._seeder = DemoSeeder(self.app)
        self._seeder.cancelled = cancelled

    @property
    def pending(self) -> bool:
        """Whether anything is left to seed."""
        return self.phase != PHASE_DONE

    def seed_structure(self) -> None:
        """Phase 1 (people, teams, collections, spaces, written pages), when not done yet."""
        if self.phase is None:
            with self.storage.batch():
                # (again, holding the write lock: another start may have seeded meanwhile)
                self.phase = seed_phase(self.storage)
                if self.phase is None:
                    asyncio.run(self._seeder.seed_structure())
                    self.phase = PHASE_STRUCTURE

    def seed_extras(self) -> None:
        """Phase 2 (generated pages, threads, change requests, sites, extras), after phase 1."""
        if self.phase == PHASE_STRUCTURE:
            with self.storage.batch():
                self.phase = seed_phase(self.storage)
                if self.phase == PHASE_STRUCTURE:
                    # The generated spaces' search index (~0.3 s) is built by their first
                    # search, not while the requests for this phase wait for it.
                    with search_index_deferred(self.storage):
                        asyncio.run(self._seeder.seed_extras())
                    self.phase = PHASE_DONE

    def index_for_search(self) -> int:
        """Index the spaces phase 2 left unindexed, one transaction each (run once the gate
        is open: no request waits for it, and a search that comes first indexes the space
        itself). Returns how many were indexed."""
        with self.storage.read() as tx:
            spaces = [(s["id"], s.get("revision")) for s in tx.list("space")]
        done = 0
        for space_id, _ in spaces:
            with self.storage.transaction() as tx:
                current = tx.get("space", space_id)
                revision = None if current is None else current.get("revision")
                if revision and not is_indexed(tx, space_id, revision):
                    index_space(tx, space_id, revision)
                    done += 1
        return done

    def space_ids_filled_later(self) -> set[str]:
        """The spaces whose pages phase 2 writes (they exist, empty, after phase 1)."""
        if self.phase != PHASE_STRUCTURE:
            return set()
        seeder = self._seeder
        if not seeder.org:
            seeder.load_state()
        return {
            seeder.spaces[s["key"]]
            for s in seeder.data["spaces"]
            if s.get("generated") and s["key"] in seeder.spaces
        }

    def close(self) -> None:
        self.storage.close()

    def __enter__(self) -> DemoSeeding:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
