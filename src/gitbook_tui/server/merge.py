"""Three-way merge of revision contents (page trees, files, variables).

``base`` is the common ancestor, ``ours`` one side (a change request), ``theirs`` the other
(the space's main content). Pages and files are matched by id. Rules, per page:

- present on all three sides: every attribute (document hash, title, emoji, description,
  hidden, slug, …) and the parent are merged field by field — a field changed on one side
  only takes that side's value; changed on both sides to different values is a conflict;
- created on one side (absent from base): kept;
- deleted on one side and unchanged on the other: deleted; deleted on one side and changed
  (content, metadata or parent) on the other: conflict;
- a page whose merged parent no longer exists (one side deleted it while the other added or
  moved pages into it), or parents forming a cycle: conflict;
- sibling order: the order of the siblings both sides kept is taken from the side that
  changed it (both changed it differently: conflict); pages that arrive under a parent
  (created or moved there) are placed after the sibling that precedes them on their side.

``updatedAt`` never conflicts (the later one wins). Files merge like page attributes;
variables merge key by key.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

_IGNORED_PAGE_KEYS = frozenset({"pages", "updatedAt"})
_MISSING: Any = object()


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


@dataclass
class MergeResult:
    pages: list[dict[str, Any]]
    files: list[dict[str, Any]]
    variables: dict[str, Any]
    conflicts: list[Conflict] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.conflicts


class MergeConflictError(Exception):
    """Raised by :func:`merge_or_raise` when the merge has conflicts."""

    def __init__(self, conflicts: list[Conflict]) -> None:
        self.conflicts = conflicts
        super().__init__(conflict_message(conflicts))


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
class _Flat:
    nodes: dict[str, dict[str, Any]]  # id -> node without "pages"
    parent: dict[str, str | None]
    children: dict[str | None, list[str]]  # parent id (None = root) -> ordered child ids
    had_pages: dict[str, bool]


def _flatten(pages: list[dict[str, Any]]) -> _Flat:
    flat = _Flat({}, {}, {None: []}, {})

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


def _title(pid: str, *flats: _Flat) -> str:
    for flat in flats:
        node = flat.nodes.get(pid)
        if node is not None and node.get("title"):
            return str(node["title"])
    return pid


def _attr_keys(*nodes: dict[str, Any] | None) -> list[str]:
    keys: list[str] = []
    for node in nodes:
        for key in node or {}:
            if key not in _IGNORED_PAGE_KEYS and key not in keys:
                keys.append(key)
    return keys


def _changed(before: dict[str, Any], after: dict[str, Any]) -> bool:
    return any(before.get(k, _MISSING) != after.get(k, _MISSING) for k in _attr_keys(before, after))


def _merge_fields(
    base: dict[str, Any], ours: dict[str, Any], theirs: dict[str, Any]
) -> tuple[dict[str, Any], list[str]]:
    """Field-by-field three-way merge; returns the merged dict and the conflicting keys."""
    merged: dict[str, Any] = {}
    conflicting: list[str] = []
    for key in _attr_keys(theirs, ours, base):
        b, o, t = base.get(key, _MISSING), ours.get(key, _MISSING), theirs.get(key, _MISSING)
        if o in (t, b):
            value = t
        elif t == b:
            value = o
        else:
            conflicting.append(key)
            value = o
        if value is not _MISSING:
            merged[key] = value
    stamps = [n["updatedAt"] for n in (ours, theirs) if n.get("updatedAt")]
    if stamps:
        merged["updatedAt"] = max(stamps)
    return merged, conflicting


# -- pages ----------------------------------------------------------------------------------


def merge_pages(
    base: list[dict[str, Any]], ours: list[dict[str, Any]], theirs: list[dict[str, Any]]
) -> tuple[list[dict[str, Any]], list[Conflict]]:
    base_f, ours_f, theirs_f = _flatten(base), _flatten(ours), _flatten(theirs)
    conflicts: list[Conflict] = []
    attrs: dict[str, dict[str, Any]] = {}
    parent: dict[str, str | None] = {}
    # which side placed a page under its merged parent when that differs from base
    source: dict[str, str] = {}

    order = list(dict.fromkeys([*theirs_f.nodes, *ours_f.nodes, *base_f.nodes]))

    for pid in order:
        b, o, t = base_f.nodes.get(pid), ours_f.nodes.get(pid), theirs_f.nodes.get(pid)
        if b is None:
            if o is not None and t is not None:
                merged, bad = _merge_fields({}, o, t)
                if bad or ours_f.parent[pid] != theirs_f.parent[pid]:
                    conflicts.append(
                        Conflict(
                            "page",
                            pid,
                            _title(pid, ours_f, theirs_f),
                            "created differently on both",
                        )
                    )
                    continue
                attrs[pid], parent[pid], source[pid] = merged, theirs_f.parent[pid], "theirs"
            elif o is not None:
                attrs[pid], parent[pid], source[pid] = dict(o), ours_f.parent[pid], "ours"
            elif t is not None:
                attrs[pid], parent[pid], source[pid] = dict(t), theirs_f.parent[pid], "theirs"
            continue
        if o is None and t is None:
            continue  # deleted on both sides
        if o is None or t is None:
            survivor, flat = (o, ours_f) if o is not None else (t, theirs_f)
            assert survivor is not None
            if _changed(b, survivor) or flat.parent[pid] != base_f.parent[pid]:
                deleted_on = "main content" if t is None else "the change request"
                conflicts.append(
                    Conflict(
                        "page",
                        pid,
                        _title(pid, base_f, theirs_f, ours_f),
                        f"deleted in {deleted_on} but edited on the other side",
                    )
                )
            continue
        merged, bad = _merge_fields(b, o, t)
        bp, op, tp = base_f.parent[pid], ours_f.parent[pid], theirs_f.parent[pid]
        if op in (tp, bp):
            new_parent = tp
            if tp != bp:
                source[pid] = "theirs"
        elif tp == bp:
            new_parent = op
            source[pid] = "ours"
        else:
            bad.append("parent")
            new_parent = op
        if bad:
            conflicts.append(
                Conflict(
                    "page",
                    pid,
                    _title(pid, base_f, theirs_f, ours_f),
                    "edited on both: " + ", ".join(bad),
                )
            )
            continue
        attrs[pid], parent[pid] = merged, new_parent

    # parents that no longer exist, or cycles
    for pid in list(attrs):
        par = parent[pid]
        if par is not None and par not in attrs:
            conflicts.append(
                Conflict(
                    "page",
                    par,
                    _title(par, base_f, ours_f, theirs_f),
                    f"deleted on one side while '{_title(pid, base_f, theirs_f, ours_f)}' was added or moved into it",
                )
            )
    for pid in attrs:
        seen = {pid}
        par = parent[pid]
        while par is not None and par in attrs:
            if par in seen:
                conflicts.append(
                    Conflict(
                        "page", pid, _title(pid, base_f, theirs_f, ours_f), "moved into each other"
                    )
                )
                break
            seen.add(par)
            par = parent[par]
    if conflicts:
        return [], _dedupe(conflicts)

    children: dict[str | None, list[str]] = {}
    for key in [None, *attrs]:
        kids = {pid for pid in attrs if parent[pid] == key}
        if not kids:
            continue
        ordered, bad_order = _merge_order(key, kids, base_f, ours_f, theirs_f, source)
        if bad_order:
            conflicts.extend(
                Conflict(
                    "page",
                    pid,
                    _title(pid, base_f, theirs_f, ours_f),
                    "reordered differently on both sides",
                )
                for pid in bad_order
            )
        children[key] = ordered
    if conflicts:
        return [], _dedupe(conflicts)

    def build(key: str | None) -> list[dict[str, Any]]:
        out = []
        for pid in children.get(key, []):
            node = dict(attrs[pid])
            kids = build(pid)
            if kids or any(f.had_pages.get(pid) for f in (ours_f, theirs_f, base_f)):
                node["pages"] = kids
            out.append(node)
        return out

    return build(None), []


def _merge_order(
    key: str | None,
    kids: set[str],
    base_f: _Flat,
    ours_f: _Flat,
    theirs_f: _Flat,
    source: dict[str, str],
) -> tuple[list[str], list[str]]:
    base_old = [c for c in base_f.children.get(key, []) if c in kids]
    old = set(base_old)
    ours_old = [c for c in ours_f.children.get(key, []) if c in old]
    theirs_old = [c for c in theirs_f.children.get(key, []) if c in old]
    bad: list[str] = []
    if ours_old == base_old:
        order = list(theirs_old)
    elif theirs_old in (base_old, ours_old):
        order = list(ours_old)
    else:
        bad = [
            c
            for c in base_old
            if ours_old.index(c) != base_old.index(c)
            and theirs_old.index(c) != base_old.index(c)
            and ours_old.index(c) != theirs_old.index(c)
        ]
        order = list(ours_old)
    arrivals = kids - old
    placed = set(order)
    for side, flat in (("theirs", theirs_f), ("ours", ours_f)):
        seq = flat.children.get(key, [])
        for idx, c in enumerate(seq):
            if c not in arrivals or c in placed or source.get(c, side) != side:
                continue
            pos = 0
            for prev in reversed(seq[:idx]):
                if prev in placed:
                    pos = order.index(prev) + 1
                    break
            while pos < len(order) and order[pos] in arrivals and source.get(order[pos]) != side:
                pos += 1
            order.insert(pos, c)
            placed.add(c)
    order.extend(sorted(arrivals - placed))
    return order, bad


def _dedupe(conflicts: list[Conflict]) -> list[Conflict]:
    seen: set[tuple[str, str]] = set()
    out = []
    for c in conflicts:
        if (c.kind, c.id) not in seen:
            seen.add((c.kind, c.id))
            out.append(c)
    return out


# -- files and variables ----------------------------------------------------------------------


def merge_files(
    base: list[dict[str, Any]], ours: list[dict[str, Any]], theirs: list[dict[str, Any]]
) -> tuple[list[dict[str, Any]], list[Conflict]]:
    base_f = {f["id"]: f for f in base}
    ours_f = {f["id"]: f for f in ours}
    theirs_f = {f["id"]: f for f in theirs}
    out: list[dict[str, Any]] = []
    conflicts: list[Conflict] = []
    ids = (
        list(theirs_f)
        + [i for i in ours_f if i not in theirs_f]
        + [i for i in base_f if i not in theirs_f and i not in ours_f]
    )
    for fid in ids:
        b, o, t = base_f.get(fid), ours_f.get(fid), theirs_f.get(fid)
        name = str((o or t or b or {}).get("name") or fid)
        if b is None:
            if o is not None and t is not None and o != t:
                conflicts.append(Conflict("file", fid, name, "added differently on both sides"))
            else:
                out.append(dict(o or t or {}))
            continue
        if o is None and t is None:
            continue
        if o is None or t is None:
            survivor = o if o is not None else t
            assert survivor is not None
            if survivor != b:
                conflicts.append(
                    Conflict("file", fid, name, "deleted on one side, edited on other")
                )
            continue
        merged, bad = _merge_fields(b, o, t)
        if bad:
            conflicts.append(Conflict("file", fid, name, "edited on both: " + ", ".join(bad)))
        out.append(merged)
    return out, conflicts


def merge_variables(
    base: dict[str, Any], ours: dict[str, Any], theirs: dict[str, Any]
) -> tuple[dict[str, Any], list[Conflict]]:
    out: dict[str, Any] = {}
    conflicts: list[Conflict] = []
    for key in list(dict.fromkeys([*theirs, *ours, *base])):
        b, o, t = base.get(key, _MISSING), ours.get(key, _MISSING), theirs.get(key, _MISSING)
        if o in (t, b):
            value = t
        elif t == b:
            value = o
        else:
            conflicts.append(Conflict("variable", key, key, "set differently on both sides"))
            continue
        if value is not _MISSING:
            out[key] = value
    return out, conflicts


def merge_revisions(
    base: dict[str, Any], ours: dict[str, Any], theirs: dict[str, Any]
) -> MergeResult:
    """Merge three revisions (dicts with ``pages``, ``files``, ``variables``)."""
    pages, page_conflicts = merge_pages(base["pages"], ours["pages"], theirs["pages"])
    files, file_conflicts = merge_files(
        base.get("files", []), ours.get("files", []), theirs.get("files", [])
    )
    variables, var_conflicts = merge_variables(
        base.get("variables") or {}, ours.get("variables") or {}, theirs.get("variables") or {}
    )
    return MergeResult(pages, files, variables, page_conflicts + file_conflicts + var_conflicts)


def merge_or_raise(
    base: dict[str, Any], ours: dict[str, Any], theirs: dict[str, Any]
) -> MergeResult:
    result = merge_revisions(base, ours, theirs)
    if result.conflicts:
        raise MergeConflictError(result.conflicts)
    return result


# -- semantic changes (RevisionSemanticChanges) ------------------------------------------------

_EDIT_ATTRIBUTES = {
    "document": ("title", "slug", "document", "emoji", "icon", "description", "hidden"),
    "group": ("title", "emoji", "slug", "hidden"),
    "link": ("title", "emoji", "href", "hidden"),
}
_FILE_ATTRIBUTES = ("name", "contentType", "size", "dimensions", "blob")


def _page_index(pages: list[dict[str, Any]]) -> dict[str, tuple[dict[str, Any], str, str | None]]:
    from .content_store import iter_pages

    return {node["id"]: (node, path, parent) for node, path, parent in iter_pages(pages)}


def _changed_page(node: dict[str, Any], path: str) -> dict[str, Any]:
    return {
        "id": node["id"],
        "type": node.get("type", "document"),
        "title": node.get("title", ""),
        "path": path,
    }


def _before_after(before: Any, after: Any) -> dict[str, Any]:
    return {
        side: value for side, value in (("before", before), ("after", after)) if value is not None
    }


def semantic_changes(
    before: dict[str, Any],
    after: dict[str, Any],
    file_url: Callable[[dict[str, Any]], str],
) -> list[dict[str, Any]]:
    """Pages created/edited/moved/deleted, files created/edited/deleted and variables edited
    from ``before`` to ``after`` (two revisions), in the page order of ``after``."""
    old, new = _page_index(before["pages"]), _page_index(after["pages"])
    old_flat, new_flat = _flatten(before["pages"]), _flatten(after["pages"])
    changes: list[dict[str, Any]] = []
    for pid, (node, path, parent) in new.items():
        if pid not in old:
            changes.append({"type": "page_created", "page": _changed_page(node, path)})
            continue
        old_node, _, old_parent = old[pid]
        keys = _EDIT_ATTRIBUTES.get(node.get("type", "document"), _EDIT_ATTRIBUTES["document"])
        attributes = {
            key: _before_after(old_node.get(key), node.get(key))
            for key in keys
            if old_node.get(key) != node.get(key)
        }
        if attributes:
            if "href" in attributes:
                href = attributes.pop("href")
                attributes["target"] = {
                    side: {"kind": "url", "url": value}
                    for side, value in href.items()
                    if value is not None
                }
            changes.append(
                {"type": "page_edited", "page": _changed_page(node, path), "attributes": attributes}
            )
        moved = parent != old_parent
        if not moved:
            common = set(old_flat.children.get(parent, [])) & set(new_flat.children.get(parent, []))
            old_rank = [c for c in old_flat.children.get(parent, []) if c in common]
            new_rank = [c for c in new_flat.children.get(parent, []) if c in common]
            moved = old_rank.index(pid) != new_rank.index(pid)
        if moved:
            parents: dict[str, Any] = {}
            if old_parent is not None and old_parent in old:
                parents["before"] = _changed_page(old[old_parent][0], old[old_parent][1])
            if parent is not None:
                parents["after"] = _changed_page(new[parent][0], new[parent][1])
            changes.append(
                {"type": "page_moved", "page": _changed_page(node, path), "parent": parents}
            )
    for pid, (node, path, _) in old.items():
        if pid not in new:
            changes.append({"type": "page_deleted", "page": _changed_page(node, path)})

    def file_ref(f: dict[str, Any]) -> dict[str, Any]:
        return {
            "id": f["id"],
            "name": f.get("name", ""),
            "contentType": f.get("contentType", ""),
            "downloadURL": file_url(f),
        }

    old_files = {f["id"]: f for f in before.get("files", [])}
    new_files = {f["id"]: f for f in after.get("files", [])}
    for fid, f in new_files.items():
        if fid not in old_files:
            changes.append({"type": "file_created", "file": file_ref(f)})
            continue
        prev = old_files[fid]
        attrs = {
            key: _before_after(prev.get(key), f.get(key))
            for key in _FILE_ATTRIBUTES
            if prev.get(key) != f.get(key)
        }
        if "blob" in attrs:
            attrs.pop("blob")
            attrs["downloadURL"] = {"before": file_url(prev), "after": file_url(f)}
        if attrs:
            changes.append({"type": "file_edited", "file": file_ref(f), "attributes": attrs})
    for fid, f in old_files.items():
        if fid not in new_files:
            changes.append({"type": "file_deleted", "file": file_ref(f)})

    old_vars, new_vars = before.get("variables") or {}, after.get("variables") or {}
    edited = {
        key: _before_after(old_vars.get(key), new_vars.get(key))
        for key in dict.fromkeys([*old_vars, *new_vars])
        if old_vars.get(key) != new_vars.get(key)
    }
    if edited:
        changes.append({"type": "variables_edited", "variables": edited})
    return changes
