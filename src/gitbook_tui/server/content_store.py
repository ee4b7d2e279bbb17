"""Immutable revisions of space content: page trees whose documents live in the blob store.

A stored revision (kind ``revision``, scope = space id) is::

    {"id", "space", "parents": [rev ids], "type": "initial"|"edits"|"merge"|"update"|"import"|…,
     "createdAt", "createdBy": user id | None, "changeRequest": cr id | None,
     "pages": [PageNode…], "files": [FileNode…], "variables": {}}

    PageNode = {"id", "title", "type": "document"|"group"|"link", "slug", "emoji", "icon",
                "description", "hidden", "noIndex", "createdAt", "updatedAt",
                "document": blob hash of the markdown (documents only),
                "href": target URL (links only), "pages": [PageNode…]}
    FileNode = {"id", "name", "contentType", "size", "dimensions": {"width", "height"} | None,
                "blob": blob hash}

Revisions never change once written; an edit always writes a new one.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

from .errors import not_found
from .storage import Tx

_CACHE_LIMIT = 64


def create_revision(
    tx: Tx,
    *,
    revision_id: str,
    space_id: str,
    parents: list[str],
    pages: list[dict[str, Any]],
    files: list[dict[str, Any]],
    type: str,
    created_at: str,
    created_by: str | None = None,
    change_request: str | None = None,
    variables: dict[str, str] | None = None,
) -> dict[str, Any]:
    revision = {
        "id": revision_id,
        "space": space_id,
        "parents": parents,
        "type": type,
        "createdAt": created_at,
        "createdBy": created_by,
        "changeRequest": change_request,
        "pages": pages,
        "files": files,
        "variables": variables or {},
    }
    tx.put("revision", revision_id, revision, scope=space_id)
    return revision


def get_revision(tx: Tx, revision_id: str) -> dict[str, Any]:
    """A revision (cached in memory: revisions are immutable). Do not mutate the result;
    use :func:`editable_copy` to build the next revision from it."""
    cache = tx.storage._revision_cache
    cached = cache.get(revision_id)
    if cached is not None:
        return cached
    revision = tx.get("revision", revision_id)
    if revision is None:
        raise not_found("Revision", revision_id)
    if len(cache) >= _CACHE_LIMIT:
        cache.pop(next(iter(cache)))
    cache[revision_id] = revision
    return revision


def editable_copy(revision: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Deep copies of a revision's pages and files, safe to change."""
    return copy.deepcopy(revision["pages"]), copy.deepcopy(revision["files"])


def iter_pages(
    pages: list[dict[str, Any]], parent_path: str = "", parent_id: str | None = None
) -> Iterator[tuple[dict[str, Any], str, str | None]]:
    """Every page node depth-first with its path and its parent page id."""
    for node in pages:
        if node.get("type") == "group":
            path = parent_path
        else:
            slug = node.get("slug") or node["id"]
            path = f"{parent_path}/{slug}" if parent_path else slug
        yield node, path, parent_id
        yield from iter_pages(node.get("pages", []), path, node["id"])


def find_page(pages: list[dict[str, Any]], page_id: str) -> tuple[dict[str, Any], str] | None:
    for node, path, _ in iter_pages(pages):
        if node["id"] == page_id:
            return node, path
    return None


def page_markdown(tx: Tx, node: dict[str, Any]) -> str:
    digest = node.get("document")
    return tx.get_text(digest) if digest else ""


def set_space_revision(tx: Tx, space: dict[str, Any], revision_id: str, now: str) -> dict[str, Any]:
    """Make ``revision_id`` the space's main content (and keep derived data in step)."""
    space["revision"] = revision_id
    space["updatedAt"] = now
    tx.put("space", space["id"], space)
    on_main_revision_changed(tx, space, revision_id)
    return space


def on_main_revision_changed(tx: Tx, space: dict[str, Any], revision_id: str) -> None:
    """Hook for derived data of the main revision (search index); filled by the content family."""
