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

Entry points:

- :func:`build_tree_from_folder` — parse a folder into page nodes and files (no database);
- :func:`import_folder_into_space` — replace a space's (or change request's) content with
  a folder's, as a new revision (used by the demo seeder and ``serve --import``);
- :func:`fetch_git_sync` / :func:`fetch_web_page` — the same over HTTP for the import API
  (network first, then :func:`apply_tree` / :func:`apply_web_page` inside a transaction).
"""

from __future__ import annotations

import hashlib
import ipaddress
import posixpath
import re
import secrets
import string
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import quote, unquote, urljoin, urlparse

from .clock import iso
from .content_store import (
    create_revision,
    get_revision,
    set_space_revision,
    slugify,
    store_file,
    store_markdown,
    unique_slug,
)
from .fetch import FetchError, fetch_url
from .storage import Tx

MAX_PAGES = 10_000
MAX_FILES = 2_000


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


class ContentImportError(Exception):
    """An import that cannot be done; ``message`` is meant for the API client."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# -- tiny YAML subset and front matter ---------------------------------------------------------


def _scalar(value: str) -> Any:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    if " #" in value:
        value = value.split(" #", 1)[0].rstrip()
    lowered = value.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    if lowered in ("null", "~", ""):
        return None
    if re.fullmatch(r"-?\d+", value):
        return int(value)
    return value


def parse_simple_yaml(text: str) -> dict[str, Any]:
    """Nested ``key: value`` mappings by indentation (the subset .gitbook.yaml and front
    matter use); lists and flow syntax are not supported and are skipped."""
    root: dict[str, Any] = {}
    stack: list[tuple[int, dict[str, Any]]] = [(-1, root)]
    for raw in text.splitlines():
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        indent = len(raw) - len(raw.lstrip(" "))
        match = re.match(r"^\s*([^:#][^:]*?)\s*:(?:\s+(.*))?\s*$", raw)
        if match is None:
            continue
        key, value = match.group(1).strip().strip("\"'"), match.group(2)
        while stack and indent <= stack[-1][0]:
            stack.pop()
        parent = stack[-1][1] if stack else root
        if value is None or value.strip() == "" or value.strip().startswith("#"):
            child: dict[str, Any] = {}
            parent[key] = child
            stack.append((indent, child))
        else:
            parent[key] = _scalar(value)
    return root


_FRONT_RE = re.compile(r"\A\ufeff?---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|\Z)", re.S)


def split_front_matter(markdown: str) -> tuple[dict[str, Any], str]:
    """``(front matter, body)``; no front matter gives ``({}, markdown)``."""
    match = _FRONT_RE.match(markdown)
    if match is None:
        return {}, markdown
    return parse_simple_yaml(match.group(1)), markdown[match.end() :]


_H1_RE = re.compile(r"\A\s*#[ \t]+(.+?)[ \t#]*(?:\r?\n|\Z)")


def split_title(markdown: str) -> tuple[str | None, str]:
    """The leading ``# Title`` of a page (GitBook keeps it as the page title) and the rest."""
    match = _H1_RE.match(markdown)
    if match is None:
        return None, markdown
    return match.group(1).strip(), markdown[match.end() :].lstrip("\r\n")


# -- SUMMARY.md ---------------------------------------------------------------------------------


@dataclass
class Entry:
    """One entry of SUMMARY.md."""

    kind: str  # document | link | group
    title: str
    target: str | None = None
    children: list[Entry] = field(default_factory=list)


_ITEM_RE = re.compile(r"^(\s*)[*+-][ \t]+(.*)$")
_LINK_RE = re.compile(r"^\[((?:[^\]\\]|\\.)*)\]\(\s*(<[^>]*>|[^)\s]*)(?:\s+\"[^\"]*\")?\s*\)")
_GROUP_RE = re.compile(r"^#{2,6}[ \t]+(.+?)[ \t#]*$")


def parse_summary(text: str) -> list[Entry]:
    """The page tree of a SUMMARY.md."""
    top: list[Entry] = []
    group: Entry | None = None
    stack: list[tuple[int, Entry]] = []
    for raw in text.splitlines():
        line = raw.replace("\t", "    ")
        if not line.strip():
            continue
        heading = _GROUP_RE.match(line.strip()) if line.startswith("#") else None
        if heading:
            group = Entry("group", _unescape(heading.group(1)))
            top.append(group)
            stack = []
            continue
        item = _ITEM_RE.match(line)
        if item is None:
            continue
        indent, content = len(item.group(1)), item.group(2).strip()
        link = _LINK_RE.match(content)
        if link:
            title, target = _unescape(link.group(1)), link.group(2).strip("<>").strip()
        else:
            title, target = _unescape(content), ""
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
            entry = Entry("link", title or target, target)
        else:
            entry = Entry("document", title, target or None)
        while stack and stack[-1][0] >= indent:
            stack.pop()
        if stack:
            stack[-1][1].children.append(entry)
        elif group is not None:
            group.children.append(entry)
        else:
            top.append(entry)
        stack.append((indent, entry))
    return top


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text).strip()


# -- reading a folder (local or over HTTP) -------------------------------------------------------


class Source(Protocol):
    def read(self, rel: str) -> bytes | None: ...

    def assets(self, folder: str) -> list[str]: ...

    def describe(self, rel: str) -> str: ...


@dataclass
class FolderSource:
    """A Git Sync folder on disk."""

    root: Path
    max_bytes: int = 50 * 1024 * 1024

    def read(self, rel: str) -> bytes | None:
        path = (self.root / rel).resolve()
        try:
            path.relative_to(self.root.resolve())
        except ValueError:
            return None
        if not path.is_file():
            return None
        if path.stat().st_size > self.max_bytes:
            raise ContentImportError(f"{path}: larger than {self.max_bytes} bytes")
        return path.read_bytes()

    def assets(self, folder: str) -> list[str]:
        base = self.root / folder
        if not base.is_dir():
            return []
        return sorted(
            p.relative_to(self.root).as_posix()
            for p in base.rglob("*")
            if p.is_file() and not p.name.startswith(".")
        )

    def describe(self, rel: str) -> str:
        return str(self.root / rel)


@dataclass
class HttpSource:
    """A Git Sync folder served over HTTP; every file is fetched by its relative URL."""

    base: str
    timeout: float
    max_bytes: int
    allow_file: bool = False

    def url(self, rel: str) -> str:
        return urljoin(self.base, quote(rel))

    def read(self, rel: str) -> bytes | None:
        try:
            return fetch_url(
                self.url(rel),
                timeout=self.timeout,
                max_bytes=self.max_bytes,
                allow_file=self.allow_file,
            ).body
        except FetchError as exc:
            if exc.code == "FETCH_HTTP_ERROR" or (
                exc.code == "FETCH_FAILED" and "no such file" in exc.message
            ):
                return None
            raise ContentImportError(f"{self.url(rel)}: {_reason(exc)}") from exc

    def assets(self, folder: str) -> list[str]:
        return []  # an HTTP folder cannot be listed: assets come from page references

    def describe(self, rel: str) -> str:
        return self.url(rel)


def _reason(exc: FetchError) -> str:
    if exc.code == "FETCH_TIMEOUT":
        return "timed out (" + exc.message + ")"
    if exc.code == "FETCH_TOO_LARGE":
        return "too large (" + exc.message + ")"
    return exc.message


# -- building the tree -----------------------------------------------------------------------------


@dataclass
class Tree:
    """Result of reading a Git Sync folder. Page nodes carry ``markdown`` (text) instead of
    a ``document`` blob hash; files are ``(FileNode without blob, bytes)``."""

    pages: list[dict[str, Any]]
    files: list[tuple[dict[str, Any], bytes]]
    found: int = 0
    imported: int = 0
    missing: list[str] = field(default_factory=list)


_ASSET_REF_RE = re.compile(
    r"!?\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?[^)]*\)"
    r"|\{%\s*file\s+src=\"([^\"]+)\""
    r"|<img\b[^>]*?\bsrc=[\"']([^\"']+)[\"']"
)


def _default_id() -> str:
    alphabet = string.ascii_letters + string.digits
    return "".join(secrets.choice(alphabet) for _ in range(20))


def _git_oid(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\x00" % len(data) + data, usedforsecurity=False).hexdigest()


def read_config(source: Source) -> tuple[str, str, str]:
    """``(root, readme, summary)`` from .gitbook.yaml (defaults ``""``, README.md, SUMMARY.md)."""
    raw = source.read(".gitbook.yaml")
    config = parse_simple_yaml(raw.decode("utf-8", errors="replace")) if raw else {}
    root = str(config.get("root") or "").strip()
    root = posixpath.normpath(root.strip("/")) if root.strip("./") else ""
    if root.startswith(".."):
        raise ContentImportError(".gitbook.yaml: root must stay inside the folder")
    structure = config.get("structure") if isinstance(config.get("structure"), dict) else {}
    readme = str(structure.get("readme") or "README.md")
    summary = str(structure.get("summary") or "SUMMARY.md")
    return ("" if root == "." else root), readme, summary


def build_tree(
    source: Source,
    *,
    new_id: Callable[[], str] | None = None,
    now: str | None = None,
) -> Tree:
    """Read a Git Sync folder from ``source`` into a :class:`Tree`."""
    new_id = new_id or _default_id
    now = now or iso(datetime.now(UTC))
    root, readme, summary_name = read_config(source)

    def rel(path: str) -> str:
        return posixpath.normpath(posixpath.join(root, path)) if root else posixpath.normpath(path)

    tree = Tree(pages=[], files=[])
    summary = source.read(rel(summary_name))
    if summary is not None:
        entries = parse_summary(summary.decode("utf-8", errors="replace"))
        listed = {_strip_anchor(e.target) for e in _walk(entries) if e.target}
        if readme not in listed and source.read(rel(readme)) is not None:
            entries.insert(0, Entry("document", "", readme))
    elif isinstance(source, FolderSource):
        entries = _entries_from_folders(source, root, readme)
    else:
        raw = source.read(rel(readme))
        if raw is None:
            raise ContentImportError(
                f"{source.describe(rel(summary_name))}: not a Git Sync folder "
                "(no SUMMARY.md or README.md)"
            )
        entries = [Entry("document", "", readme)]
    if sum(1 for _ in _walk(entries)) > MAX_PAGES:
        raise ContentImportError(f"too many pages (more than {MAX_PAGES})")

    referenced: dict[str, None] = {}

    def build(entries: list[Entry], taken: set[str]) -> list[dict[str, Any]]:
        # Groups add nothing to paths: their pages share ``taken`` with the group's siblings.
        nodes: list[dict[str, Any]] = []
        group_slugs: set[str] = set()
        for entry in entries:
            tree.found += 1
            node: dict[str, Any] = {
                "id": new_id(),
                "title": entry.title,
                "type": entry.kind,
                "emoji": None,
                "icon": None,
                "description": None,
                "hidden": False,
                "noIndex": False,
                "createdAt": now,
                "updatedAt": now,
                "pages": [],
            }
            if entry.kind == "group":
                node["slug"] = unique_slug(slugify(entry.title), group_slugs)
                tree.imported += 1
                node["pages"] = build(entry.children, taken)
            elif entry.kind == "link":
                node["href"] = entry.target
                tree.imported += 1
            else:
                target = _strip_anchor(entry.target) if entry.target else None
                markdown, meta, title = "", {}, None
                if target:
                    data = source.read(rel(target))
                    if data is None:
                        tree.missing.append(target)
                    else:
                        tree.imported += 1
                        meta, body = split_front_matter(data.decode("utf-8", errors="replace"))
                        title, markdown = split_title(body)
                        node["git"] = {"path": rel(target), "oid": _git_oid(data)}
                        for ref in _asset_refs(markdown):
                            resolved = posixpath.normpath(
                                posixpath.join(posixpath.dirname(rel(target)), ref)
                            )
                            if not resolved.startswith(".."):
                                referenced.setdefault(resolved, None)
                else:
                    tree.imported += 1
                node["title"] = entry.title or title or _title_from_path(target or "page")
                node["markdown"] = markdown
                _apply_front_matter(node, meta)
                node["slug"] = unique_slug(_slug_for(target, node["title"]), taken)
                node["pages"] = build(entry.children, set())
            nodes.append(node)
        return nodes

    tree.pages = build(entries, set())

    asset_dir = rel(".gitbook/assets")
    candidates = dict.fromkeys(source.assets(asset_dir))
    for ref in referenced:
        if posixpath.splitext(ref)[1].lower() not in ("", ".md", ".markdown"):
            candidates.setdefault(ref, None)
    for path in candidates:
        if len(tree.files) >= MAX_FILES:
            break
        data = source.read(path)
        is_asset = path.startswith(asset_dir + "/")
        if data is None:
            if is_asset:
                tree.found += 1
                tree.missing.append(path)
            continue
        tree.found += 1
        tree.imported += 1
        name = posixpath.basename(path)
        tree.files.append(
            ({"id": new_id(), "name": name, "git": {"path": path, "oid": _git_oid(data)}}, data)
        )
    return tree


def _walk(entries: list[Entry]) -> list[Entry]:
    result = []
    for entry in entries:
        result.append(entry)
        result.extend(_walk(entry.children))
    return result


def _strip_anchor(target: str) -> str:
    return unquote(target.split("#", 1)[0].split("?", 1)[0]).lstrip("/")


def _asset_refs(markdown: str) -> list[str]:
    refs = []
    for match in _ASSET_REF_RE.finditer(markdown):
        ref = next(g for g in match.groups() if g)
        if re.match(r"^[a-z][a-z0-9+.-]*:|^/|^#", ref, re.I):
            continue
        refs.append(unquote(ref.split("#", 1)[0].split("?", 1)[0]))
    return refs


def _title_from_path(path: str) -> str:
    stem = posixpath.splitext(posixpath.basename(path.rstrip("/")))[0]
    return re.sub(r"[-_]+", " ", stem).strip().capitalize() or "Untitled"


def _slug_for(target: str | None, title: str) -> str:
    if not target:
        return slugify(title)
    path = target.rstrip("/")
    stem = posixpath.splitext(posixpath.basename(path))[0]
    if stem.lower() == "readme":
        parent = posixpath.basename(posixpath.dirname(path))
        return slugify(parent) if parent else slugify(title)
    return slugify(stem)


_LAYOUT_KEYS = ("cover", "title", "description", "tableOfContents", "outline", "pagination")


def _apply_front_matter(node: dict[str, Any], meta: dict[str, Any]) -> None:
    for key in ("description", "emoji", "icon"):
        if isinstance(meta.get(key), str | int) and meta.get(key) != "":
            node[key] = str(meta[key])
    for key in ("hidden", "noIndex", "noRobotsIndex"):
        if key in meta:
            node[key] = meta[key] is True
    layout = meta.get("layout")
    if isinstance(layout, dict):
        flags: dict[str, Any] = {}
        for key in _LAYOUT_KEYS:
            value = layout.get(key)
            if isinstance(value, dict) and isinstance(value.get("visible"), bool):
                flags[key] = value["visible"]
            elif isinstance(value, bool):
                flags[key] = value
        if isinstance(layout.get("coverSize"), str):
            flags["coverSize"] = layout["coverSize"]
        if flags:
            node["layout"] = flags


def _entries_from_folders(source: FolderSource, root: str, readme: str) -> list[Entry]:
    """The page tree of a folder without SUMMARY.md: README first, then files and folders."""
    base = source.root / root if root else source.root
    if not base.is_dir():
        raise ContentImportError(f"{base}: not a folder")

    def walk(folder: Path, depth: int) -> list[Entry]:
        entries: list[Entry] = []
        children = sorted(folder.iterdir(), key=lambda p: p.name.lower())
        for child in children:
            if child.name.startswith(".") or child.name in (readme, "SUMMARY.md"):
                continue
            rel_path = child.relative_to(base).as_posix()
            if child.is_file() and child.suffix.lower() in (".md", ".markdown"):
                entries.append(Entry("document", "", rel_path))
            elif child.is_dir():
                nested = walk(child, depth + 1)
                index = child / "README.md"
                if index.is_file():
                    entries.append(Entry("document", "", f"{rel_path}/README.md", nested))
                elif nested and depth == 0:
                    entries.append(Entry("group", _title_from_path(child.name), None, nested))
                elif nested:
                    entries.append(Entry("document", _title_from_path(child.name), None, nested))
        return entries

    entries = walk(base, 0)
    if (base / readme).is_file():
        entries.insert(0, Entry("document", "", readme))
    return entries


def build_tree_from_folder(
    path: str | Path,
    *,
    new_id: Callable[[], str] | None = None,
    now: str | None = None,
) -> tuple[list[dict[str, Any]], list[tuple[dict[str, Any], bytes]]]:
    """Parse the Git Sync folder at ``path`` without touching a database.

    Returns ``(pages, files_with_bytes)``: ``pages`` are PageNodes (see ``content_store``)
    whose documents carry their text in ``markdown`` instead of a ``document`` hash;
    ``files_with_bytes`` are ``(FileNode without blob, bytes)`` pairs.
    ``new_id`` makes ids (random by default); ``now`` is the ISO time for createdAt/updatedAt.
    """
    tree = build_tree(FolderSource(Path(path)), new_id=new_id, now=now)
    return tree.pages, tree.files


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
) -> str:
    """Write a new revision with ``pages``/``files`` (already stored) and make it current:
    the space's main revision, or the change request's ``revision``. Returns its id."""
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
    """Replace the content of the space (or change request) with ``tree``: import result."""
    pages, files = store_tree(tx, tree.pages, tree.files)
    revision_id = commit_content(tx, ctx, space, pages, files, change_request=change_request)
    return {
        "revision": revision_id,
        "importedResources": tree.imported,
        "totalResources": tree.found,
    }


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
    from .routes.spaces import new_space

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
        return space


# -- over HTTP (the import API) ------------------------------------------------------------------


def is_loopback(url: str) -> bool:
    host = (urlparse(url).hostname or "").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def folder_base(url: str) -> str | None:
    """The folder URL a URL may name (``…/``, ``…/.gitbook.yaml``, ``…/SUMMARY.md`` or a
    path without an extension), else ``None``."""
    parsed = urlparse(url)
    path = parsed.path or "/"
    last = path.rsplit("/", 1)[-1]
    if last in (".gitbook.yaml", "SUMMARY.md"):
        path = path[: -len(last)]
    elif last and "." in last:
        return None
    elif not path.endswith("/"):
        path += "/"
    return parsed._replace(path=path, query="", fragment="").geturl()


def local_folder(url: str) -> Path | None:
    """The folder a ``file://`` URL names when it is a Git Sync folder."""
    parsed = urlparse(url)
    if parsed.scheme != "file":
        return None
    path = Path(unquote(parsed.path))
    if path.is_file() and path.name in (".gitbook.yaml", "SUMMARY.md"):
        path = path.parent
    if path.is_dir():
        return path
    return None


def fetch_git_sync(
    url: str, *, timeout: float, max_bytes: int, new_id: Callable[[], str], now: str
) -> Tree | None:
    """The Git Sync folder at ``url`` (file:// or loopback http), or ``None`` if it is not one."""
    folder = local_folder(url)
    if folder is not None:
        markers = (".gitbook.yaml", "SUMMARY.md", "README.md")
        if not any((folder / name).is_file() for name in markers):
            raise ContentImportError(
                f"{url}: not a Git Sync folder (no .gitbook.yaml, SUMMARY.md or README.md)"
            )
        return build_tree(FolderSource(folder, max_bytes=max_bytes), new_id=new_id, now=now)
    if urlparse(url).scheme not in ("http", "https") or not is_loopback(url):
        return None
    base = folder_base(url)
    if base is None:
        return None
    source = HttpSource(base, timeout=timeout, max_bytes=max_bytes)
    try:
        probe = fetch_url(urljoin(base, ".gitbook.yaml"), timeout=timeout, max_bytes=max_bytes)
    except FetchError:
        probe = None
    if probe is None:
        try:
            fetch_url(urljoin(base, "SUMMARY.md"), timeout=timeout, max_bytes=max_bytes)
        except FetchError:
            return None
    return build_tree(source, new_id=new_id, now=now)


@dataclass
class WebPage:
    title: str
    markdown: str
    url: str


def fetch_web_page(url: str, *, timeout: float, max_bytes: int, source: str = "website") -> WebPage:
    """Fetch one page and turn it into markdown (HTML converted; markdown/text as is)."""
    try:
        fetched = fetch_url(url, timeout=timeout, max_bytes=max_bytes, allow_file=True)
    except FetchError as exc:
        raise ContentImportError(f"Could not import {url}: {_reason(exc)}") from exc
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
    node = {
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


# -- HTML to markdown -----------------------------------------------------------------------------

_SKIP = {
    "script", "style", "noscript", "template", "svg", "head", "iframe", "canvas", "button", "nav",
}  # fmt: skip
_BLOCKS = {
    "p", "div", "section", "article", "main", "header", "footer", "nav", "aside", "figure",
    "figcaption", "dl", "dt", "dd", "form", "fieldset", "address", "details", "summary", "body",
}  # fmt: skip


class _HtmlToMarkdown(HTMLParser):
    def __init__(self, base_url: str) -> None:
        super().__init__(convert_charrefs=True)
        self.base_url = base_url
        self.blocks: list[tuple[str, bool]] = []  # (markdown, joined to the previous item)
        self.inline: list[list[str]] = [[]]
        self.hrefs: list[str | None] = []
        self.skip = 0
        self.in_title = False
        self.title = ""
        self.h1: str | None = None
        self.heading: int | None = None
        self.pre: list[str] | None = None
        self.pre_lang = ""
        self.lists: list[list[Any]] = []  # [kind, counter]
        self.item_open = False
        self.list_ended = False
        self.last_item = False
        self.quote = 0
        self.table: list[list[str]] | None = None
        self.row: list[str] | None = None
        self.cell: list[str] | None = None

    # inline text ---------------------------------------------------------------------
    def _text(self) -> str:
        text = "".join(self.inline[-1])
        return re.sub(
            r"[ \t\r\f\v]*\n[ \t\r\f\v]*", "\n", re.sub(r"[ \t\r\f\v]+", " ", text)
        ).strip()

    def _flush(self) -> None:
        text = self._text()
        self.inline[-1] = []
        if not text:
            return
        if self.lists and self.item_open:
            kind, counter = self.lists[-1]
            indent = "  " * (len(self.lists) - 1)
            marker = f"{counter}." if kind == "ol" else "*"
            text = text.replace("\n", "\n" + indent + "  ")
            self._emit(f"{indent}{marker} {text}", item=True)
            self.item_open = False
        else:
            self._emit(text)

    def _emit(self, text: str, *, item: bool = False) -> None:
        joined = item and self.last_item and not self.list_ended
        self.list_ended, self.last_item = False, item
        if self.quote:
            text = "\n".join("> " * self.quote + line if line else ">" for line in text.split("\n"))
        self.blocks.append((text, joined))

    def _add(self, text: str) -> None:
        if self.cell is not None:
            self.cell.append(text)
        else:
            self.inline[-1].append(text)

    # parser callbacks ------------------------------------------------------------------
    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = {k: v or "" for k, v in attrs}
        if tag == "title":
            self.in_title = True
            return
        if tag in _SKIP:
            self.skip += 1
            return
        if self.skip:
            return
        if self.pre is not None:
            if tag == "code" and not self.pre_lang:
                self.pre_lang = _language(attr.get("class", ""))
            return
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self._flush()
            self.heading = int(tag[1])
        elif tag in _BLOCKS:
            self._flush()
        elif tag == "br":
            self._add("\n")
        elif tag == "hr":
            self._flush()
            self._emit("---")
        elif tag in ("ul", "ol"):
            self._flush()
            self.lists.append([tag, 0])
        elif tag == "li":
            self._flush()
            if self.lists:
                self.lists[-1][1] += 1
            self.item_open = True
        elif tag == "blockquote":
            self._flush()
            self.quote += 1
        elif tag == "pre":
            self._flush()
            self.pre = []
            self.pre_lang = _language(attr.get("class", ""))
        elif tag == "a":
            href = attr.get("href")
            self.hrefs.append(urljoin(self.base_url, href) if href else None)
            self.inline.append([])
        elif tag in ("strong", "b"):
            self._add("**")
        elif tag in ("em", "i"):
            self._add("_")
        elif tag == "code":
            self._add("`")
        elif tag == "img":
            src = attr.get("src")
            if src:
                self._add(f"![{attr.get('alt', '')}]({urljoin(self.base_url, src)})")
        elif tag == "table":
            self._flush()
            self.table = []
        elif tag == "tr" and self.table is not None:
            self.row = []
        elif tag in ("td", "th") and self.row is not None:
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self.in_title = False
            return
        if tag in _SKIP:
            self.skip = max(0, self.skip - 1)
            return
        if self.skip:
            return
        if self.pre is not None:
            if tag == "pre":
                code = "".join(self.pre).strip("\n")
                self.pre = None
                self._emit(f"```{self.pre_lang}\n{code}\n```")
            return
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6") and self.heading is not None:
            text = self._text().replace("\n", " ")
            self.inline[-1] = []
            if text:
                if self.heading == 1 and self.h1 is None:
                    self.h1 = text
                self._emit("#" * self.heading + " " + text)
            self.heading = None
        elif tag in _BLOCKS or tag == "li":
            self._flush()
        elif tag in ("ul", "ol"):
            self._flush()
            if self.lists:
                self.lists.pop()
            self.list_ended = not self.lists
        elif tag == "blockquote":
            self._flush()
            self.quote = max(0, self.quote - 1)
        elif tag == "a" and len(self.inline) > 1:
            text = self._text().replace("\n", " ")
            self.inline.pop()
            href = self.hrefs.pop() if self.hrefs else None
            self._add(f"[{text}]({href})" if href and text else text)
        elif tag in ("strong", "b"):
            self._add("**")
        elif tag in ("em", "i"):
            self._add("_")
        elif tag == "code":
            self._add("`")
        elif tag in ("td", "th") and self.row is not None and self.cell is not None:
            cell = re.sub(r"\s+", " ", "".join(self.cell)).strip().replace("|", "\\|")
            self.row.append(cell)
            self.cell = None
        elif tag == "tr" and self.table is not None and self.row is not None:
            if self.row:
                self.table.append(self.row)
            self.row = None
        elif tag == "table" and self.table is not None:
            rows, self.table = self.table, None
            if rows:
                width = max(len(r) for r in rows)
                rows = [r + [""] * (width - len(r)) for r in rows]
                lines = ["| " + " | ".join(rows[0]) + " |", "|" + " --- |" * width]
                lines += ["| " + " | ".join(r) + " |" for r in rows[1:]]
                self._emit("\n".join(lines))

    def handle_data(self, data: str) -> None:
        if self.in_title:
            self.title += data
            return
        if self.skip:
            return
        if self.pre is not None:
            self.pre.append(data)
            return
        self._add(data)

    def markdown(self) -> str:
        self._flush()
        parts: list[str] = []
        for text, joined in self.blocks:
            if parts:
                parts.append("\n" if joined else "\n\n")
            parts.append(text)
        return "".join(parts).strip() + "\n"


def _language(classes: str) -> str:
    match = re.search(r"(?:language|lang)-([\w+#-]+)", classes)
    return match.group(1) if match else ""


def html_to_markdown(html: str, *, base_url: str = "") -> tuple[str | None, str]:
    """``(title, markdown)`` of an HTML page. The title is the first ``<h1>`` (removed from
    the body) or else ``<title>``."""
    parser = _HtmlToMarkdown(base_url)
    parser.feed(html)
    parser.close()
    markdown = parser.markdown()
    title = parser.h1 or re.sub(r"\s+", " ", parser.title).strip() or None
    if parser.h1:
        # the first <h1> is the page title: it is not repeated in the body
        blocks = [text for text, _ in parser.blocks]
        heading = "# " + parser.h1
        if heading in blocks:
            del parser.blocks[blocks.index(heading)]
            markdown = parser.markdown()
    return title, markdown
