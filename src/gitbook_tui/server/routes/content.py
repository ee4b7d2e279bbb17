"""Routes of space content: reads of a revision (main, change request or any revision of the
space), links and backlinks (search: :mod:`.search`, import: :mod:`.content_import`).

Every read goes through ONE implementation parameterised by a :class:`Target` (which
revision of which space, seen through which change request), so the space and change
request variants of an operation cannot drift apart.
"""

from __future__ import annotations

import weakref
from collections import OrderedDict
from typing import Any
from urllib.parse import unquote

from fastapi import APIRouter
from fastapi.responses import Response

from ..change_requests.views import cr_json
from ..content import links
from ..content.documents import document_json
from ..content.store import get_revision
from ..content.views import (
    TREE_CACHE_LIMIT,
    LinkStatus,
    ReadOptions,
    ReadOpts,
    Target,
    file_json,
    load_target,
    page_detail,
    pages_raw,
    raw_response,
    revision_json,
    splice,
    target_file,
    target_page,
)
from ..core.context import Ctx, CtxDep, quick_read
from ..core.errors import not_found
from ..core.pagination import Paging, PagingParams, paginate
from ..core.storage import Tx

router = APIRouter(tags=["content"])

# -- the read operations, once ---------------------------------------------------------------------


def read_content(ctx: Ctx, opts: ReadOptions, **where: str | None) -> Response:
    with ctx.read() as tx:
        target = load_target(tx, ctx, **where)  # type: ignore[arg-type]
        space = target.space
        return raw_response(
            revision_json(tx, ctx, target, opts, lambda cr: cr_json(tx, ctx, space, cr))
        )


def read_pages(ctx: Ctx, opts: ReadOptions, **where: str | None) -> Response:
    with ctx.read() as tx:
        target = load_target(tx, ctx, **where)  # type: ignore[arg-type]
        return raw_response(splice({}, "pages", pages_raw(tx, ctx, target, opts)))


def read_files(ctx: Ctx, opts: ReadOptions, paging: Paging, **where: str | None) -> dict[str, Any]:
    with ctx.read() as tx:
        target = load_target(tx, ctx, **where)  # type: ignore[arg-type]
        files = list(target.revision.get("files", []))
        return paginate(files, paging, lambda f: file_json(ctx, f, opts))


def read_file(ctx: Ctx, opts: ReadOptions, file_id: str, **where: str | None) -> dict[str, Any]:
    with ctx.read() as tx:
        target = load_target(tx, ctx, **where)  # type: ignore[arg-type]
        return file_json(ctx, target_file(tx, target, file_id), opts)


def read_backlinks(ctx: Ctx, paging: Paging, file_id: str, **where: str | None) -> dict[str, Any]:
    with ctx.read() as tx:
        target = load_target(tx, ctx, **where)  # type: ignore[arg-type]
        target_file(tx, target, file_id)
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
        target = load_target(tx, ctx, **where)  # type: ignore[arg-type]
        node, path = target_page(tx, target, page_id)
        return page_detail(tx, ctx, target, node, path, opts)


def read_page_by_path(ctx: Ctx, opts: ReadOptions, page_path: str, **where: str | None) -> Response:
    with ctx.read() as tx:
        target = load_target(tx, ctx, **where)  # type: ignore[arg-type]
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
        if len(cache) > TREE_CACHE_LIMIT:
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
        target = load_target(tx, ctx, **where)  # type: ignore[arg-type]
        if page_id is None:
            items = _all_link_items(tx, target)
        else:
            nodes = [target_page(tx, target, page_id)[0]]
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
async def get_revision_page(
    ctx: CtxDep, spaceId: str, revisionId: str, pageId: str, opts: ReadOpts
) -> Response:
    return await quick_read(
        ctx, lambda: read_page(ctx, opts, pageId, space_id=spaceId, revision_id=revisionId)
    )


def _reusable_content(target: Any, reusable_id: str) -> dict[str, Any]:
    for item in target.revision.get("reusableContents") or []:
        if item.get("id") == reusable_id:
            return dict(item)
    raise not_found("Reusable content", reusable_id)


def _reusable_json(item: dict[str, Any], opts: Any) -> dict[str, Any]:
    body = {k: item[k] for k in ("id", "title", "document") if item.get(k) is not None}
    if getattr(opts, "metadata", True) and item.get("git"):
        body["git"] = item["git"]
    return body


@router.get("/spaces/{spaceId}/content/reusable-contents/{reusableContentId}")
def get_reusable_content(
    ctx: CtxDep, spaceId: str, reusableContentId: str, opts: ReadOpts
) -> dict[str, Any]:
    with ctx.read() as tx:
        target = load_target(tx, ctx, space_id=spaceId)
        return _reusable_json(_reusable_content(target, reusableContentId), opts)


@router.get(
    "/spaces/{spaceId}/revisions/{revisionId}/reusable-contents/{reusableContentId}/document"
)
def get_reusable_content_document(
    ctx: CtxDep, spaceId: str, revisionId: str, reusableContentId: str
) -> Response:
    """The reusable content's body as a JSON document (the real API has no markdown here)."""
    with ctx.read() as tx:
        target = load_target(tx, ctx, space_id=spaceId, revision_id=revisionId)
        item = _reusable_content(target, reusableContentId)
        digest = item.get("document")
        markdown = tx.get_text(digest) if digest else ""
    return raw_response(document_json(markdown, digest))


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
