"""Making a revision a space's main content, and keeping what derives from it (search) in step."""

from __future__ import annotations

import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..core.storage import Storage, Tx
from .search_index import index_space

_DEFERRED: weakref.WeakSet[Storage] = weakref.WeakSet()
_DEFERRED_LOCK = threading.Lock()


@contextmanager
def search_index_deferred(storage: Storage) -> Iterator[None]:
    """While the block runs, a new main revision written through ``storage`` is not
    indexed for search: the search routes index a space whose index lags its main revision
    when it is first searched (a bulk writer, the demo's seeding, leaves that work to then)."""
    with _DEFERRED_LOCK:
        _DEFERRED.add(storage)
    try:
        yield
    finally:
        with _DEFERRED_LOCK:
            _DEFERRED.discard(storage)


def set_space_revision(tx: Tx, space: dict[str, Any], revision_id: str, now: str) -> dict[str, Any]:
    """Make ``revision_id`` the space's main content (and keep derived data in step)."""
    space["revision"] = revision_id
    space["updatedAt"] = now
    tx.put("space", space["id"], space)
    on_main_revision_changed(tx, space, revision_id)
    return space


def on_main_revision_changed(tx: Tx, space: dict[str, Any], revision_id: str) -> None:
    """Keep derived data of the main revision in step: (re)index the space for search.

    Only pages whose title, description or document changed are re-indexed (and none
    while :func:`search_index_deferred`)."""
    with _DEFERRED_LOCK:
        deferred = tx.storage in _DEFERRED
    if not deferred:
        index_space(tx, space["id"], revision_id)
