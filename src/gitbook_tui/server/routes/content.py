"""Routes of space content: reads of a revision (main, change request or any revision of the
space), links and backlinks, search (space and organization) and content import.

Every read goes through ONE implementation parameterised by a :class:`Target` (which
revision of which space, seen through which change request), so the space and change
request variants of an operation cannot drift apart.
"""

from __future__ import annotations

import json
import weakref
from collections import OrderedDict
from collections.abc import Iterator
from typing import Annotated, Any, Literal
from urllib.parse import quote, unquote, urlparse

from fastapi import APIRouter, Query
from fastapi.responses import Response
from pydantic import Field, field_validator

from .. import gitsync, links
from ..content_store import (
    get_revision,
    page_index,
)
from ..content_views import (
    _TREE_CACHE_LIMIT,
    LinkStatus,
    ReadOptions,
    ReadOpts,
    Target,
    _file,
    _page,
    _require_edit,
    _splice,
    _target,
    file_json,
    json_response,
    page_detail,
    page_json,
    pages_raw,
    raw_response,
    revision_json,
)
from ..context import Ctx, CtxDep
from ..errors import bad_request, not_found
from ..pagination import Paging, PagingParams, paginate
from ..permissions import space_role
from ..resources import load_org, load_space
from ..schemas import Body
from ..search_index import MAX_QUERY, PageHit, index_space, is_indexed, search
from ..storage import Tx

router = APIRouter(tags=["content"])

# -- the read operations, once ---------------------------------------------------------------------


def read_content(ctx: Ctx, opts: ReadOptions, **where: str | None) -> Response:
    with ctx.read() as tx:
        target = _target(tx, ctx, **where)  # type: ignore[arg-type]
        return raw_response(revision_json(tx, ctx, target, opts))


def read_pages(ctx: Ctx, opts: ReadOptions, **where: str | None) -> Response:
    with ctx.read() as tx:
        target = _target(tx, ctx, **where)  # type: ignore[arg-type]
        return raw_response(_splice({}, "pages", pages_raw(tx, ctx, target, opts)))


def read_files(ctx: Ctx, opts: ReadOptions, paging: Paging, **where: str | None) -> dict[str, Any]:
    with ctx.read() as tx:
        target = _target(tx, ctx, **where)  # type: ignore[arg-type]
        files = list(target.revision.get("files", []))
        return paginate(files, paging, lambda f: file_json(ctx, f, opts))


def read_file(ctx: Ctx, opts: ReadOptions, file_id: str, **where: str | None) -> dict[str, Any]:
    with ctx.read() as tx:
        target = _target(tx, ctx, **where)  # type: ignore[arg-type]
        return file_json(ctx, _file(tx, target, file_id), opts)


def read_backlinks(ctx: Ctx, paging: Paging, file_id: str, **where: str | None) -> dict[str, Any]:
    with ctx.read() as tx:
        target = _target(tx, ctx, **where)  # type: ignore[arg-type]
        _file(tx, target, file_id)
        items = [
            {**location, "file": file_id}
            for item in _all_link_items(tx, target)
            if item["targetReference"]["kind"] == "file"
            and item["targetReference"].get("file") == file_id
            for location in item["locationReferences"]
        ]
        return paginate(items, paging)


def read_page(ctx: Ctx, opts: ReadOptions, page_id: str, **where: str | None) -> Response:
    with ctx.read() as tx:
        target = _target(tx, ctx, **where)  # type: ignore[arg-type]
        node, path = _page(tx, target, page_id)
        return page_detail(tx, ctx, target, node, path, opts)


def read_page_by_path(ctx: Ctx, opts: ReadOptions, page_path: str, **where: str | None) -> Response:
    with ctx.read() as tx:
        target = _target(tx, ctx, **where)  # type: ignore[arg-type]
        wanted = unquote(page_path).strip("/")
        index = target.index(tx)
        # an empty path is the space root: its first page
        node = index.by_path.get(wanted) if wanted else next(iter(index.by_path.values()), None)
        if node is None:
            raise not_found("Page", wanted)
        return page_detail(tx, ctx, target, node, index.by_id[node["id"]][1], opts)


_LINKS_CACHE: weakref.WeakKeyDictionary[Any, OrderedDict[tuple[str, str], list[Any]]] = (
    weakref.WeakKeyDictionary()
)


def _all_link_items(tx: Tx, target: Target) -> list[dict[str, Any]]:
    """Link items of every page of the target's revision (cached: revisions are immutable).
    Do not mutate the result."""
    key = (target.revision["id"], target.change_request["id"] if target.change_request else "")
    cache = _LINKS_CACHE.get(tx.storage)
    if cache is None:
        cache = _LINKS_CACHE[tx.storage] = OrderedDict()
    items = cache.get(key)
    if items is None:
        nodes = links.document_nodes(target.revision.get("pages", []))
        items = links.link_items(tx, target.index(tx), nodes, target.where())
        cache[key] = items
        if len(cache) > _TREE_CACHE_LIMIT:
            cache.popitem(last=False)
    else:
        cache.move_to_end(key)
    return items


def _broken_keys(tx: Tx, target: Target, page_id: str | None) -> set[str] | None:
    """Broken links of the main content (the baseline of ``broken.changeRequest``)."""
    if target.change_request is None:
        return None
    main = Target(target.space, target.role, get_revision(tx, target.space["revision"]))
    if page_id is None:
        items = _all_link_items(tx, main)
    else:
        entry = main.index(tx).by_id.get(page_id)
        nodes = [entry[0]] if entry else []
        items = links.link_items(tx, main.index(tx), nodes, main.where())
    return {links.broken_key(i) for i in items if i["status"] == "broken"}


def read_links(
    ctx: Ctx,
    paging: Paging,
    status: str | None,
    page_id: str | None,
    **where: str | None,
) -> dict[str, Any]:
    with ctx.read() as tx:
        target = _target(tx, ctx, **where)  # type: ignore[arg-type]
        if page_id is None:
            items = _all_link_items(tx, target)
        else:
            nodes = [_page(tx, target, page_id)[0]]
            items = links.link_items(tx, target.index(tx), nodes, target.where())
        stats = links.link_stats(items, _broken_keys(tx, target, page_id))
        if status is not None:
            items = [item for item in items if item["status"] == status]
        return paginate(items, paging, stats=stats)


# -- space routes ----------------------------------------------------------------------------------


@router.get("/spaces/{spaceId}/content")
def get_space_content(ctx: CtxDep, spaceId: str, opts: ReadOpts) -> Response:
    return read_content(ctx, opts, space_id=spaceId)


@router.get("/spaces/{spaceId}/content/pages")
def list_space_pages(ctx: CtxDep, spaceId: str, opts: ReadOpts) -> Response:
    return read_pages(ctx, opts, space_id=spaceId)


@router.get("/spaces/{spaceId}/content/files")
def list_space_files(
    ctx: CtxDep, spaceId: str, opts: ReadOpts, paging: PagingParams
) -> dict[str, Any]:
    return read_files(ctx, opts, paging, space_id=spaceId)


@router.get("/spaces/{spaceId}/content/files/{fileId}")
def get_space_file(ctx: CtxDep, spaceId: str, fileId: str, opts: ReadOpts) -> dict[str, Any]:
    return read_file(ctx, opts, fileId, space_id=spaceId)


@router.get("/spaces/{spaceId}/content/files/{fileId}/backlinks")
def list_space_file_backlinks(
    ctx: CtxDep, spaceId: str, fileId: str, paging: PagingParams
) -> dict[str, Any]:
    return read_backlinks(ctx, paging, fileId, space_id=spaceId)


@router.get("/spaces/{spaceId}/content/page/{pageId}")
def get_space_page(ctx: CtxDep, spaceId: str, pageId: str, opts: ReadOpts) -> Response:
    return read_page(ctx, opts, pageId, space_id=spaceId)


@router.get("/spaces/{spaceId}/content/page/{pageId}/links")
def list_space_page_links(
    ctx: CtxDep,
    spaceId: str,
    pageId: str,
    paging: PagingParams,
    status: LinkStatus | None = None,
) -> dict[str, Any]:
    return read_links(ctx, paging, status, pageId, space_id=spaceId)


@router.get("/spaces/{spaceId}/content/path/{pagePath:path}")
def get_space_page_by_path(ctx: CtxDep, spaceId: str, pagePath: str, opts: ReadOpts) -> Response:
    return read_page_by_path(ctx, opts, pagePath, space_id=spaceId)


@router.get("/spaces/{spaceId}/links")
def list_space_links(
    ctx: CtxDep, spaceId: str, paging: PagingParams, status: LinkStatus | None = None
) -> dict[str, Any]:
    return read_links(ctx, paging, status, None, space_id=spaceId)


@router.get("/spaces/{spaceId}/revisions/{revisionId}/pages")
def list_revision_pages(ctx: CtxDep, spaceId: str, revisionId: str, opts: ReadOpts) -> Response:
    return read_pages(ctx, opts, space_id=spaceId, revision_id=revisionId)


@router.get("/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}")
def get_revision_page(
    ctx: CtxDep, spaceId: str, revisionId: str, pageId: str, opts: ReadOpts
) -> Response:
    return read_page(ctx, opts, pageId, space_id=spaceId, revision_id=revisionId)


# -- change request routes -----------------------------------------------------------------------

CR = "/spaces/{spaceId}/change-requests/{changeRequestId}"


@router.get(CR + "/content")
def get_change_request_content(
    ctx: CtxDep, spaceId: str, changeRequestId: str, opts: ReadOpts
) -> Response:
    return read_content(ctx, opts, space_id=spaceId, change_request_id=changeRequestId)


@router.get(CR + "/content/pages")
def list_change_request_pages(
    ctx: CtxDep, spaceId: str, changeRequestId: str, opts: ReadOpts
) -> Response:
    return read_pages(ctx, opts, space_id=spaceId, change_request_id=changeRequestId)


@router.get(CR + "/content/files")
def list_change_request_files(
    ctx: CtxDep, spaceId: str, changeRequestId: str, opts: ReadOpts, paging: PagingParams
) -> dict[str, Any]:
    return read_files(ctx, opts, paging, space_id=spaceId, change_request_id=changeRequestId)


@router.get(CR + "/content/files/{fileId}")
def get_change_request_file(
    ctx: CtxDep, spaceId: str, changeRequestId: str, fileId: str, opts: ReadOpts
) -> dict[str, Any]:
    return read_file(ctx, opts, fileId, space_id=spaceId, change_request_id=changeRequestId)


@router.get(CR + "/content/files/{fileId}/backlinks")
def list_change_request_file_backlinks(
    ctx: CtxDep, spaceId: str, changeRequestId: str, fileId: str, paging: PagingParams
) -> dict[str, Any]:
    return read_backlinks(ctx, paging, fileId, space_id=spaceId, change_request_id=changeRequestId)


@router.get(CR + "/content/page/{pageId}")
def get_change_request_page(
    ctx: CtxDep, spaceId: str, changeRequestId: str, pageId: str, opts: ReadOpts
) -> Response:
    return read_page(ctx, opts, pageId, space_id=spaceId, change_request_id=changeRequestId)


@router.get(CR + "/content/page/{pageId}/links")
def list_change_request_page_links(
    ctx: CtxDep,
    spaceId: str,
    changeRequestId: str,
    pageId: str,
    paging: PagingParams,
    status: LinkStatus | None = None,
) -> dict[str, Any]:
    return read_links(
        ctx, paging, status, pageId, space_id=spaceId, change_request_id=changeRequestId
    )


@router.get(CR + "/content/path/{pagePath:path}")
def get_change_request_page_by_path(
    ctx: CtxDep, spaceId: str, changeRequestId: str, pagePath: str, opts: ReadOpts
) -> Response:
    return read_page_by_path(
        ctx, opts, pagePath, space_id=spaceId, change_request_id=changeRequestId
    )


# -- import ---------------------------------------------------------------------------------------

# `website`/`file` take a page or a Git Sync folder (detected); `markdown`/`html` force the
# page format; the git sources need a Git Sync folder (file:// or a loopback http URL).
ImportSource = Literal[
    "website", "file", "markdown", "html", "github", "gitlab", "git-sync", "gitbook"
]
FOLDER_SOURCES = ("github", "gitlab", "git-sync", "gitbook")


class ImportBody(Body):
    url: str = Field(max_length=2048)
    source: ImportSource

    @field_validator("url")
    @classmethod
    def _check_url(cls, value: str) -> str:
        parsed = urlparse(value.strip())
        if parsed.scheme in ("http", "https") and parsed.netloc:
            return value.strip()
        if parsed.scheme == "file" and parsed.path:
            return value.strip()
        raise ValueError("must be an http(s) or file:// URL")


def _fetch_import(ctx: Ctx, body: ImportBody) -> gitsync.Tree | gitsync.WebPage:
    """Network/disk work of an import, done outside any transaction."""
    timeout, max_bytes = ctx.state.fetch_timeout, ctx.state.fetch_max_bytes
    if body.source in ("website", "file", *FOLDER_SOURCES):
        tree = gitsync.fetch_git_sync(
            body.url, timeout=timeout, max_bytes=max_bytes, new_id=ctx.new_id, now=ctx.now()
        )
        if tree is not None:
            return tree
        if body.source in FOLDER_SOURCES:
            raise gitsync.ContentImportError(
                f"{body.url}: not a Git Sync folder (a file:// folder or a loopback http URL "
                "serving .gitbook.yaml or SUMMARY.md)"
            )
    return gitsync.fetch_web_page(
        body.url, timeout=timeout, max_bytes=max_bytes, source=body.source
    )


def run_import(ctx: Ctx, body: ImportBody, **where: str | None) -> Response:
    with ctx.read() as tx:
        _require_edit(_target(tx, ctx, **where))  # type: ignore[arg-type]
    try:
        plan = _fetch_import(ctx, body)
    except gitsync.ContentImportError as exc:
        raise bad_request(exc.message) from exc
    with ctx.write() as tx:
        target = _target(tx, ctx, **where)  # type: ignore[arg-type]
        _require_edit(target)
        if isinstance(plan, gitsync.Tree):
            result = gitsync.apply_tree(
                tx, ctx, target.space, plan, change_request=target.change_request
            )
        else:
            result = gitsync.apply_web_page(
                tx, ctx, target.space, plan, change_request=target.change_request
            )
    return json_response(result, status_code=201)


@router.post("/spaces/{spaceId}/content/import", status_code=201)
def import_space_content(ctx: CtxDep, spaceId: str, body: ImportBody) -> Response:
    return run_import(ctx, body, space_id=spaceId)


@router.post(CR + "/content/import", status_code=201)
def import_change_request_content(
    ctx: CtxDep, spaceId: str, changeRequestId: str, body: ImportBody
) -> Response:
    return run_import(ctx, body, space_id=spaceId, change_request_id=changeRequestId)


# -- search ------------------------------------------------------------------------------------------

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


__all__ = ["page_json", "revision_json", "router"]
