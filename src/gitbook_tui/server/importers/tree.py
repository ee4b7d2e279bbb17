"""Reading a Git Sync folder (SUMMARY.md, pages, assets) into page nodes and files, without a database."""

from __future__ import annotations

import hashlib
import posixpath
import re
import secrets
import string
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from ..content.page_text import apply_front_matter, page_text
from ..core.clock import iso
from ..core.slugs import slugify, unique_slug
from .sources import ContentImportError, FileTooLarge, FolderSource, Source
from .summary import Entry, parse_simple_yaml, parse_summary, read_page, split_title

MAX_PAGES = 10_000
MAX_FILES = 2_000

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
    warnings: list[str] = field(default_factory=list)
    """What the import skipped or could not read, one sentence each (never fatal)."""
    reusable: list[dict[str, Any]] = field(default_factory=list)
    """Reusable contents (``.gitbook/includes/*.md``): ``{id, title, markdown, git}``."""


_ASSET_REF_RE = re.compile(
    r"!?\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?[^)]*\)"
    r"|\{%\s*file\s+src=\"([^\"]+)\""
    r"|<img\b[^>]*?\bsrc=[\"']([^\"']+)[\"']"
    r"|<a\b[^>]*?\bhref=[\"']([^\"']+\.gitbook/assets/[^\"']+)[\"']"
)
_INCLUDE_RE = re.compile(r"\{%\s*include\s+[\"']([^\"']+)[\"']\s*%\}")
INCLUDES_DIR = ".gitbook/includes"


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
    structure = config.get("structure")
    if not isinstance(structure, dict):
        structure = {}
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

    def read(path: str) -> bytes | None:
        """A file's bytes; one over the size limit is skipped with a warning."""
        try:
            return source.read(path)
        except FileTooLarge as exc:
            tree.warnings.append(f"skipped {exc.message}")
            return None

    summary = source.read(rel(summary_name))
    if summary is not None:
        entries = parse_summary(summary.decode("utf-8", errors="replace"), tree.warnings)
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
    includes: dict[str, None] = {}

    def note_references(path: str, markdown: str) -> None:
        folder = posixpath.dirname(path)
        for ref in _asset_refs(markdown):
            resolved = posixpath.normpath(posixpath.join(folder, ref))
            if not resolved.startswith(".."):
                referenced.setdefault(resolved, None)
        for match in _INCLUDE_RE.finditer(markdown):
            resolved = posixpath.normpath(posixpath.join(folder, unquote(match.group(1))))
            if not resolved.startswith(".."):
                includes.setdefault(resolved, None)

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
            elif entry.kind == "computed":
                # A computed page (e.g. an OpenAPI reference GitBook generates from a spec):
                # kept as the API's typed "computed" page, its source as written.
                node["computed"] = entry.computed
                node["computedSeed"] = node["id"]
                node["slug"] = unique_slug(slugify(entry.title), taken)
                tree.imported += 1
            else:
                target = _strip_anchor(entry.target) if entry.target else None
                meta: dict[str, Any] = {}
                markdown, title = "", None
                if target:
                    data = read(rel(target))
                    if data is None:
                        tree.missing.append(target)
                    else:
                        tree.imported += 1
                        text = data.decode("utf-8", errors="replace")
                        parsed = page_text(text)
                        if parsed.problem is not None:
                            # Kept above the body: the viewer shows it with the warning.
                            tree.warnings.append(
                                f"{target}: front matter not read: {parsed.problem}"
                            )
                        meta, title, markdown = parsed.meta, parsed.title, parsed.body
                        node["git"] = {"path": rel(target), "oid": _git_oid(data)}
                        note_references(rel(target), markdown)
                else:
                    tree.imported += 1
                node["title"] = entry.title or title or _title_from_path(target or "page")
                node["markdown"] = markdown
                apply_front_matter(node, meta)
                node["slug"] = unique_slug(_slug_for(target, node["title"]), taken)
                node["pages"] = build(entry.children, set())
            nodes.append(node)
        return nodes

    tree.pages = build(entries, set())

    include_dir = rel(INCLUDES_DIR)
    for path in source.assets(include_dir):
        if path.endswith((".md", ".markdown")):
            includes.setdefault(path, None)
    _read_includes(tree, read, includes, new_id, note_references)

    asset_dir = rel(".gitbook/assets")
    candidates = dict.fromkeys(source.assets(asset_dir))
    for ref in referenced:
        if posixpath.splitext(ref)[1].lower() not in ("", ".md", ".markdown"):
            candidates.setdefault(ref, None)
    for path in candidates:
        if len(tree.files) >= MAX_FILES:
            tree.warnings.append(f"more than {MAX_FILES} files: the rest were skipped")
            break
        is_asset = path.startswith(asset_dir + "/")
        try:
            data = source.read(path)
        except FileTooLarge as exc:
            tree.found += 1
            tree.warnings.append(f"skipped {exc.message}")
            continue
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


def _read_includes(
    tree: Tree,
    read: Callable[[str], bytes | None],
    paths: dict[str, None],
    new_id: Callable[[], str],
    note_references: Callable[[str, str], None],
) -> None:
    """Reusable contents: each include file's front matter ``title`` and body."""
    for path in paths:
        tree.found += 1
        data = read(path)
        if data is None:
            tree.missing.append(path)
            continue
        tree.imported += 1
        meta, body, problem = read_page(data.decode("utf-8", errors="replace"))
        if problem is not None:
            tree.warnings.append(f"{path}: front matter not read: {problem}")
        heading, rest = split_title(body)
        title = meta.get("title") if isinstance(meta.get("title"), str) else None
        markdown = rest if heading and not title else body
        tree.reusable.append(
            {
                "id": new_id(),
                "title": (title or heading or _title_from_path(path)).strip()[:200],
                "markdown": markdown,
                "git": {"path": path, "oid": _git_oid(data)},
            }
        )
        note_references(path, markdown)


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
