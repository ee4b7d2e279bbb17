"""Semantic changes between two revisions: pages, files, reusable contents and variables that
changed, and how."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .merge.common import flatten
from .store import iter_pages

_EDIT_ATTRIBUTES = {
    "document": ("title", "slug", "document", "emoji", "icon", "description", "hidden"),
    "group": ("title", "emoji", "slug", "hidden"),
    "link": ("title", "emoji", "href", "hidden"),
}
_FILE_ATTRIBUTES = ("name", "contentType", "size", "dimensions", "blob")


def _page_index(pages: list[dict[str, Any]]) -> dict[str, tuple[dict[str, Any], str, str | None]]:
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
    old_flat, new_flat = flatten(before["pages"]), flatten(after["pages"])
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

    changes += _reusable_changes(before, after)
    old_vars, new_vars = before.get("variables") or {}, after.get("variables") or {}
    edited = {
        key: _before_after(old_vars.get(key), new_vars.get(key))
        for key in dict.fromkeys([*old_vars, *new_vars])
        if old_vars.get(key) != new_vars.get(key)
    }
    if edited:
        changes.append({"type": "variables_edited", "variables": edited})
    return changes


def _reusable_changes(before: dict[str, Any], after: dict[str, Any]) -> list[dict[str, Any]]:
    """Reusable contents created, edited (title, document) or deleted."""

    def ref(item: dict[str, Any]) -> dict[str, Any]:
        body = {"id": item["id"], "title": item.get("title") or ""}
        if item.get("document"):
            body["document"] = item["document"]
        return body

    old = {item["id"]: item for item in before.get("reusableContents") or []}
    new = {item["id"]: item for item in after.get("reusableContents") or []}
    changes: list[dict[str, Any]] = []
    for rid, item in new.items():
        prev = old.get(rid)
        if prev is None:
            changes.append({"type": "reusable_content_created", "reusableContent": ref(item)})
            continue
        attrs = {
            key: _before_after(prev.get(key), item.get(key))
            for key in ("title", "document")
            if prev.get(key) != item.get(key)
        }
        if attrs:
            changes.append(
                {
                    "type": "reusable_content_edited",
                    "reusableContent": ref(item),
                    "attributes": attrs,
                }
            )
    for rid, item in old.items():
        if rid not in new:
            changes.append({"type": "reusable_content_deleted", "reusableContent": ref(item)})
    return changes


_EMPTY: dict[str, Any] = {"pages": [], "files": [], "variables": {}}


def revision_changes(
    revision: dict[str, Any],
    parent: dict[str, Any] | None,
    file_url: Callable[[dict[str, Any]], str],
) -> list[dict[str, Any]]:
    """What ``revision`` changed against its first parent (``None``: it has none, so
    everything in it was created): the semantic changes of one step of a space's history."""
    return semantic_changes(parent or _EMPTY, revision, file_url)
