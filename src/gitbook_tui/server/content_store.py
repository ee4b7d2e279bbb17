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
import json
import re
import threading
import unicodedata
import weakref
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .assets import content_type_for, image_dimensions
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
    """Keep derived data of the main revision in step: (re)index the space for search.

    Only pages whose title, description or document changed are re-indexed."""
    from .search_index import index_space

    index_space(tx, space["id"], revision_id)


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


def slugify(title: str) -> str:
    """A URL slug (lower-case ASCII words joined by ``-``) of a title."""
    text = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode("ascii")
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return slug[:100].rstrip("-") or "page"


def unique_slug(slug: str, taken: set[str]) -> str:
    """``slug``, or ``slug-2``, ``slug-3``… when a sibling already uses it; adds it to ``taken``."""
    candidate, n = slug, 1
    while candidate in taken:
        n += 1
        candidate = f"{slug}-{n}"
    taken.add(candidate)
    return candidate


# -- markdown blocks and the document tree ---------------------------------------------------

_FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})\s*([^`\s{]*)")
_HEADING_RE = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$")
_HR_RE = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_LIST_RE = re.compile(r"^ {0,3}(?:([*+-])|(\d{1,9})[.)])[ \t]+")
_TAG_RE = re.compile(r"^\s*\{%\s*(end)?([a-zA-Z][\w-]*)\b[^%]*%\}")
_TAG_ANY_RE = re.compile(r"\{%\s*(end)?([a-zA-Z][\w-]*)\b", re.MULTILINE)

_TAG_BLOCK_TYPES = {
    "hint": "hint",
    "tabs": "tabs",
    "code": "code",
    "embed": "embed",
    "content-ref": "content-ref",
    "file": "file",
    "stepper": "stepper",
    "columns": "columns",
    "swagger": "openapi",
    "openapi": "openapi",
    "include": "reusable-content",
    "updates": "updates",
}


_FENCE_CHARS = ("`", "~")
_CANDIDATE_RE = re.compile(r"^[ \t]*(?:`{3}|~{3}|\{%)", re.M)


def _interrupts(line: str, paragraph: bool) -> bool:
    """Whether ``line`` ends the paragraph/quote/table/HTML block before it."""
    first = line.lstrip()[:1]
    if not first:
        return True
    if first in _FENCE_CHARS:
        return bool(_FENCE_RE.match(line))
    if first == "#":
        return bool(_HEADING_RE.match(line))
    if first == "{":
        return bool(_TAG_RE.match(line))
    if paragraph and (first in "*-+_" or first.isdigit()):
        return bool(_LIST_RE.match(line) or _HR_RE.match(line))
    return False


@dataclass(frozen=True)
class Block:
    """One top-level markdown block: its document type, lines and extra data."""

    type: str
    text: str
    data: dict[str, Any]


def markdown_blocks(markdown: str) -> list[Block]:
    """Split markdown into top-level blocks (one pass over the lines)."""
    lines = markdown.split("\n")
    # For every `{% name` opening, the index of the next tag of the same name, so that
    # paired tags (`{% hint %}…{% endhint %}`) are told apart from single ones in linear time.
    tag_lines: dict[str, list[tuple[int, bool]]] = {}
    in_fence: str | None = None
    number, last = 0, 0
    for candidate in _CANDIDATE_RE.finditer(markdown) if "{%" in markdown else ():
        number += markdown.count("\n", last, candidate.start())
        last = candidate.start()
        line = lines[number]
        fence = _FENCE_RE.match(line)
        if fence:
            marker = fence.group(1)
            if in_fence is None:
                in_fence = marker
            elif marker[0] == in_fence[0] and len(marker) >= len(in_fence):
                in_fence = None
            continue
        if in_fence is None:
            tag = _TAG_RE.match(line)
            if tag:
                tag_lines.setdefault(tag.group(2), []).append((number, bool(tag.group(1))))
    end_of: dict[int, int] = {}
    for entries in tag_lines.values():
        for (number, is_end), nxt in zip(entries, [*entries[1:], None], strict=True):
            if not is_end and nxt is not None and nxt[1]:
                end_of[number] = nxt[0]

    blocks: list[Block] = []
    i, total = 0, len(lines)
    while i < total:
        line = lines[i]
        first = line.lstrip()[:1]
        if not first:
            i += 1
            continue
        fence = _FENCE_RE.match(line) if first in _FENCE_CHARS else None
        if fence:
            marker, j = fence.group(1), i + 1
            while j < total:
                close = _FENCE_RE.match(lines[j])
                if close and close.group(1)[0] == marker[0] and len(close.group(1)) >= len(marker):
                    break
                j += 1
            body = "\n".join(lines[i + 1 : j])
            blocks.append(Block("code", body, {"syntax": fence.group(2) or None}))
            i = j + 1
            continue
        tag = _TAG_RE.match(line) if first == "{" else None
        if tag and not tag.group(1):
            name = tag.group(2)
            j = end_of.get(i, i)
            data = dict(re.findall(r'(\w[\w-]*)="([^"]*)"', tag.group(0)))
            inner = "\n".join(lines[i + 1 : j]) if j > i else ""
            blocks.append(Block(_TAG_BLOCK_TYPES.get(name, name), inner, data))
            i = j + 1
            continue
        heading = _HEADING_RE.match(line) if first == "#" else None
        if heading:
            level = min(len(heading.group(1)), 3)
            blocks.append(Block(f"heading-{level}", heading.group(2), {}))
            i += 1
            continue
        if _HR_RE.match(line):
            blocks.append(Block("divider", "", {}))
            i += 1
            continue
        j = i + 1
        if _LIST_RE.match(line):
            ordered = not _LIST_RE.match(line).group(1)  # type: ignore[union-attr]
            while j < total:
                # A list goes on through indented lines, further items, and blank lines
                # that are followed by one of those.
                probe = lines[j] if lines[j].strip() else (lines[j + 1] if j + 1 < total else "")
                if not (probe.strip() and (probe[:1] in (" ", "\t") or _LIST_RE.match(probe))):
                    break
                j += 1
            kind = "list-ordered" if ordered else "list-unordered"
            blocks.append(Block(kind, "\n".join(lines[i:j]), {}))
            i = j
            continue
        stripped = line.lstrip()
        if stripped.startswith(">"):
            kind = "blockquote"
        elif stripped.startswith("|"):
            kind = "table"
        elif stripped.startswith("<"):
            kind = "html"
        else:
            kind = "paragraph"
        while j < total and not _interrupts(lines[j], kind == "paragraph"):
            j += 1
        blocks.append(Block(kind, "\n".join(lines[i:j]), {}))
        i = j
    return blocks


_DOC_CACHE: OrderedDict[str, dict[str, Any]] = OrderedDict()
_DOC_CACHE_LIMIT = 32


def markdown_to_document(markdown: str, digest: str | None = None) -> dict[str, Any]:
    """A GitBook-like document tree: one block node per top-level markdown block.

    Cached by the markdown's blob hash when given (content-addressed, so always valid).
    Do not mutate the result."""
    if digest is not None:
        with CACHE_LOCK:
            cached = _DOC_CACHE.get(digest)
            if cached is not None:
                _DOC_CACHE.move_to_end(digest)
                return cached
    nodes = []
    for block in markdown_blocks(markdown):
        data = {k: v for k, v in block.data.items() if v is not None}
        if block.type.startswith("heading-"):
            data.setdefault("id", slugify(block.text))
        node: dict[str, Any] = {"object": "block", "type": block.type, "data": data}
        if block.type == "divider":
            node["isVoid"] = True
            node["nodes"] = []
        else:
            node["nodes"] = [
                {"object": "text", "leaves": [{"object": "leaf", "text": block.text, "marks": []}]}
            ]
        nodes.append(node)
    document = {"object": "document", "data": {}, "nodes": nodes}
    if digest is not None:
        with CACHE_LOCK:
            _DOC_CACHE[digest] = document
            if len(_DOC_CACHE) > _DOC_CACHE_LIMIT:
                _DOC_CACHE.popitem(last=False)
    return document


_DOC_JSON_CACHE: OrderedDict[str, str] = OrderedDict()


def document_json(markdown: str, digest: str | None = None) -> str:
    """:func:`markdown_to_document` already serialised as JSON (cached by blob hash, so a
    large page's document is encoded once)."""
    if digest is not None:
        with CACHE_LOCK:
            cached = _DOC_JSON_CACHE.get(digest)
            if cached is not None:
                _DOC_JSON_CACHE.move_to_end(digest)
                return cached
    text = json.dumps(
        markdown_to_document(markdown, digest), ensure_ascii=False, separators=(",", ":")
    )
    if digest is not None:
        with CACHE_LOCK:
            _DOC_JSON_CACHE[digest] = text
            if len(_DOC_JSON_CACHE) > _DOC_CACHE_LIMIT:
                _DOC_JSON_CACHE.popitem(last=False)
    return text
