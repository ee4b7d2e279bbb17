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

from dataclasses import dataclass, field
from typing import Any

from .common import MISSING, Conflict, merge_fields, pick
from .pages import merge_pages


@dataclass
class MergeResult:
    pages: list[dict[str, Any]]
    files: list[dict[str, Any]]
    variables: dict[str, Any]
    conflicts: list[Conflict] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.conflicts


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
        merged, bad = merge_fields(b, o, t)
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
        b, o, t = base.get(key, MISSING), ours.get(key, MISSING), theirs.get(key, MISSING)
        value, clash = pick(b, o, t)
        if clash:
            conflicts.append(Conflict("variable", key, key, "set differently on both sides"))
            continue
        if value is not MISSING:
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
