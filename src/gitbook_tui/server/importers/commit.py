"""Imported content stored as a new revision of a space or change request (pages' markdown
and files' bytes to the blob store, the revision made current)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

from ..content.space_revision import set_space_revision
from ..content.store import create_revision, get_revision, store_file, store_markdown
from ..core.clock import iso
from ..core.storage import Tx
from .tree import Tree


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
