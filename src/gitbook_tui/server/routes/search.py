"""Routes searching content: one space, or every space of an organization the caller can read."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Query

from ..content.search_index import MAX_QUERY, PageHit, index_space, is_indexed, search
from ..content.store import get_revision, page_index
from ..core.context import Ctx, CtxDep
from ..core.pagination import PagingParams, paginate
from ..core.permissions import space_role
from ..core.resources import load_org, load_space
from ..core.storage import Tx

router = APIRouter(tags=["content"])

QueryParam = Annotated[str, Query(max_length=MAX_QUERY, description="Text to search for")]


def _ensure_indexed(ctx: Ctx, spaces: list[dict[str, Any]]) -> None:
    """Index spaces whose main revision is not indexed yet (e.g. written by a seeder)."""
    with ctx.read() as tx:
        stale = [s for s in spaces if not is_indexed(tx, s["id"], s["revision"])]
    if stale:
        with ctx.write() as tx:
            for space in stale:
                current = tx.get("space", space["id"])
                if current is not None:
                    index_space(tx, current["id"], current["revision"])


def _hit_json(
    tx: Tx, ctx: Ctx, space: dict[str, Any], hit: PageHit, rank: int
) -> dict[str, Any] | None:
    revision = get_revision(tx, space["revision"])
    index = page_index(tx, revision)
    entry = index.by_id.get(hit.page_id)
    if entry is None:
        return None
    node, path, _ = entry
    page_url = f"{ctx.app}/s/{space['id']}/{quote(path)}"
    sections = []
    for section in hit.sections:
        anchor = f"#{section.section_id}" if section.section_id else ""
        sections.append(
            {
                "id": f"{hit.page_id}{anchor}",
                "title": section.title,
                "path": f"{path}{anchor}",
                "body": section.snippet,
                "score": round(section.score, 4),
                "resultType": "section" if section.section_id else "page",
                "urls": {"app": f"{page_url}{anchor}"},
            }
        )
    return {
        "id": hit.page_id,
        "title": node.get("title") or "Untitled",
        "description": node.get("description") or "",
        "path": path,
        "score": round(hit.score, 4),
        "rank": rank,
        "resultType": "section" if any(s["resultType"] == "section" for s in sections) else "page",
        "ancestors": [{"title": a.get("title") or ""} for a in index.ancestors(hit.page_id)],
        "sections": sections,
        "urls": {"app": page_url},
    }


def _page_hits(
    tx: Tx, ctx: Ctx, spaces: dict[str, dict[str, Any]], hits: list[PageHit]
) -> Iterator[tuple[PageHit, dict[str, Any]]]:
    rank = 0
    for hit in hits:
        space = spaces.get(hit.space_id)
        if space is None:
            continue
        rank += 1
        item = _hit_json(tx, ctx, space, hit, rank)
        if item is not None:
            yield hit, item


@router.get("/spaces/{spaceId}/search")
def search_space_content(
    ctx: CtxDep, spaceId: str, query: QueryParam, paging: PagingParams
) -> dict[str, Any]:
    with ctx.read() as tx:
        space, _ = load_space(tx, ctx, spaceId)
    _ensure_indexed(ctx, [space])
    with ctx.read() as tx:
        space, _ = load_space(tx, ctx, spaceId)
        hits = search(tx, [spaceId], query)
        items = [item for _, item in _page_hits(tx, ctx, {spaceId: space}, hits)]
        return paginate(items, paging)


def _readable_spaces(tx: Tx, ctx: Ctx, org_id: str) -> list[dict[str, Any]]:
    rows = tx.conn.execute(
        "SELECT data FROM docs WHERE kind='space' AND json_extract(data, '$.organization')=? "
        "ORDER BY pos, seq",
        (org_id,),
    ).fetchall()
    spaces = [json.loads(row[0]) for row in rows]
    return [
        s for s in spaces if not s.get("deletedAt") and space_role(tx, s, ctx.user_id) is not None
    ]


@router.get("/orgs/{organizationId}/search")
def search_organization_content(
    ctx: CtxDep, organizationId: str, query: QueryParam, paging: PagingParams
) -> dict[str, Any]:
    with ctx.read() as tx:
        load_org(tx, ctx, organizationId)
        spaces = _readable_spaces(tx, ctx, organizationId)
    _ensure_indexed(ctx, spaces)
    with ctx.read() as tx:
        current = {s["id"]: s for s in _readable_spaces(tx, ctx, organizationId)}
        hits = search(tx, list(current), query)
        grouped: dict[str, dict[str, Any]] = {}
        for hit, item in _page_hits(tx, ctx, current, hits):
            group = grouped.get(hit.space_id)
            if group is None:
                space = current[hit.space_id]
                group = grouped[hit.space_id] = {
                    "type": "space",
                    "id": space["id"],
                    "title": space.get("title") or "",
                    "score": item["score"],
                    "pages": [],
                }
            group["pages"].append(item)
        return paginate(list(grouped.values()), paging)
