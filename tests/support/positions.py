"""The ``position`` of a move request (spaces, collections, site sections and site spaces),
written once so that the tests say only where to and next to what."""

from __future__ import annotations

from typing import Any


def position(where: str, kind: str, item_id: str) -> dict[str, Any]:
    """``{"position": {where: {"type": kind, <kind>: item_id}}}``: ``where`` is "before" or
    "after", ``kind`` the neighbour's type ("space", "collection", "site-section", ...)."""
    key = {"site-section": "siteSection", "site-space": "siteSpace"}.get(kind, kind)
    return {"position": {where: {"type": kind, key: item_id}}}
