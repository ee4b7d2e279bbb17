"""Loading coordination of the workspace tree: what the widget's workers run.

:class:`TreeLoader` reads children with :func:`~.loading.fetch_children` into a
:class:`~.state.TreeState` and tells the widget through three callbacks: ``changed``
(a key's children differ: draw them), ``loaded`` (where they came from, for the status
bar) and ``failed`` (the load failed; the failure is already in the state). Any exception
fails the node this way — the client's errors and bugs alike — so a node never stays
"loading…" with no word of why.

* A fetch under way is shared: a second caller (``reveal`` while a worker loads the same
  node) awaits the first instead of asking the server again.
* A long list is drawn while it is read: the first page at once, then what has come at
  most every :data:`PROGRESS_INTERVAL` (a partial list, :meth:`TreeState.apply_partial`).
* Reads use ``prefer-cache``; when a cached answer's background refresh reports a change,
  the node is read again from the network.
* :meth:`read_cached` is the warm start: the remembered (expanded) nodes from the cache
  alone, only the first page of each list, so that it is quick and sends no request.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from functools import partial
from typing import Protocol

from ....api import APIConnectionError, AsyncGitBook, ReadMode
from ....models import Space
from ...common.failure import describe_failure
from ...common.shared_work import SharedWork
from .loading import Loaded, Progress, fetch_children
from .model import (
    LAZY,
    ROOT,
    NodeData,
    clean_title,
    collection_key,
    org_key,
    page_key,
    space_key,
)
from .state import TreeState

__all__ = ["PROGRESS_INTERVAL", "LoadedCallback", "TreeLoader"]

PROGRESS_INTERVAL = 1.0
"""Seconds between two drawings of a list still being read (the first is drawn at once):
each drawing lays out every line of the tree again."""


class LoadedCallback(Protocol):
    def __call__(
        self, key: str, source: str, *, offline: bool = False, age: float | None = 0.0
    ) -> None: ...


class TreeLoader:
    """Loads the children of tree nodes into ``state`` (see the module docstring)."""

    def __init__(
        self,
        client: AsyncGitBook,
        state: TreeState,
        *,
        org_id: str | None,
        changed: Callable[[str], None],
        loaded: LoadedCallback,
        failed: Callable[[str, Exception], None],
    ) -> None:
        self.client = client
        self.state = state
        self.org_id = org_id
        self.in_flight: set[str] = set()
        self._fetches: SharedWork[tuple[str, ReadMode], Loaded | None] = SharedWork()
        self._progress_at: dict[str, float] = {}
        self._changed = changed
        self._loaded = loaded
        self._failed = failed

    # -- fetching -----------------------------------------------------------------------------
    async def fetch(
        self,
        data: NodeData,
        read: ReadMode,
        *,
        first_page_only: bool = False,
        progress: Progress | None = None,
    ) -> Loaded:
        """The children of ``data`` (raises GitBookError / CacheMissError)."""
        return await fetch_children(
            self.client,
            data,
            read,
            org_id=self.org_id,
            subcollections=self.state.subcolls,
            first_page_only=first_page_only,
            progress=progress,
        )

    def _progress(self, key: str, loaded: Loaded) -> None:
        now = time.monotonic()
        if key in self.state.kids and now - self._progress_at.get(key, 0.0) < PROGRESS_INTERVAL:
            return  # drawn a moment ago: the next pages come with a later call
        if self.state.apply_partial(key, loaded):
            self._progress_at[key] = now
            self._changed(key)

    async def fetch_or_fail(self, key: str, data: NodeData, read: ReadMode) -> Loaded | None:
        """:meth:`fetch` (drawing a long list as it comes), or None after recording and
        reporting the failure on ``key``."""
        try:
            return await self.fetch(data, read, progress=partial(self._progress, key))
        except Exception as exc:  # the client's errors and bugs alike: shown on the node
            self.fail(key, exc)
            return None

    def fail(self, key: str, exc: Exception) -> None:
        """Record and report the failure of ``key``'s load."""
        self.state.failures[key] = clean_title(describe_failure(exc))
        self._failed(key, exc)

    async def fetch_shared(self, key: str, data: NodeData, read: ReadMode) -> Loaded | None:
        """:meth:`fetch_or_fail`, shared with a fetch of ``key`` already under way."""
        return await self._fetches.run((key, read), lambda: self.fetch_or_fail(key, data, read))

    # -- loading --------------------------------------------------------------------------------
    async def load(self, key: str, read: ReadMode) -> None:
        """Load the children of ``key`` (``in_flight`` holds it until the first answer),
        then follow the background refresh of what came from the cache. Whatever goes
        wrong fails the node (shown on it, ``r`` retries)."""
        try:
            await self._load(key, read)
        except Exception as exc:
            self.in_flight.discard(key)
            self.fail(key, exc)

    async def _load(self, key: str, read: ReadMode) -> None:
        data = self.state.info[key]
        try:
            loaded = await self.fetch_shared(key, data, read)
        finally:
            self.in_flight.discard(key)
        if loaded is None:
            return
        if self.state.apply(key, loaded):
            self._changed(key)
        metas = [m for m in loaded.metas if m is not None]
        cached = [m for m in metas if m.source == "cache"]
        if cached:
            age = max(m.age for m in cached)
            self._loaded(key, "cache", offline=any(m.offline for m in cached), age=age)
        else:
            self._loaded(key, "network")
        refreshes = [m.refresh for m in metas if m.refresh is not None]
        if not refreshes:
            return
        results = await asyncio.gather(*refreshes, return_exceptions=True)
        failures = [r for r in results if isinstance(r, BaseException)]
        if any(isinstance(f, APIConnectionError) for f in failures):
            age = max((m.age for m in cached), default=0.0)
            self._loaded(key, "cache", offline=True, age=age)
            return
        if failures or any(r is not None for r in results):
            # something changed (or went away) on the server: read it again, fresh
            loaded = await self.fetch_or_fail(key, data, "network")
            if loaded is None:
                return
            if self.state.apply(key, loaded):
                self._changed(key)
        self._loaded(key, "network")

    async def ensure_loaded(self, key: str, *, read: ReadMode = "prefer-cache") -> bool:
        """Load ``key``'s children now if they are not all known yet."""
        state = self.state
        if state.is_loaded(key):
            return True
        data = state.info.get(key)
        if data is None or data.kind not in LAZY:
            return False
        loaded = await self.fetch_shared(key, data, read)
        if loaded is None:
            return False
        was_partial = key in state.partial
        if state.apply(key, loaded) and was_partial:
            self._changed(key)  # the start of the list is drawn: draw the rest
        return True

    async def read_cached(self) -> None:
        """The warm start: the root and every expanded node below it from the cache only
        (no request), the first page of each list; what is not cached is left out."""
        state = self.state
        queue = [ROOT]
        while queue:
            key = queue.pop(0)
            data = state.info.get(key)
            if data is None or data.kind not in LAZY:
                continue
            try:
                loaded = await self.fetch(data, "cache-only", first_page_only=True)
            except Exception:
                continue  # not cached (CacheMissError), unreadable or a bug: loaded later
            state.apply(key, loaded)
            if not loaded.complete:
                self._progress_at[key] = time.monotonic()  # its start is drawn now
            queue.extend(
                child.key
                for children in loaded.children.values()
                for child in children
                if child.key in state.open_keys and child.kind in LAZY
            )

    async def reveal(self, space: Space, page_id: str | None = None) -> str | None:
        """Load the chain org → collections → space and mark it expanded; the key of the
        space (or its page) to put the cursor on, or None when the chain could not load."""
        state = self.state
        if not await self.ensure_loaded(ROOT):
            return None
        org = org_key(space.organization or "")
        if org not in state.info or not await self.ensure_loaded(org):
            return None
        chain: list[str] = []
        parent = space.parent
        seen: set[str] = set()
        while parent and parent not in seen:
            seen.add(parent)
            chain.insert(0, collection_key(parent))
            parent = state.coll_up.get(parent)
        for key in chain:
            if key not in state.info or not await self.ensure_loaded(key):
                return None
        skey = space_key(space.id)
        if skey not in state.info or not await self.ensure_loaded(skey):
            return None
        target = page_key(space.id, page_id) if page_id else skey
        state.open_keys.update([org, *chain, skey])
        state.open_keys.update(d.key for d in state.trail(target)[:-1])
        return target
