"""Page markdown as GitBook's JSON document, with links resolved and the result cached.

The document is built by :mod:`.official_document` from the parsed block model. A page's
links become page/file references resolved against its revision, so the serialised
document is cached per (markdown blob, revision, page); the parsed markdown is cached per
blob alone (content-addressed, so never stale).
"""

from __future__ import annotations

import json
import posixpath
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

from ...markdown import Document, parse
from .links import page_base, resolve
from .official_document import Resolver, to_document
from .store import CACHE_LOCK, PageIndex

T = TypeVar("T")

_PARSED_CACHE: OrderedDict[str, Document] = OrderedDict()
_DOC_CACHE: OrderedDict[str, dict[str, Any]] = OrderedDict()
_DOC_JSON_CACHE: OrderedDict[str, str] = OrderedDict()
_DOC_CACHE_LIMIT = 32
_PARSED_CACHE_LIMIT = 8  # parsed block models of large pages are big


def _cached(
    cache: OrderedDict[str, T], key: str | None, build: Callable[[], T], limit: int = 0
) -> T:
    """``build()``, kept in ``cache`` under ``key`` when there is one (the most recently used
    ``limit`` entries, ``_DOC_CACHE_LIMIT`` by default)."""
    if key is None:
        return build()
    with CACHE_LOCK:
        cached = cache.get(key)
        if cached is not None:
            cache.move_to_end(key)
            return cached
    value = build()
    with CACHE_LOCK:
        cache[key] = value
        if len(cache) > (limit or _DOC_CACHE_LIMIT):
            cache.popitem(last=False)
    return value


def markdown_to_document(
    markdown: str, digest: str | None = None, resolver: Resolver | None = None
) -> dict[str, Any]:
    """The official JSON document of ``markdown`` (links as ``url`` references unless a
    ``resolver`` is given). Cached by blob hash when given without a resolver; do not
    mutate the result."""
    parsed = _cached(_PARSED_CACHE, digest, lambda: parse(markdown), _PARSED_CACHE_LIMIT)
    if resolver is not None:
        return to_document(parsed, resolver)
    return _cached(_DOC_CACHE, digest, lambda: to_document(parsed))


def page_resolver(
    index: PageIndex, node: dict[str, Any], reusable: list[dict[str, Any]] | None = None
) -> Resolver:
    """Link targets of the page ``node`` as content references within its revision (includes
    of ``reusable`` contents, by their Git Sync path, as reusable-content references)."""
    base = page_base(index, node)
    by_path = {
        str((item.get("git") or {}).get("path")): item["id"]
        for item in reusable or []
        if (item.get("git") or {}).get("path")
    }

    def _resolve(raw: str) -> dict[str, Any] | None:
        if by_path:
            path = raw.split("#", 1)[0]
            for candidate in (posixpath.normpath(posixpath.join(base, path)), path.lstrip("/")):
                if candidate in by_path:
                    return {"kind": "reusable-content", "reusableContent": by_path[candidate]}
        if raw.startswith("#") and len(raw) > 1:
            return {"kind": "anchor", "anchor": raw[1:], "page": node["id"]}
        found = resolve(raw, base, index)
        if found is None or found.id is None:
            return None
        if found.kind == "page":
            anchor = raw.partition("#")[2]
            if anchor:
                return {"kind": "anchor", "anchor": anchor, "page": found.id}
            return {"kind": "page", "page": found.id}
        if found.kind == "file":
            return {"kind": "file", "file": found.id}
        return None

    return _resolve


def document_json(
    markdown: str,
    digest: str | None = None,
    *,
    index: PageIndex | None = None,
    node: dict[str, Any] | None = None,
    revision: str | None = None,
    reusable: list[dict[str, Any]] | None = None,
) -> str:
    """:func:`markdown_to_document` already serialised as JSON; with the page's ``index``,
    ``node`` and ``revision`` its links are resolved (cached per blob, revision and page)."""
    if index is None or node is None:
        key = digest
        build = lambda: markdown_to_document(markdown, digest)  # noqa: E731
    else:
        key = f"{digest}:{revision}:{node['id']}" if digest and revision else None
        build = lambda: markdown_to_document(markdown, digest, page_resolver(index, node, reusable))  # noqa: E731
    return _cached(
        _DOC_JSON_CACHE,
        key,
        lambda: json.dumps(build(), ensure_ascii=False, separators=(",", ":")),
    )
