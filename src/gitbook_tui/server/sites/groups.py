"""Rules of section groups: where a section or a group may go, moves among siblings, and
what deleting a group does.

- A section may sit at the root or in any group; a group at the root or in a root group
  (groups nest one level deep, as the official description says), never in itself.
- Moves (``.../move``) reorder an item among its siblings only: to change level, update the
  item's group first (``siteSectionGroupId`` of a section, ``parentSectionGroupId`` of a
  group), which puts it at the end of its new level (the official ``sortSiteStructure``
  description says the same).
- Deleting a group keeps what it holds: its sections and groups take its place in its
  parent, in order (the official description does not say; nothing is unpublished this way).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..core.context import Ctx
from ..core.errors import bad_request
from ..core.storage import Tx
from .structure import GROUP, SECTION, Node, Structure, place
from .structure_schemas import GroupPosition

__all__ = [
    "check_group_parent",
    "check_section_group",
    "dissolve_group",
    "group_anchors",
    "new_group",
    "sibling_anchors",
]


def check_section_group(st: Structure, group_id: str | None, field: str) -> str | None:
    """The group a section goes into (``None``: the root); 400 naming ``field`` if unknown."""
    if group_id is None:
        return None
    if st.group(group_id) is None:
        raise bad_request(f"{field}: no section group '{group_id}' in this site")
    return group_id


def check_group_parent(
    st: Structure, group: dict[str, Any] | None, parent_id: str | None, field: str
) -> str | None:
    """The parent a group (``None``: a new one) goes into; 400 naming ``field`` when it is
    unknown, the group itself, or would nest groups more than one level deep."""
    if parent_id is None:
        return None
    parent = st.group(parent_id)
    if parent is None:
        raise bad_request(f"{field}: no section group '{parent_id}' in this site")
    if group is not None and parent_id == group["id"]:
        raise bad_request(f"{field}: a section group cannot be its own parent")
    if st.parent_of(parent) is not None:
        raise bad_request(
            f"{field}: section group '{parent_id}' is itself in a group; section groups nest "
            "only one level deep"
        )
    if group is not None and any(kind == GROUP for kind, _ in st.children(group["id"])):
        raise bad_request(
            f"{field}: section group '{group['id']}' holds section groups; section groups "
            "nest only one level deep"
        )
    return parent_id


def new_group(
    tx: Tx,
    ctx: Ctx,
    st: Structure,
    *,
    title: str,
    icon: str | None,
    draft: bool,
    parent: str | None,
) -> dict[str, Any]:
    """A new group at the end of ``parent`` (``st`` is updated to hold it)."""
    now = ctx.now()
    group = {
        "id": ctx.new_id(),
        "site": st.site["id"],
        "title": title,
        "icon": icon,
        "draft": draft,
        "sectionGroup": parent,
        "createdAt": now,
        "updatedAt": now,
    }
    tx.put(GROUP, group["id"], group, scope=st.site["id"])
    st.groups.append(group)
    st.tree.setdefault(parent, []).append((GROUP, group))
    return group


def _moved(st: Structure, node: Node, parent: str | None) -> None:
    """Keep ``st``'s tree in step after ``node`` went to the end of ``parent``."""
    kind, doc = node
    for nodes in st.tree.values():
        nodes[:] = [n for n in nodes if n[1]["id"] != doc["id"]]
    st.tree.setdefault(parent, []).append((kind, doc))


def move_to_level(tx: Tx, st: Structure, node: Node, parent: str | None) -> None:
    """Put ``node`` at the end of ``parent`` (unless it is there already)."""
    if st.parent_of(node[1]) == parent and node in st.children(parent):
        return
    place(tx, st, node, parent)
    _moved(st, node, parent)


def sibling_anchors(
    st: Structure, node: Node, anchors: Iterator[tuple[str, str]], noun: str
) -> None:
    """400 unless every (field, id) anchor is a sibling of ``node`` (moves reorder only);
    a section moves relative to sections only, a group relative to sections and groups."""
    parent = st.parent_of(node[1])
    kinds = (SECTION,) if node[0] == SECTION else (SECTION, GROUP)
    siblings = {doc["id"] for kind, doc in st.children(parent) if kind in kinds}
    for field, anchor in anchors:
        if anchor in siblings:
            continue
        known = st.section(anchor) or (st.group(anchor) if GROUP in kinds else None)
        if known is None:
            raise bad_request(f"{field}: no {noun} '{anchor}' in this site")
        raise bad_request(
            f"{field}: '{anchor}' is at another level of the site; moves reorder siblings only "
            "(change the item's section group first)"
        )


def group_anchors(
    position: GroupPosition | None, group_id: str
) -> tuple[str | None, str | None, list[tuple[str, str]]]:
    """(before, after, [(field, id)]) of a group move; the group itself is refused (400)."""
    if position is None:
        return None, None, []
    found: list[tuple[str, str]] = []
    ids: dict[str, str | None] = {"before": None, "after": None}
    for name in ("before", "after"):
        pointer = getattr(position, name)
        if pointer is None:
            continue
        field = f"position.{name}"
        if pointer.id == group_id:
            raise bad_request(f"{field}: cannot place a section group relative to itself")
        ids[name] = pointer.id
        found.append((field, pointer.id))
    return ids["before"], ids["after"], found


def check_pointer_kinds(st: Structure, position: GroupPosition | None) -> None:
    """400 when a pointer's ``type`` does not match what its id names."""
    if position is None:
        return
    for name in ("before", "after"):
        pointer = getattr(position, name)
        if pointer is None:
            continue
        is_section = st.section(pointer.id) is not None
        is_group = st.group(pointer.id) is not None
        if (pointer.type == "site-section" and is_group) or (
            pointer.type == "site-section-group" and is_section
        ):
            raise bad_request(f"position.{name}: '{pointer.id}' is not a {pointer.type}")


def dissolve_group(tx: Tx, st: Structure, group: dict[str, Any]) -> None:
    """Delete ``group``: what it holds takes its place in its parent, in order."""
    parent = st.parent_of(group)
    siblings = st.children(parent)
    index = next(i for i, (_, doc) in enumerate(siblings) if doc["id"] == group["id"])
    held = st.children(group["id"])
    order = siblings[:index] + held + siblings[index + 1 :]
    for kind, doc in held:
        doc["sectionGroup"] = parent
        tx.put(kind, doc["id"], doc)
    tx.delete(GROUP, group["id"])
    for position, (kind, doc) in enumerate(order):
        tx.set_position(kind, doc["id"], pos=float(position + 1))


def section_node(section: dict[str, Any]) -> Node:
    return (SECTION, section)
