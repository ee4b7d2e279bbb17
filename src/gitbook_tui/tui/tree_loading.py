"""Loading the workspace tree: API lists (every page followed) → :class:`NodeData` children."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..api import AsyncGitBook, AsyncPager, ReadMode, ResponseMeta, response_meta
from ..models import Collection, Organization, RevisionPage, Space
from .tree_model import (
    ROOT,
    NodeData,
    NodeKind,
    clean_title,
    collection_key,
    org_key,
    page_key,
    space_key,
)

__all__ = ["Loaded", "fetch_children"]


@dataclass
class Loaded:
    """Children read for one node (keyed by parent), with what the org load learnt of
    its collections, and the response metadata of every list read."""

    children: dict[str, list[NodeData]] = field(default_factory=dict)
    subcollections: dict[str, list[NodeData]] | None = None
    collection_parents: dict[str, str | None] | None = None
    metas: list[ResponseMeta | None] = field(default_factory=list)


async def _collect(pager: AsyncPager[Any]) -> tuple[list[Any], list[ResponseMeta | None]]:
    items: list[Any] = []
    metas: list[ResponseMeta | None] = []
    async for page in pager.pages():
        items.extend(page.items)
        metas.append(response_meta(page))
    return items, metas


def _org_node(org: Organization) -> NodeData:
    return NodeData(org_key(org.id), "org", id=org.id, title=clean_title(org.title), org_id=org.id)


def _collection_node(coll: Collection, org_id: str) -> NodeData:
    return NodeData(
        collection_key(coll.id),
        "collection",
        id=coll.id,
        title=clean_title(coll.title),
        org_id=coll.organization or org_id,
        description=clean_title(coll.description),
    )


def _space_node(space: Space, org_id: str) -> NodeData:
    return NodeData(
        space_key(space.id),
        "space",
        id=space.id,
        title=clean_title(space.title),
        emoji=clean_title(space.emoji),
        org_id=space.organization or org_id,
        space_id=space.id,
        url=(space.urls.app or "") if space.urls else "",
        updated=space.updatedAt,
    )


def _page_nodes(
    pages: list[RevisionPage],
    space_id: str,
    org_id: str,
    out: dict[str, list[NodeData]],
) -> list[NodeData]:
    nodes: list[NodeData] = []
    for page in pages:
        raw_type = str(page.type or "document")
        kind: NodeKind = (
            "group" if raw_type == "group" else "link" if raw_type == "link" else "page"
        )
        url = ""
        if kind == "link":
            url = page.href or (page.target.url if page.target and page.target.url else "")
        elif page.urls is not None:
            url = page.urls.app or ""
        node = NodeData(
            page_key(space_id, page.id),
            kind,
            id=page.id,
            title=clean_title(page.title or page.linkTitle or url),
            emoji=clean_title(page.emoji),
            org_id=org_id,
            space_id=space_id,
            path=(page.path or "").strip("/"),
            git_path=(page.git.path or "") if page.git is not None else "",
            url=url,
            hidden=bool(page.hidden),
            description=clean_title(page.description),
            updated=page.updatedAt,
        )
        if page.pages:
            out[node.key] = _page_nodes(page.pages, space_id, org_id, out)
        nodes.append(node)
    return nodes


# Trees are read whole: the largest page the API allows means the fewest round trips
# (an organization of 10,000 spaces in 10 requests instead of 100).
PAGE_SIZE = 1000


async def fetch_children(
    client: AsyncGitBook,
    data: NodeData,
    read: ReadMode,
    *,
    org_id: str | None,
    subcollections: dict[str, list[NodeData]],
) -> Loaded:
    """Load the children of ``data`` (raises GitBookError / CacheMissError). Only the
    organization ``org_id`` is kept when it is given; a collection's known
    ``subcollections`` come before its spaces."""
    loaded = Loaded()
    if data.kind == "root":
        orgs, loaded.metas = await _collect(client.orgs.list(read=read))
        if org_id is not None:
            orgs = [o for o in orgs if o.id == org_id]
        loaded.children[ROOT] = [_org_node(o) for o in orgs]
    elif data.kind == "org":
        colls, metas = await _collect(
            client.collections.list(data.id, nested=True, limit=PAGE_SIZE, read=read)
        )
        spaces, more = await _collect(
            client.spaces.list_in_org(data.id, limit=PAGE_SIZE, read=read)
        )
        loaded.metas = metas + more
        known = {c.id for c in colls}
        subs: dict[str, list[NodeData]] = {}
        roots: list[NodeData] = []
        parents: dict[str, str | None] = {}
        for coll in colls:
            node = _collection_node(coll, data.id)
            parent = coll.parent if coll.parent in known else None
            parents[coll.id] = parent
            if parent is None:
                roots.append(node)
            else:
                subs.setdefault(collection_key(parent), []).append(node)
        loaded.subcollections = {
            collection_key(c.id): subs.get(collection_key(c.id), []) for c in colls
        }
        loaded.collection_parents = parents
        loaded.children[data.key] = roots + [
            _space_node(s, data.id) for s in spaces if not s.is_deleted
        ]
    elif data.kind == "collection":
        spaces, loaded.metas = await _collect(
            client.collections.spaces(data.id, limit=PAGE_SIZE, read=read)
        )
        loaded.children[data.key] = subcollections.get(data.key, []) + [
            _space_node(s, data.org_id) for s in spaces if not s.is_deleted
        ]
    elif data.kind == "space":
        result = await client.content.pages(data.id, read=read)
        loaded.metas = [response_meta(result)]
        loaded.children[data.key] = _page_nodes(result.pages, data.id, data.org_id, loaded.children)
    return loaded
