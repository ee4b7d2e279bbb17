"""Loading the workspace tree: API lists (every page followed) → :class:`NodeData` children.

A long list can be read in part: ``first_page_only`` stops after its first page (what a
warm start draws before the first frame), and ``progress`` is told of the children read
so far after every page that has another after it (so a long list is drawn as it comes).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from contextlib import aclosing
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ....api import AsyncGitBook, AsyncPager, ReadMode, ResponseMeta, response_meta
from ....models import Collection, Organization, RevisionPage, Space
from .model import (
    ROOT,
    NodeData,
    NodeKind,
    clean_title,
    collection_key,
    org_key,
    page_key,
    space_key,
)

__all__ = ["PAGE_SIZE", "Loaded", "Progress", "fetch_children"]

T = TypeVar("T")


@dataclass
class Loaded:
    """Children read for one node (keyed by parent), with what the org load learnt of
    its collections, and the response metadata of every list read. ``complete`` is False
    when only the first pages of a list were read."""

    children: dict[str, list[NodeData]] = field(default_factory=dict)
    subcollections: dict[str, list[NodeData]] | None = None
    collection_parents: dict[str, str | None] | None = None
    metas: list[ResponseMeta | None] = field(default_factory=list)
    complete: bool = True


Progress = Callable[[Loaded], None]


@dataclass
class _Listing:
    """The items of a list read so far (converted page by page)."""

    items: list[Any] = field(default_factory=list)
    metas: list[ResponseMeta | None] = field(default_factory=list)
    complete: bool = True


async def _collect(
    pager: AsyncPager[Any],
    convert: Callable[[list[Any]], list[T]] = list,
    *,
    first_page_only: bool = False,
    more: Callable[[list[T]], None] | None = None,
) -> _Listing:
    """Every page of ``pager`` (only the first with ``first_page_only``); ``more`` is
    called with the items so far after each page another follows."""
    listing = _Listing()
    async with aclosing(pager.pages()) as pages:
        async for page in pages:
            listing.items.extend(convert(page.items))
            listing.metas.append(response_meta(page))
            if page.next_page:
                if first_page_only:
                    listing.complete = False
                    break
                if more is not None:
                    more(listing.items)
                await asyncio.sleep(0)  # a long list from the cache: let a frame be drawn
    return listing


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
        comments=space.comments,
        space=space,
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


def _space_nodes(org_id: str) -> Callable[[list[Space]], list[NodeData]]:
    def convert(spaces: list[Space]) -> list[NodeData]:
        return [_space_node(s, org_id) for s in spaces if not s.is_deleted]

    return convert


def _collection_tree(colls: list[Collection], org_id: str) -> Loaded:
    """The top collections of an org (as its children), with every collection's
    sub-collections and parent."""
    known = {c.id for c in colls}
    subs: dict[str, list[NodeData]] = {}
    roots: list[NodeData] = []
    parents: dict[str, str | None] = {}
    for coll in colls:
        node = _collection_node(coll, org_id)
        parent = coll.parent if coll.parent in known else None
        parents[coll.id] = parent
        if parent is None:
            roots.append(node)
        else:
            subs.setdefault(collection_key(parent), []).append(node)
    return Loaded(
        children={org_key(org_id): roots},
        subcollections={collection_key(c.id): subs.get(collection_key(c.id), []) for c in colls},
        collection_parents=parents,
    )


async def fetch_children(
    client: AsyncGitBook,
    data: NodeData,
    read: ReadMode,
    *,
    org_id: str | None,
    subcollections: dict[str, list[NodeData]],
    first_page_only: bool = False,
    progress: Progress | None = None,
) -> Loaded:
    """Load the children of ``data`` (raises GitBookError / CacheMissError). Only the
    organization ``org_id`` is kept when it is given; a collection's known
    ``subcollections`` come before its spaces. With ``first_page_only`` only the first
    page of each list is read (``complete`` tells whether that was all); ``progress``
    gets the children read so far while a long list is followed."""
    loaded = Loaded()
    key = data.key
    if data.kind == "root":
        orgs = await _collect(client.orgs.list(read=read), first_page_only=first_page_only)
        kept = [o for o in orgs.items if org_id is None or o.id == org_id]
        loaded.children[ROOT] = [_org_node(o) for o in kept]
        loaded.metas, loaded.complete = orgs.metas, orgs.complete
    elif data.kind == "org":
        colls = await _collect(
            client.collections.list(data.id, nested=True, limit=PAGE_SIZE, read=read),
            first_page_only=first_page_only,
        )
        loaded = _collection_tree(colls.items, data.id)
        roots = loaded.children[key]

        def more(spaces: list[NodeData]) -> None:
            if progress is not None:
                partial = Loaded(
                    children={key: roots + spaces},
                    subcollections=loaded.subcollections,
                    collection_parents=loaded.collection_parents,
                    complete=False,
                )
                progress(partial)

        spaces = await _collect(
            client.spaces.list_in_org(data.id, limit=PAGE_SIZE, read=read),
            _space_nodes(data.id),
            first_page_only=first_page_only,
            more=more,
        )
        loaded.children[key] = roots + spaces.items
        loaded.metas = colls.metas + spaces.metas
        loaded.complete = colls.complete and spaces.complete
    elif data.kind == "collection":
        subs = subcollections.get(key, [])

        def more_in_collection(spaces: list[NodeData]) -> None:
            if progress is not None:
                progress(Loaded(children={key: subs + spaces}, complete=False))

        spaces = await _collect(
            client.collections.spaces(data.id, limit=PAGE_SIZE, read=read),
            _space_nodes(data.org_id),
            first_page_only=first_page_only,
            more=more_in_collection,
        )
        loaded.children[key] = subs + spaces.items
        loaded.metas, loaded.complete = spaces.metas, spaces.complete
    elif data.kind == "space":
        result = await client.content.pages(data.id, read=read)
        loaded.metas = [response_meta(result)]
        loaded.children[key] = _page_nodes(result.pages, data.id, data.org_id, loaded.children)
    return loaded
