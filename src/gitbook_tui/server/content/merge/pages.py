"""Three-way merge of page trees: attributes, parents and sibling order, with their conflicts."""

from __future__ import annotations

from typing import Any

from .common import Conflict, Flat, changed, flatten, merge_fields, title_of


def merge_pages(
    base: list[dict[str, Any]], ours: list[dict[str, Any]], theirs: list[dict[str, Any]]
) -> tuple[list[dict[str, Any]], list[Conflict]]:
    base_f, ours_f, theirs_f = flatten(base), flatten(ours), flatten(theirs)
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
                merged, bad = merge_fields({}, o, t)
                if bad or ours_f.parent[pid] != theirs_f.parent[pid]:
                    conflicts.append(
                        Conflict(
                            "page",
                            pid,
                            title_of(pid, ours_f, theirs_f),
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
            if changed(b, survivor) or flat.parent[pid] != base_f.parent[pid]:
                deleted_on = "main content" if t is None else "the change request"
                conflicts.append(
                    Conflict(
                        "page",
                        pid,
                        title_of(pid, base_f, theirs_f, ours_f),
                        f"deleted in {deleted_on} but edited on the other side",
                    )
                )
            continue
        merged, bad = merge_fields(b, o, t)
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
                    title_of(pid, base_f, theirs_f, ours_f),
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
                    title_of(par, base_f, ours_f, theirs_f),
                    f"deleted on one side while '{title_of(pid, base_f, theirs_f, ours_f)}' was added or moved into it",
                )
            )
    for pid in attrs:
        seen = {pid}
        par = parent[pid]
        while par is not None and par in attrs:
            if par in seen:
                conflicts.append(
                    Conflict(
                        "page",
                        pid,
                        title_of(pid, base_f, theirs_f, ours_f),
                        "moved into each other",
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
                    title_of(pid, base_f, theirs_f, ours_f),
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
    base_f: Flat,
    ours_f: Flat,
    theirs_f: Flat,
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
