"""Immutable revisions of space content: page trees whose documents live in the blob store.

A stored revision (kind ``revision``, scope = space id) is::

    {"id", "space", "parents": [rev ids],
     "type": "initial"|"edits"|"merge"|"update"|"import"|"rollback",
     "createdAt", "createdBy": user id | None, "changeRequest": cr id | None,
     "pages": [PageNode…], "files": [FileNode…], "variables": {},
     "reusableContents": [{"id", "title", "document": blob hash, "git"}]  (when any),
     "git": {"oid", "message", "createdByGitBook", "url", "ref"}  (Git Sync imports only)}

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
import threading
import weakref
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..core.assets import content_type_for, image_dimensions
from ..core.errors import not_found
from ..core.storage import Tx

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
    reusable_contents: list[dict[str, Any]] | None = None,
    git: dict[str, Any] | None = None,
    cache: bool = False,
) -> dict[str, Any]:
    """Store a new revision. ``cache``: keep it in memory for the next :func:`get_revision`
    too (an edit is usually followed by another on it), for a caller that never changes
    ``pages``, ``files`` or ``variables`` again and whose values are all JSON-native (what
    the database returns would equal it)."""
    if reusable_contents is None and parents:
        # Edits keep the parent's reusable contents; only an import replaces them.
        parent = tx.storage._revision_cache.get(parents[0]) or tx.get("revision", parents[0])
        reusable_contents = list((parent or {}).get("reusableContents") or [])
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
    if reusable_contents:
        revision["reusableContents"] = reusable_contents
    if git:  # the Git Sync commit the revision came from ({oid, message, createdByGitBook…})
        revision["git"] = git
    tx.put("revision", revision_id, revision, scope=space_id)
    if cache:
        _remember(tx.storage._revision_cache, revision)
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
    _remember(cache, revision)
    return revision


def _remember(cache: dict[str, dict[str, Any]], revision: dict[str, Any]) -> None:
    if len(cache) >= _CACHE_LIMIT:
        cache.pop(next(iter(cache)))
    cache[revision["id"]] = revision


def editable_copy(revision: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Deep copies of a revision's pages and files, safe to change."""
    return copy.deepcopy(revision["pages"]), copy.deepcopy(revision["files"])


def shared_copy(revision: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """New top-level lists of a revision's pages and files, sharing their nodes with it (no
    copying of what does not change): to store as they are, to add to, or to edit through
    :func:`.edits.apply_changes` (which copies only the nodes it changes). Never change a
    node of them in place."""
    return list(revision["pages"]), list(revision["files"])


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


# -- helpers shared by the content family (reads, imports, links, search) ------------------------

_INDEX_CACHE: weakref.WeakKeyDictionary[Any, OrderedDict[str, PageIndex]] = (
    weakref.WeakKeyDictionary()
)
# Module caches are shared by every Storage of the process (tests run several apps).
CACHE_LOCK = threading.Lock()


@dataclass
class PageIndex:
    """Lookups over one (immutable) revision's page tree, built once and cached."""

    by_id: dict[str, tuple[dict[str, Any], str, str | None]]
    by_path: dict[str, dict[str, Any]]
    by_git_path: dict[str, dict[str, Any]]
    files_by_id: dict[str, dict[str, Any]]
    files_by_name: dict[str, dict[str, Any]]
    order: list[str] = field(default_factory=list)

    def path_of(self, page_id: str) -> str | None:
        entry = self.by_id.get(page_id)
        return None if entry is None else entry[1]

    def ancestors(self, page_id: str) -> list[dict[str, Any]]:
        """Parents of a page from the top-level page down to its direct parent."""
        chain: list[dict[str, Any]] = []
        entry = self.by_id.get(page_id)
        while entry is not None and entry[2] is not None:
            parent = self.by_id.get(entry[2])
            if parent is None:
                break
            chain.append(parent[0])
            entry = parent
        chain.reverse()
        return chain


def page_index(tx: Tx, revision: dict[str, Any]) -> PageIndex:
    """The cached :class:`PageIndex` of ``revision`` (revisions never change)."""
    with CACHE_LOCK:
        cache = _INDEX_CACHE.get(tx.storage)
        if cache is None:
            cache = _INDEX_CACHE[tx.storage] = OrderedDict()
        index = cache.get(revision["id"])
        if index is not None:
            cache.move_to_end(revision["id"])
            return index
    by_id: dict[str, tuple[dict[str, Any], str, str | None]] = {}
    by_path: dict[str, dict[str, Any]] = {}
    by_git: dict[str, dict[str, Any]] = {}
    order: list[str] = []
    for node, path, parent in iter_pages(revision.get("pages", [])):
        by_id[node["id"]] = (node, path, parent)
        order.append(node["id"])
        if node.get("type", "document") == "document":
            by_path.setdefault(path, node)
        git = node.get("git") or {}
        if git.get("path"):
            by_git.setdefault(str(git["path"]), node)
    files = revision.get("files", [])
    index = PageIndex(
        by_id=by_id,
        by_path=by_path,
        by_git_path=by_git,
        files_by_id={f["id"]: f for f in files},
        files_by_name={f["name"]: f for f in reversed(files)},
        order=order,
    )
    with CACHE_LOCK:
        cache[revision["id"]] = index
        if len(cache) > _CACHE_LIMIT:
            cache.popitem(last=False)
    return index


def store_markdown(tx: Tx, markdown: str) -> str:
    """Store a page's markdown in the blob store; returns the ``document`` hash."""
    return tx.put_blob(markdown)


def store_file(
    tx: Tx,
    *,
    file_id: str,
    name: str,
    data: bytes,
    content_type: str | None = None,
    dimensions: dict[str, float] | None = None,
    git: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Store a file's bytes (and its content type for downloads); returns its FileNode."""
    content_type = content_type or content_type_for(name)
    digest = tx.put_blob(data)
    tx.put("file-blob", digest, {"contentType": content_type})
    if dimensions is None:
        dimensions = image_dimensions(data, content_type)
    node: dict[str, Any] = {
        "id": file_id,
        "name": name,
        "contentType": content_type,
        "size": len(data),
        "dimensions": dimensions,
        "blob": digest,
    }
    if git:
        node["git"] = git
    return node
