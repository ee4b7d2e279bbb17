"""Making a revision a space's main content, and keeping what derives from it (search) in step."""

from __future__ import annotations

from typing import Any

from ..core.storage import Tx
from .search_index import index_space


def set_space_revision(tx: Tx, space: dict[str, Any], revision_id: str, now: str) -> dict[str, Any]:
    """Make ``revision_id`` the space's main content (and keep derived data in step)."""
    space["revision"] = revision_id
    space["updatedAt"] = now
    tx.put("space", space["id"], space)
    on_main_revision_changed(tx, space, revision_id)
    return space


def on_main_revision_changed(tx: Tx, space: dict[str, Any], revision_id: str) -> None:
    """Keep derived data of the main revision in step: (re)index the space for search.

    Only pages whose title, description or document changed are re-indexed."""
    index_space(tx, space["id"], revision_id)
