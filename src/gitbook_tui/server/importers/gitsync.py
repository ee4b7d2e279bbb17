"""Importers of space content: Git Sync folders (local or over HTTP) and single web pages.

A Git Sync folder is what GitBook's Git Sync writes to a repository::

    .gitbook.yaml          root / structure.readme / structure.summary (all optional)
    README.md              the first page
    SUMMARY.md             the table of contents: the page tree
    some/page.md           pages, with optional front matter (description, emoji, icon,
                           hidden, noIndex, noRobotsIndex, layout)
    .gitbook/assets/…      files (images and attachments)

``SUMMARY.md`` builds the tree: nested ``* [Title](path.md)`` list items (indentation is
nesting), ``## Heading`` starts a group page holding the entries after it, and
``* [Title](https://…)`` is a link page. Slugs come from file names (``README.md`` takes its
folder's name). Without a SUMMARY.md the tree follows the folders.

Entry points (the parsing lives in :mod:`.summary`, :mod:`.gitsync_sources`,
:mod:`.gitsync_tree` and :mod:`.html_import`; this module stores and orchestrates):

- :func:`build_tree_from_folder` — parse a folder into page nodes and files (no database);
- :func:`import_folder_into_space` — replace a space's (or change request's) content with
  a folder's, as a new revision (used by the demo seeder and ``serve --import``);
- :func:`fetch_git_sync` / :func:`fetch_web_page` — the same over HTTP for the import API
  (network first, then :func:`apply_tree` / :func:`apply_web_page` inside a transaction).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlparse

from ..content.space_revision import set_space_revision
from ..content.store import (
    create_revision,
    get_revision,
    store_file,
    store_markdown,
)
from ..core.clock import iso
from ..core.fetch import FetchError, fetch_url
from ..core.slugs import slugify, unique_slug
from ..core.storage import Tx
from ..core.url_guard import FetchPolicy, UrlRefused
from ..spaces.rules import new_space
from .html import html_to_markdown
from .sources import (
    ContentImportError,
    FolderSource,
    HttpSource,
    Source,
    _reason,
    folder_base,
    is_loopback,
    local_folder,
)
from .summary import Entry, parse_simple_yaml, parse_summary, split_front_matter, split_title
from .tree import (
    MAX_FILES,
    MAX_PAGES,
    Tree,
    _title_from_path,
    build_tree,
    build_tree_from_folder,
    read_config,
)

# Callers (routes, runner, tests) import these from here: the package's one import surface.
__all__ = [
    "MAX_FILES",
    "MAX_PAGES",
    "ContentImportError",
    "CtxLike",
    "Entry",
    "FolderSource",
    "HttpSource",
    "SimpleCtx",
    "Source",
    "Tree",
    "WebPage",
    "apply_tree",
    "apply_web_page",
    "build_tree",
    "build_tree_from_folder",
    "commit_content",
    "fetch_git_sync",
    "fetch_web_page",
    "folder_base",
    "html_to_markdown",
    "import_folder_as_new_space",
    "import_folder_into_space",
    "is_loopback",
    "local_folder",
    "parse_simple_yaml",
    "parse_summary",
    "read_config",
    "split_front_matter",
    "split_title",
    "store_tree",
]

_log = logging.getLogger(__name__)


class CtxLike(Protocol):
    """What the importer needs from its caller (a request ``Ctx`` or :class:`SimpleCtx`)."""

    def new_id(self) -> str: ...

    def now(self) -> str: ...


@dataclass
class SimpleCtx:
    """A :class:`CtxLike` for callers outside a request (demo seeder, CLI ``--import``)."""

    storage: Any
    clock: Any = None
    user_id: str | None = None

    def new_id(self) -> str:
        return str(self.storage.new_id())

    def now(self) -> str:
        moment = self.clock.now() if self.clock is not None else datetime.now(UTC)
        return iso(moment)


# -- storing a tree as a new revision --------------------------------------------------------


def store_tree(
    tx: Tx, pages: list[dict[str, Any]], files: list[tuple[dict[str, Any], bytes]]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Put markdown and file bytes in the blob store: PageNodes/FileNodes ready for a revision."""

    def convert(nodes: list[dict[str, Any]]) -> list[dict[str, Any]]:
        result = []
        for node in nodes:
            stored = {k: v for k, v in node.items() if k not in ("markdown", "pages")}
            if node.get("type", "document") == "document":
                stored["document"] = store_markdown(tx, node.get("markdown") or "")
            stored["pages"] = convert(node.get("pages", []))
            result.append(stored)
        return result

    file_nodes = [
        store_file(
            tx,
            file_id=meta["id"],
            name=meta["name"],
            data=data,
            content_type=meta.get("contentType"),
            git=meta.get("git"),
        )
        for meta, data in files
    ]
    return convert(pages), file_nodes


def commit_content(
    tx: Tx,
    ctx: CtxLike,
    space: dict[str, Any],
    pages: list[dict[str, Any]],
    files: list[dict[str, Any]],
    *,
    change_request: dict[str, Any] | None = None,
    type: str = "import",
    reusable_contents: list[dict[str, Any]] | None = None,
) -> str:
    """Write a new revision with ``pages``/``files`` (already stored) and make it current:
    the space's main revision, or the change request's ``revision``. Returns its id.
    ``reusable_contents`` (stored) replace the parent's; ``None`` keeps them."""
    now = ctx.now()
    user_id = getattr(ctx, "user_id", None)
    revision_id = ctx.new_id()
    parent = change_request["revision"] if change_request else space["revision"]
    create_revision(
        tx,
        revision_id=revision_id,
        space_id=space["id"],
        parents=[parent] if parent else [],
        pages=pages,
        files=files,
        type=type,
        created_at=now,
        created_by=user_id,
        change_request=change_request["id"] if change_request else None,
        variables=dict(get_revision(tx, parent).get("variables", {})) if parent else None,
        reusable_contents=reusable_contents,
    )
    if change_request is not None:
        change_request["revision"] = revision_id
        change_request["updatedAt"] = now
        tx.put("change-request", change_request["id"], change_request)
    else:
        set_space_revision(tx, space, revision_id, now)
    return revision_id


def apply_tree(
    tx: Tx,
    ctx: CtxLike,
    space: dict[str, Any],
    tree: Tree,
    *,
    change_request: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Replace the content of the space (or change request) with ``tree``: import result
    (with ``warnings`` listing what was skipped, e.g. files over the size limit)."""
    pages, files = store_tree(tx, tree.pages, tree.files)
    reusable = [
        {
            **{k: v for k, v in item.items() if k != "markdown"},
            "document": store_markdown(tx, item["markdown"]),
        }
        for item in tree.reusable
    ]
    revision_id = commit_content(
        tx, ctx, space, pages, files, change_request=change_request, reusable_contents=reusable
    )
    result: dict[str, Any] = {
        "revision": revision_id,
        "importedResources": tree.imported,
        "totalResources": tree.found,
    }
    if tree.warnings:
        result["warnings"] = list(tree.warnings)
    return result


def import_folder_into_space(
    tx: Tx,
    ctx_like: CtxLike,
    space: dict[str, Any],
    folder_path: str | Path,
    *,
    change_request: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Replace the content of ``space`` with the Git Sync folder at ``folder_path``.

    - ``tx``: an open write transaction (``storage.transaction()``);
    - ``ctx_like``: anything with ``new_id() -> str`` and ``now() -> str`` (ISO time) and
      optionally ``user_id`` — a request ``Ctx`` or ``SimpleCtx(storage, clock, user_id)``;
    - ``space``: the stored space record (``tx.get("space", id)``); it is updated in place
      and saved, with the new revision as its main revision (search index refreshed);
    - ``change_request``: a stored change request record of that space to import into
      instead (its ``revision`` moves to the new revision).

    Returns the import result ``{"revision", "importedResources", "totalResources"}``.
    Raises :class:`ContentImportError` when the folder cannot be read as a Git Sync folder.
    """
    folder = Path(folder_path)
    if not folder.is_dir():
        raise ContentImportError(f"{folder}: not a folder")
    tree = build_tree(FolderSource(folder), new_id=ctx_like.new_id, now=ctx_like.now())
    return apply_tree(tx, ctx_like, space, tree, change_request=change_request)


def import_folder_as_new_space(
    app: Any,
    folder_path: str | Path,
    *,
    title: str | None = None,
    org_id: str | None = None,
    user_id: str | None = None,
) -> dict[str, Any]:
    """Create a private space from the Git Sync folder at ``folder_path`` (``serve --import``).

    ``app`` is the FastAPI app of ``create_app``. The space goes to ``org_id`` as
    ``user_id`` — by default the database owner (``ensure_owner``) and the first organization
    they administer. Its title is ``title``, else the README's title, else the folder name.
    Returns the stored space record (its ``revision`` is the imported content).
    """
    state = app.state.server
    storage = state.storage
    folder = Path(folder_path)
    with storage.transaction() as tx:
        owner = user_id or tx.meta("owner")
        if owner is None:
            raise ContentImportError("no owner in this database: run ensure_owner first")
        if org_id is None:
            memberships = [
                m
                for m in tx.list("member")
                if m.get("user") == owner and m.get("role") == "admin" and not m.get("disabled")
            ]
            if not memberships:
                raise ContentImportError("the owner administers no organization")
            org_id = memberships[0]["organization"]
        ctx = SimpleCtx(storage, state.clock, owner)
        tree = build_tree(
            FolderSource(folder, max_bytes=state.fetch_max_bytes), new_id=ctx.new_id, now=ctx.now()
        )
        readme_title = next(
            (p["title"] for p in tree.pages if p.get("type", "document") == "document"), None
        )
        name = (title or readme_title or folder.resolve().name or "Imported").strip()[:50]
        space = new_space(tx, ctx, org_id=org_id, title=name)  # type: ignore[arg-type]
        apply_tree(tx, ctx, space, tree)
        for warning in tree.warnings:
            _log.warning("import of %s: %s", folder, warning)
        return space


# -- over HTTP (the import API) ------------------------------------------------------------------


def fetch_git_sync(
    url: str,
    *,
    timeout: float,
    max_bytes: int,
    new_id: Callable[[], str],
    now: str,
    policy: FetchPolicy | None = None,
) -> Tree | None:
    """The Git Sync folder at ``url``, or ``None`` if it is not one: a file:// folder under
    one of ``policy``'s import roots, or an http URL whose host the operator allowed (only
    those are probed for a folder: a page of any other site is imported as a page)."""
    policy = policy or FetchPolicy()
    try:
        folder = local_folder(url, policy)
    except UrlRefused as exc:
        raise ContentImportError(f"{url}: {exc.message}", exc.status) from exc
    if folder is not None:
        markers = (".gitbook.yaml", "SUMMARY.md", "README.md")
        if not any((folder / name).is_file() for name in markers):
            raise ContentImportError(
                f"{url}: not a Git Sync folder (no .gitbook.yaml, SUMMARY.md or README.md)"
            )
        return build_tree(FolderSource(folder, max_bytes=max_bytes), new_id=new_id, now=now)
    if urlparse(url).scheme not in ("http", "https") or not policy.url_host_allowed(url):
        return None
    base = folder_base(url)
    if base is None:
        return None
    source = HttpSource(base, timeout=timeout, max_bytes=max_bytes, policy=policy)
    try:
        probe = source.fetch(".gitbook.yaml")
    except FetchError:
        probe = None
    if probe is None:
        try:
            source.fetch("SUMMARY.md")
        except FetchError:
            return None
    return build_tree(source, new_id=new_id, now=now)


@dataclass
class WebPage:
    title: str
    markdown: str
    url: str


def fetch_web_page(
    url: str,
    *,
    timeout: float,
    max_bytes: int,
    source: str = "website",
    policy: FetchPolicy | None = None,
) -> WebPage:
    """Fetch one page and turn it into markdown (HTML converted; markdown/text as is)."""
    try:
        fetched = fetch_url(url, timeout=timeout, max_bytes=max_bytes, policy=policy)
    except FetchError as exc:
        raise ContentImportError(f"Could not import {url}: {_reason(exc)}", exc.status) from exc
    content_type = fetched.content_type.split(";", 1)[0].strip().lower()
    text = fetched.text
    path = urlparse(fetched.url).path.lower()
    looks_html = text.lstrip()[:15].lower().startswith(("<!doctype html", "<html"))
    if (
        source == "html"
        or "html" in content_type
        or (source != "markdown" and (looks_html or path.endswith((".html", ".htm"))))
    ):
        title, markdown = html_to_markdown(text, base_url=fetched.url)
        return WebPage(title or _title_from_path(path or url), markdown, fetched.url)
    if (
        source == "markdown"
        or content_type in ("text/markdown", "text/x-markdown", "text/plain", "")
        or path.endswith((".md", ".markdown", ".txt"))
    ):
        _, body = split_front_matter(text)
        title, markdown = split_title(body)
        return WebPage(title or _title_from_path(path or url), markdown, fetched.url)
    raise ContentImportError(f"Could not import {url}: unsupported content type '{content_type}'")


def apply_web_page(
    tx: Tx,
    ctx: CtxLike,
    space: dict[str, Any],
    page: WebPage,
    *,
    change_request: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Append ``page`` as a new top-level page (new revision): import result."""
    current = get_revision(tx, change_request["revision"] if change_request else space["revision"])
    pages = list(current.get("pages", []))
    now = ctx.now()
    taken = {p.get("slug") for p in pages if p.get("slug")}
    node: dict[str, Any] = {
        "id": ctx.new_id(),
        "title": page.title[:200] or "Imported page",
        "type": "document",
        "slug": unique_slug(slugify(page.title), taken),  # type: ignore[arg-type]
        "emoji": None,
        "icon": None,
        "description": None,
        "hidden": False,
        "noIndex": False,
        "createdAt": now,
        "updatedAt": now,
        "document": store_markdown(tx, page.markdown),
        "pages": [],
    }
    pages.append(node)
    revision_id = commit_content(
        tx, ctx, space, pages, list(current.get("files", [])), change_request=change_request
    )
    return {"revision": revision_id, "importedResources": 1, "totalResources": 1}
