"""Links found in page markdown, resolved against a revision's page tree and files.

A link is read from markdown links and images (``[t](target)``, ``![a](src)``, reference
definitions, ``<https://…>`` autolinks, HTML ``href``/``src``) and from GitBook blocks
(``{% content-ref url=… %}``, ``{% embed url=… %}``, ``{% file src=… %}``); nothing inside
code is a link. A target is then classified:

- ``http(s)``/``mailto`` URLs → ``ok`` (no network check);
- ``/pages/{id}``, relative ``.md`` paths and slug paths → a page: ``in-app`` if it exists in
  the revision, ``broken`` if not;
- ``/files/{id}`` and relative paths to other files (``.gitbook/assets/x.png``) → a file,
  ``in-app`` or ``broken`` the same way.

Extraction is cached by the markdown's blob hash (content-addressed, so never stale).
"""

from __future__ import annotations

import posixpath
import re
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from ..core.storage import Tx
from .store import CACHE_LOCK, PageIndex, iter_pages, page_markdown

_FENCED_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})[^\n]*\n.*?(?:^ {0,3}\1[ \t]*$|\Z)", re.M | re.S)
_INLINE_CODE_RE = re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)", re.S)
_MD_LINK_RE = re.compile(
    r"(!?)\[((?:[^\[\]\n]|\[[^\[\]\n]*\])*)\]\(\s*(<[^>\n]*>|[^\s()]+(?:\([^\s()]*\)[^\s()]*)*)"
    r"(?:\s+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^)\n]*\)))?\s*\)"
)
_REF_DEF_RE = re.compile(r"^ {0,3}\[([^\]^][^\]]*)\]:\s*<?([^\s>]+)>?", re.M)
_AUTOLINK_RE = re.compile(r"<((?:https?|mailto):[^>\s]+)>")
_BLOCK_RE = re.compile(
    r"\{%\s*(content-ref|embed|file)\s+(?:url|src)\s*=\s*\"([^\"]+)\"[^%]*%\}", re.I
)
_HTML_ATTR_RE = re.compile(r"<(a|img)\b[^>]*?\b(href|src)\s*=\s*[\"']([^\"']+)[\"']", re.I)

_CACHE: OrderedDict[str, list[tuple[str, str]]] = OrderedDict()
_CACHE_LIMIT = 8192


@dataclass(frozen=True)
class Target:
    """Where a link points once resolved: ``kind`` page/file/url, ``id`` when found."""

    kind: str
    status: str
    id: str | None
    raw: str

    @property
    def key(self) -> tuple[str, str]:
        return (self.kind, self.id or self.raw)


def extract_links(markdown: str) -> list[tuple[str, str]]:
    """``(relation, target)`` pairs in document order (duplicates kept, code skipped)."""
    text = _FENCED_RE.sub("", markdown)
    if "`" in text:
        text = _INLINE_CODE_RE.sub("", text)
    found: list[tuple[int, str, str]] = []
    for match in _BLOCK_RE.finditer(text):
        found.append((match.start(), match.group(1).lower(), match.group(2)))
    for match in _MD_LINK_RE.finditer(text):
        target = match.group(3).strip("<>").strip()
        found.append((match.start(), "image" if match.group(1) else "link", target))
    if "]:" in text:
        for match in _REF_DEF_RE.finditer(text):
            found.append((match.start(), "link", match.group(2)))
    for match in _AUTOLINK_RE.finditer(text):
        found.append((match.start(), "link", match.group(1)))
    if "<" in text:
        for match in _HTML_ATTR_RE.finditer(text):
            relation = "image" if match.group(1).lower() == "img" else "link"
            found.append((match.start(), relation, match.group(3)))
    found.sort(key=lambda item: item[0])
    return [(relation, target) for _, relation, target in found if target]


def links_of(tx: Tx, node: dict[str, Any]) -> list[tuple[str, str]]:
    """The (cached) raw links of a document page node."""
    digest = node.get("document")
    if not digest:
        return []
    with CACHE_LOCK:
        cached = _CACHE.get(digest)
        if cached is not None:
            _CACHE.move_to_end(digest)
            return cached
    links = extract_links(page_markdown(tx, node))
    with CACHE_LOCK:
        _CACHE[digest] = links
        if len(_CACHE) > _CACHE_LIMIT:
            _CACHE.popitem(last=False)
    return links


def page_base(index: PageIndex, node: dict[str, Any]) -> str:
    """The folder relative links of a page are resolved from."""
    git_path = (node.get("git") or {}).get("path")
    if git_path:
        return posixpath.dirname(str(git_path))
    path = index.path_of(node["id"]) or ""
    return path if node.get("pages") else posixpath.dirname(path)


def _first_document(index: PageIndex) -> dict[str, Any] | None:
    for page_id in index.order:
        node = index.by_id[page_id][0]
        if node.get("type", "document") == "document":
            return node
    return None


def resolve(raw: str, base: str, index: PageIndex) -> Target | None:
    """Classify one link target found on a page whose folder is ``base``."""
    target = raw.strip()
    if not target or target.startswith("#"):
        return None
    lowered = target.lower()
    if re.match(r"^[a-z][a-z0-9+.-]*:", lowered):
        return Target("url", "ok", None, target)
    if target.startswith("//"):
        return Target("url", "ok", None, target)
    path = unquote(re.split(r"[#?]", target, maxsplit=1)[0])
    if not path:
        return None
    stable = re.match(r"^/?(pages|files)/([A-Za-z0-9_-]+)/?$", path)
    if stable:
        kind = "page" if stable.group(1) == "pages" else "file"
        known = index.by_id if kind == "page" else index.files_by_id
        found = stable.group(2) in known
        return Target(
            kind, "in-app" if found else "broken", stable.group(2) if found else None, target
        )
    if path.startswith("/"):
        joined = posixpath.normpath(path.lstrip("/") or ".")
    else:
        joined = posixpath.normpath(posixpath.join(base, path))
    joined = "" if joined == "." else joined
    if joined.startswith(".."):
        return Target("page", "broken", None, target)
    name = posixpath.basename(joined)
    extension = posixpath.splitext(name)[1].lower()
    if extension in ("", ".md", ".markdown") and "/.gitbook/" not in f"/{joined}":
        node = index.by_git_path.get(joined)
        if node is None:
            slug_path = re.sub(r"(^|/)readme(\.md|\.markdown)?$", "", joined, flags=re.I)
            slug_path = re.sub(r"\.(md|markdown)$", "", slug_path, flags=re.I)
            node = index.by_path.get(slug_path) if slug_path else _first_document(index)
        if node is not None:
            return Target("page", "in-app", node["id"], target)
        return Target("page", "broken", None, target)
    file = index.files_by_name.get(name)
    if file is not None:
        return Target("file", "in-app", file["id"], target)
    return Target("file", "broken", None, target)


def page_targets(tx: Tx, index: PageIndex, node: dict[str, Any]) -> list[tuple[str, Target]]:
    """The distinct resolved links of one page: ``(relation, target)`` in document order."""
    seen: set[tuple[str, str]] = set()
    result: list[tuple[str, Target]] = []
    base = page_base(index, node)
    for relation, raw in links_of(tx, node):
        target = resolve(raw, base, index)
        if target is None or target.key in seen:
            continue
        seen.add(target.key)
        result.append((relation, target))
    return result


@dataclass
class LinkContext:
    """Where the links are read: for ``locationReferences`` and ``targetReference``."""

    organization: str
    space: str
    revision: str
    change_request: str | None = None

    def version(self) -> dict[str, Any]:
        if self.change_request:
            return {
                "type": "changeRequest",
                "changeRequest": self.change_request,
                "revision": self.revision,
            }
        return {"type": "revision", "revision": self.revision}

    def location(self, page_id: str) -> dict[str, Any]:
        return {
            "kind": "page",
            "organization": self.organization,
            "space": self.space,
            "versionContext": self.version(),
            "page": page_id,
        }

    def target_ref(self, target: Target) -> dict[str, Any]:
        if target.kind == "url":
            return {"kind": "url", "url": target.raw}
        ref: dict[str, Any] = {
            "kind": target.kind,
            "organization": self.organization,
            "space": self.space,
            target.kind: target.id,
        }
        if target.id is None:
            ref["url"] = target.raw
        return ref


def link_items(
    tx: Tx, index: PageIndex, nodes: list[dict[str, Any]], where: LinkContext
) -> list[dict[str, Any]]:
    """One item per distinct target over ``nodes``, listing the pages containing it."""
    items: dict[tuple[str, str], dict[str, Any]] = {}
    for node in nodes:
        if node.get("type", "document") != "document":
            continue
        for relation, target in page_targets(tx, index, node):
            item = items.get(target.key)
            if item is None:
                item = items[target.key] = {
                    "status": target.status,
                    "relation": relation,
                    "targetReference": where.target_ref(target),
                    "locationReferences": [],
                }
            item["locationReferences"].append(where.location(node["id"]))
    return list(items.values())


def link_stats(items: list[dict[str, Any]], baseline_broken: set[str] | None) -> dict[str, Any]:
    """``{total, broken: {total, changeRequest}}``; ``changeRequest`` counts broken links that
    are not broken in ``baseline_broken`` (the main content), 0 when reading the main content."""
    broken = [item for item in items if item["status"] == "broken"]
    introduced = 0
    if baseline_broken is not None:
        introduced = sum(1 for item in broken if broken_key(item) not in baseline_broken)
    return {"total": len(items), "broken": {"total": len(broken), "changeRequest": introduced}}


def broken_key(item: dict[str, Any]) -> str:
    ref = item["targetReference"]
    return f"{ref['kind']}:{ref.get('url') or ref.get(ref['kind'])}"


def document_nodes(pages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [node for node, _, _ in iter_pages(pages) if node.get("type", "document") == "document"]
