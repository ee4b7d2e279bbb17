"""Page markdown split into top-level blocks, and the GitBook-like JSON document built from them."""

from __future__ import annotations

import json
import re
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from ..core.slugs import slugify
from .store import CACHE_LOCK

T = TypeVar("T")

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
_DOC_JSON_CACHE: OrderedDict[str, str] = OrderedDict()
_DOC_CACHE_LIMIT = 32


def _cached(cache: OrderedDict[str, T], digest: str | None, build: Callable[[], T]) -> T:
    """``build()``, kept in ``cache`` under the markdown's blob hash when there is one (the
    most recently used ``_DOC_CACHE_LIMIT`` entries)."""
    if digest is None:
        return build()
    with CACHE_LOCK:
        cached = cache.get(digest)
        if cached is not None:
            cache.move_to_end(digest)
            return cached
    value = build()
    with CACHE_LOCK:
        cache[digest] = value
        if len(cache) > _DOC_CACHE_LIMIT:
            cache.popitem(last=False)
    return value


def markdown_to_document(markdown: str, digest: str | None = None) -> dict[str, Any]:
    """A GitBook-like document tree: one block node per top-level markdown block.

    Cached by the markdown's blob hash when given (content-addressed, so always valid).
    Do not mutate the result."""
    return _cached(_DOC_CACHE, digest, lambda: _document(markdown))


def _document(markdown: str) -> dict[str, Any]:
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
    return {"object": "document", "data": {}, "nodes": nodes}


def document_json(markdown: str, digest: str | None = None) -> str:
    """:func:`markdown_to_document` already serialised as JSON (cached by blob hash, so a
    large page's document is encoded once)."""
    return _cached(
        _DOC_JSON_CACHE,
        digest,
        lambda: json.dumps(
            markdown_to_document(markdown, digest), ensure_ascii=False, separators=(",", ":")
        ),
    )
