"""What every part of the three-way merge shares: conflicts, field merging, flat page trees."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

IGNORED_PAGE_KEYS = frozenset({"pages", "updatedAt"})
MISSING: Any = object()


@dataclass(frozen=True)
class Conflict:
    """One thing both sides changed incompatibly."""

    kind: str  # "page", "file" or "variable"
    id: str
    title: str
    reason: str

    def describe(self) -> str:
        label = {"page": "page", "file": "file", "variable": "variable"}[self.kind]
        return f"{label} '{self.title}' ({self.reason})"


def conflict_message(conflicts: list[Conflict]) -> str:
    pages = [c for c in conflicts if c.kind == "page"]
    others = [c for c in conflicts if c.kind != "page"]
    parts = []
    if pages:
        parts.append("pages " + "; ".join(f"'{c.title}' ({c.reason})" for c in pages))
    parts.extend(c.describe() for c in others)
    return "Merge conflict: both sides changed " + "; ".join(parts)


# -- flattening ---------------------------------------------------------------------------


@dataclass
class Flat:
    nodes: dict[str, dict[str, Any]]  # id -> node without "pages"
    parent: dict[str, str | None]
    children: dict[str | None, list[str]]  # parent id (None = root) -> ordered child ids
    had_pages: dict[str, bool]


def flatten(pages: list[dict[str, Any]]) -> Flat:
    flat = Flat({}, {}, {None: []}, {})

    def walk(nodes: list[dict[str, Any]], parent: str | None) -> None:
        for node in nodes:
            pid = node["id"]
            flat.nodes[pid] = {k: v for k, v in node.items() if k != "pages"}
            flat.parent[pid] = parent
            flat.had_pages[pid] = "pages" in node
            flat.children.setdefault(parent, []).append(pid)
            flat.children.setdefault(pid, [])
            walk(node.get("pages", []), pid)

    walk(pages, None)
    return flat


def title_of(pid: str, *flats: Flat) -> str:
    for flat in flats:
        node = flat.nodes.get(pid)
        if node is not None and node.get("title"):
            return str(node["title"])
    return pid


def attr_keys(*nodes: dict[str, Any] | None) -> list[str]:
    keys: list[str] = []
    for node in nodes:
        for key in node or {}:
            if key not in IGNORED_PAGE_KEYS and key not in keys:
                keys.append(key)
    return keys


def changed(before: dict[str, Any], after: dict[str, Any]) -> bool:
    return any(before.get(k, MISSING) != after.get(k, MISSING) for k in attr_keys(before, after))


def pick(base: Any, ours: Any, theirs: Any) -> tuple[Any, bool]:
    """Three-way merge of one value: the side that changed it wins; ``(ours, True)`` when both
    sides changed it to different values (a conflict)."""
    if ours in (theirs, base):
        return theirs, False
    if theirs == base:
        return ours, False
    return ours, True


def merge_fields(
    base: dict[str, Any], ours: dict[str, Any], theirs: dict[str, Any]
) -> tuple[dict[str, Any], list[str]]:
    """Field-by-field three-way merge; returns the merged dict and the conflicting keys."""
    merged: dict[str, Any] = {}
    conflicting: list[str] = []
    for key in attr_keys(theirs, ours, base):
        b, o, t = base.get(key, MISSING), ours.get(key, MISSING), theirs.get(key, MISSING)
        value, clash = pick(b, o, t)
        if clash:
            conflicting.append(key)
        if value is not MISSING:
            merged[key] = value
    stamps = [n["updatedAt"] for n in (ours, theirs) if n.get("updatedAt")]
    if stamps:
        merged["updatedAt"] = max(stamps)
    return merged, conflicting
