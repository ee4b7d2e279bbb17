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

Entry points (the parsing lives in :mod:`.summary`, :mod:`.sources`,
:mod:`.tree` and :mod:`.html`; storing in :mod:`.commit`, single pages in :mod:`.web_page`;
this module orchestrates and is the package's one import surface):

- :func:`build_tree_from_folder` — parse a folder into page nodes and files (no database);
- :func:`import_folder_into_space` — replace a space's (or change request's) content with
  a folder's, as a new revision (used by the demo seeder and ``serve --import``);
- :func:`fetch_git_sync` / :func:`fetch_web_page` — the same over HTTP for the import API
  (network first, then :func:`apply_tree` / :func:`apply_web_page` inside a transaction).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from ..core.fetch import FetchError
from ..core.storage import Tx
from ..core.url_guard import FetchPolicy, UrlRefused
from ..spaces.rules import new_space
from .commit import CtxLike, SimpleCtx, apply_tree, commit_content, store_tree
from .html import html_to_markdown
from .sources import (
    ContentImportError,
    FolderSource,
    HttpSource,
    Source,
    folder_base,
    is_loopback,
    local_folder,
)
from .summary import Entry, parse_simple_yaml, parse_summary, split_front_matter, split_title
from .tree import (
    MAX_FILES,
    MAX_PAGES,
    Tree,
    build_tree,
    build_tree_from_folder,
    read_config,
)
from .web_page import WebPage, apply_web_page, fetch_web_page

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
