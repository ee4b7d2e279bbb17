"""Content read helpers: query options, the revision a read targets, and JSON renderers."""

from __future__ import annotations

import json
import weakref
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal
from urllib.parse import quote

from fastapi import Depends, Query
from fastapi.responses import Response
from pydantic_core import to_json

from ..core.context import Ctx
from ..core.errors import conflict, forbidden, not_found
from ..core.file_links import download_url
from ..core.permissions import at_least
from ..core.resources import load_change_request, load_space
from ..core.shapes import omit_none
from ..core.storage import Tx
from . import links
from .documents import document_json
from .store import (
    PageIndex,
    get_revision,
    page_index,
    page_markdown,
)

REVISION_TYPES = ("edits", "merge", "rollback", "update", "computed")
# A page's layout when it sets none: GitBook's "docs" preset (default width, hero cover,
# everything shown).
DEFAULT_LAYOUT = {
    "width": "default",
    "cover": False,
    "coverSize": "hero",
    "coverMask": "none",
    "title": True,
    "description": True,
    "tableOfContents": True,
    "outline": True,
    "pagination": True,
    "metadata": True,
    "tags": True,
    "actions": True,
    "anchors": True,
}
LinkStatus = Literal["ok", "broken", "in-app"]


# -- shared query parameters ---------------------------------------------------------------------


@dataclass(frozen=True)
class ReadOptions:
    metadata: bool
    computed: bool
    evaluated: str
    format: str | None


# async: it only reads the query, and a plain ``def`` dependency costs a worker-thread hop
# on every read
async def _read_options(
    metadata: Annotated[bool, Query(description="false omits mutable `git` metadata")] = True,
    computed: Annotated[bool, Query(description="false skips computed content")] = True,
    evaluated: Annotated[
        Literal["true", "false", "deterministic-only"], Query(description="evaluate the document")
    ] = "false",
    format: Annotated[
        Literal["document", "markdown"] | None, Query(description="page output format")
    ] = None,
) -> ReadOptions:
    return ReadOptions(metadata=metadata, computed=computed, evaluated=evaluated, format=format)


ReadOpts = Annotated[ReadOptions, Depends(_read_options)]

_PLAIN_READ_OPTIONS: dict[str, dict[str, bool | str]] = {
    "metadata": {"true": True, "false": False},
    "computed": {"true": True, "false": False},
    "evaluated": {v: v for v in ("true", "false", "deterministic-only")},
    "format": {v: v for v in ("document", "markdown")},
}


async def plain_read_options(query: list[tuple[str, str]]) -> dict[str, Any] | None:
    """``{"opts": …}`` of a read whose options are in their plain form (each at most once,
    ``true``/``false`` or a listed value: what the client sends), else None (FastAPI's
    validation reads the other forms it accepts, or refuses them). Other parameters are
    ignored, as FastAPI ignores them (:class:`~..core.direct_reads.DirectReads`)."""
    given: dict[str, Any] = {}
    for name, value in query:
        values = _PLAIN_READ_OPTIONS.get(name)
        if values is None:
            continue
        if name in given or value not in values:
            return None
        given[name] = values[value]
    return {"opts": await _read_options(**given)}


# -- which revision is read ----------------------------------------------------------------------


@dataclass
class Target:
    """The revision an operation reads or writes, and through what it is reached."""

    space: dict[str, Any]
    role: str
    revision: dict[str, Any]
    change_request: dict[str, Any] | None = None
    at_revision: bool = False

    def app_base(self, ctx: Ctx) -> str:
        base = f"{ctx.app}/s/{self.space['id']}"
        if self.change_request is not None:
            return f"{base}/~/changes/{self.change_request.get('number')}"
        if self.at_revision:
            return f"{base}/~/revisions/{self.revision['id']}"
        return base

    def where(self) -> links.LinkContext:
        return links.LinkContext(
            organization=self.space["organization"],
            space=self.space["id"],
            revision=self.revision["id"],
            change_request=self.change_request["id"] if self.change_request else None,
        )

    def index(self, tx: Tx) -> PageIndex:
        return page_index(tx, self.revision)


def load_target(
    tx: Tx,
    ctx: Ctx,
    space_id: str,
    change_request_id: str | None = None,
    revision_id: str | None = None,
) -> Target:
    """Load the space (needs at least `read`) and the revision to work on."""
    space, role = load_space(tx, ctx, space_id)
    if change_request_id is not None:
        cr = load_change_request(tx, ctx, space, change_request_id)
        return Target(space, role, get_revision(tx, cr["revision"]), change_request=cr)
    if revision_id is not None:
        revision = get_revision(tx, revision_id)  # cached; 404 when unknown
        if revision.get("space") != space["id"]:
            raise not_found("Revision", revision_id)
        return Target(space, role, revision, at_revision=True)
    return Target(space, role, get_revision(tx, space["revision"]))


def require_edit(target: Target) -> None:
    if not at_least(target.role, "edit"):
        raise forbidden(
            f"Your role on this space ({target.role}) does not allow importing content; "
            "it needs 'edit'."
        )
    if target.space.get("editMode") == "locked":
        raise forbidden("This space is locked: its content cannot be edited.")
    cr = target.change_request
    if cr is not None and cr.get("status") in ("merged", "archived"):
        raise conflict(f"Change request #{cr.get('number')} is {cr['status']}; it cannot change.")


# -- renderers -------------------------------------------------------------------------------------


def json_response(body: Any, status_code: int = 200) -> Response:
    """Serialise directly (large page trees and documents skip FastAPI's encoder), with
    pydantic's encoder: a page's markdown (50 KB) costs the standard library's ~0.35 ms,
    this ~0.08 ms (a blame reads it at every revision that changed the page)."""
    return Response(to_json(body), status_code=status_code, media_type="application/json")


def _child_path(node: dict[str, Any], parent_path: str) -> str:
    if node.get("type") == "group":
        return parent_path
    slug = node.get("slug") or node["id"]
    return f"{parent_path}/{slug}" if parent_path else slug


def page_json(node: dict[str, Any], path: str, base: str, opts: ReadOptions) -> dict[str, Any]:
    """A RevisionPage with its children nested (no content: see :func:`page_detail`)."""
    kind = node.get("type") or "document"
    body: dict[str, Any] = {
        "id": node["id"],
        "title": node.get("title") or "Untitled",
        "type": kind,
        "kind": "sheet" if kind == "document" else kind,
        "hidden": bool(node.get("hidden", False)),
    }
    body.update(
        omit_none(
            {
                "emoji": node.get("emoji") or None,
                "icon": node.get("icon") or None,
                "createdAt": node.get("createdAt"),
                "updatedAt": node.get("updatedAt"),
            }
        )
    )
    if kind == "link":
        href = node.get("href") or ""
        body["href"] = href
        body["target"] = node.get("target") or {"kind": "url", "url": href}
        return body
    body["slug"] = node.get("slug") or node["id"]
    body["path"] = body["slug"] if kind == "group" else path
    if kind == "computed":
        body["computed"] = node.get("computed") or {}
        body["computedSeed"] = node.get("computedSeed") or node["id"]
    body["noIndex"] = bool(node.get("noIndex", False))
    body["noRobotsIndex"] = bool(node.get("noRobotsIndex", False))
    if kind == "document":
        body["description"] = node.get("description") or ""
        body["urls"] = {"app": f"{base}/{quote(path)}"}
        body["layout"] = {**DEFAULT_LAYOUT, **(node.get("layout") or {})}
        body["tags"] = []
        if node.get("document"):
            body["documentId"] = node["document"]
        if opts.metadata and node.get("git"):
            body["git"] = node["git"]
    body["pages"] = [
        page_json(child, _child_path(child, path), base, opts) for child in node.get("pages", [])
    ]
    return body


def pages_json(
    nodes: list[dict[str, Any]], base: str, opts: ReadOptions, parent_path: str = ""
) -> list[dict[str, Any]]:
    return [page_json(node, _child_path(node, parent_path), base, opts) for node in nodes]


def file_json(ctx: Ctx, file: dict[str, Any], opts: ReadOptions) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": file["id"],
        "name": file.get("name") or file["id"],
        "contentType": file.get("contentType") or "application/octet-stream",
        "downloadURL": download_url(ctx, str(file.get("blob")), file.get("name") or "file"),
        "size": file.get("size", 0),
    }
    if file.get("dimensions"):
        body["dimensions"] = file["dimensions"]
    if opts.metadata and file.get("git"):
        body["git"] = file["git"]
    return body


_TREE_CACHE: weakref.WeakKeyDictionary[Any, OrderedDict[tuple[str, str, bool], str]] = (
    weakref.WeakKeyDictionary()
)
TREE_CACHE_LIMIT = 8


def pages_raw(tx: Tx, ctx: Ctx, target: Target, opts: ReadOptions) -> str:
    """The JSON array of a revision's page tree; revisions are immutable so the encoded
    tree is cached per (revision, URL base, metadata)."""
    base = target.app_base(ctx)
    key = (target.revision["id"], base, opts.metadata)
    cache = _TREE_CACHE.get(tx.storage)
    if cache is None:
        cache = _TREE_CACHE[tx.storage] = OrderedDict()
    raw = cache.get(key)
    if raw is not None:
        cache.move_to_end(key)
        return raw
    raw = _dumps(pages_json(target.revision.get("pages", []), base, opts))
    cache[key] = raw
    if len(cache) > TREE_CACHE_LIMIT:
        cache.popitem(last=False)
    return raw


def _dumps(body: Any) -> str:
    return json.dumps(body, ensure_ascii=False, separators=(",", ":"))


def splice(body: dict[str, Any], key: str, raw: str) -> str:
    """``body`` encoded with one more member whose value is already-encoded JSON."""
    head = _dumps(body)
    return (
        f"{head[:-1]},{json.dumps(key)}:{raw}}}"
        if len(head) > 2
        else f"{{{json.dumps(key)}:{raw}}}"
    )


def raw_response(raw: str, status_code: int = 200) -> Response:
    return Response(raw.encode("utf-8"), status_code=status_code, media_type="application/json")


def revision_json(
    tx: Tx,
    ctx: Ctx,
    target: Target,
    opts: ReadOptions,
    merged_from: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
) -> str:
    """The Revision, encoded (its page tree comes from :func:`pages_raw`). A merge revision
    names the change request it merged (``mergedFrom``, rendered by ``merged_from``)."""
    revision, space = target.revision, target.space
    kind = revision.get("type")
    urls: dict[str, str] = {"app": target.app_base(ctx)}
    if space.get("visibility") in ("public", "unlisted", "share-link", "visitor-auth"):
        org = tx.get("org", space["organization"]) or {}
        urls["published"] = f"https://{org.get('hostname') or 'docs'}.gitbook.io/{space['id']}/"
    if space.get("visibility") == "public":
        urls["public"] = f"{ctx.origin}/public/s/{space['id']}"
    body: dict[str, Any] = {
        "object": "revision",
        "id": revision["id"],
        "type": kind if kind in REVISION_TYPES else "edits",
        "parents": list(revision.get("parents", [])),
        "files": [file_json(ctx, f, opts) for f in revision.get("files", [])],
        "reusableContents": [
            {k: item[k] for k in ("id", "title", "document", "git") if item.get(k) is not None}
            for item in revision.get("reusableContents") or []
        ],
        "tags": [],
        "variables": dict(revision.get("variables") or {}),
        "createdAt": revision.get("createdAt"),
        "urls": urls,
    }
    if opts.metadata and revision.get("git"):
        body["git"] = revision["git"]
    if body["type"] == "merge":
        cr = tx.get("change-request", revision.get("changeRequest") or "")
        if cr is not None and merged_from is not None:
            body["mergedFrom"] = merged_from(cr)
    return splice(body, "pages", pages_raw(tx, ctx, target, opts))


def page_detail(
    tx: Tx, ctx: Ctx, target: Target, node: dict[str, Any], path: str, opts: ReadOptions
) -> Response:
    """A RevisionPage with its content: ``markdown`` (format=markdown) or ``document``."""
    body = page_json(node, path, target.app_base(ctx), opts)
    if (node.get("type") or "document") != "document":
        return json_response(body)
    markdown = page_markdown(tx, node)
    if opts.format == "markdown":
        body["markdown"] = markdown
        return json_response(body)
    # The (cached) serialised document is spliced in rather than re-encoded every time.
    document = document_json(
        markdown,
        node.get("document"),
        index=target.index(tx),
        node=node,
        revision=target.revision["id"],
        reusable=target.revision.get("reusableContents"),
    )
    return raw_response(splice(body, "document", document))


def target_page(tx: Tx, target: Target, page_id: str) -> tuple[dict[str, Any], str]:
    entry = target.index(tx).by_id.get(page_id)
    if entry is None:
        raise not_found("Page", page_id)
    return entry[0], entry[1]


def target_file(tx: Tx, target: Target, file_id: str) -> dict[str, Any]:
    file = target.index(tx).files_by_id.get(file_id)
    if file is None:
        raise not_found("File", file_id)
    return file
