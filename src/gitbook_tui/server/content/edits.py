"""Applying a batch of content changes (``POST …/change-requests/{id}/content``) to a page tree.

The batch is the openapi ``ChangeRequestContentChange`` list, each item a plain dict as sent
(``model_dump(exclude_unset=True)``, so an absent ``into`` differs from ``into: null``):

- ``insert_page``: ``document`` ({markdown}), ``title``, ``slug``, ``emoji``, ``icon``,
  ``description``, ``hidden``, ``noIndex``, ``into`` (parent page id, or the ``ref`` of a page
  inserted earlier in the batch; absent = root), ``at`` (index among siblings), ``ref``;
- ``update_page``: ``page`` plus any of the fields above; ``into`` moves the page (``null`` =
  root), ``at`` places it among its (new) siblings;
- ``delete_page``: ``page`` (with its sub-pages);
- ``revert_page``: ``page``, optional ``revision`` (default: the change request's base) —
  the page's content and metadata go back to that revision (removed if it did not exist);
- ``insert_files``: ``files`` [{name, ref, contentType, url | base64}]; markdown of the batch
  may reference them as ``./<ref>``, rewritten to ``/files/<fileId>``.

A markdown ``document`` is read as Git Sync reads a page file (:mod:`.page_text`): its front
matter sets page metadata (winning over the fields above); a leading ``# Title`` is the title
of an inserted page without ``title``, and is dropped when it repeats the page's title (else it
stays a heading of the body); only the rest is stored as the page's document. So the markdown export of a
page (its body), written back unchanged, changes nothing.

Any invalid change rejects the whole batch with :class:`EditError` (a 400 naming the field).
"""

from __future__ import annotations

import base64
import binascii
import mimetypes
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..core.assets import image_dimensions
from ..core.slugs import slugify, unique_slug
from ..core.storage import Tx
from .page_text import apply_front_matter, page_text, same_title
from .page_tree_copy import PageTreeCopy

_PAGE_FIELDS = ("title", "emoji", "icon", "description", "hidden", "noIndex", "noRobotsIndex")


class EditError(Exception):
    """A change of the batch is invalid; ``message`` names the field."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass
class EditEnv:
    """What applying a batch needs from the server."""

    tx: Tx
    now: str
    new_id: Callable[[], str]
    space_id: str
    base_revision_id: str
    load_revision: Callable[[str], dict[str, Any] | None]
    fetch: Callable[[str], tuple[bytes, str]]


@dataclass
class EditOutcome:
    changes: list[dict[str, Any]] = field(default_factory=list)  # {object, page, ref?}
    inserted_files: list[dict[str, Any]] = field(default_factory=list)


# -- helpers ----------------------------------------------------------------------------------


def _unique_slug(slug: str, siblings: list[dict[str, Any]], own_id: str | None) -> str:
    # The page being edited does not compete with itself for its slug.
    taken = {s["slug"] for s in siblings if s["id"] != own_id and s.get("slug") is not None}
    return unique_slug(slug, taken)


def locate(
    pages: list[dict[str, Any]], page_id: str, parent: dict[str, Any] | None = None
) -> tuple[list[dict[str, Any]], int, dict[str, Any] | None] | None:
    """(the list holding the page, its index, its parent node or None)."""
    for index, node in enumerate(pages):
        if node["id"] == page_id:
            return pages, index, parent
        found = locate(node.get("pages", []), page_id, node)
        if found is not None:
            return found
    return None


def _contains(node: dict[str, Any], page_id: str) -> bool:
    return any(
        child["id"] == page_id or _contains(child, page_id) for child in node.get("pages", [])
    )


def _all_ids(pages: list[dict[str, Any]]) -> set[str]:
    ids: set[str] = set()
    for node in pages:
        ids.add(node["id"])
        ids |= _all_ids(node.get("pages", []))
    return ids


# -- the batch --------------------------------------------------------------------------------


class _Batch:
    def __init__(
        self,
        env: EditEnv,
        pages: list[dict[str, Any]],
        files: list[dict[str, Any]],
    ) -> None:
        self.env = env
        self.tree = PageTreeCopy(pages)  # nodes are copied only once they change
        self.pages = pages
        self.files = files
        self.page_refs: dict[str, str] = {}
        self.file_refs: dict[str, str] = {}
        self.outcome = EditOutcome()

    # documents
    def _markdown(self, document: Any, where: str) -> str | None:
        if document is None:
            return None
        if not isinstance(document, dict):
            raise EditError(f"{where}.document: must be an object like {{markdown: '…'}}")
        if "markdown" in document and document["markdown"] is not None:
            text = str(document["markdown"])
            for ref, file_id in self.file_refs.items():
                text = text.replace(f"(./{ref})", f"(/files/{file_id})")
                text = text.replace(f'(./{ref} "', f'(/files/{file_id} "')
            return text
        if document.get("document") is not None:
            raise EditError(
                f"{where}.document: only the markdown form {{markdown: '…'}} is supported here"
            )
        return ""

    def _resolve_page(self, page_id: str, where: str) -> tuple[list[dict[str, Any]], int, Any]:
        actual = self.page_refs.get(page_id, page_id)
        found = self.tree.locate(actual)
        if found is None:
            raise EditError(f"{where}: page '{page_id}' does not exist in the change request")
        return found

    def _container(self, into: str | None, where: str) -> tuple[list[dict[str, Any]], str | None]:
        if into is None:
            return self.pages, None
        siblings, index, _ = self._resolve_page(into, f"{where}.into")
        parent = siblings[index]
        if parent.get("type") == "link":
            raise EditError(f"{where}.into: page '{into}' is a link and cannot have sub-pages")
        return self.tree.sub_pages(parent), parent["id"]

    @staticmethod
    def _place(container: list[dict[str, Any]], node: dict[str, Any], at: int | None) -> None:
        if at is None or at >= len(container):
            container.append(node)
        else:
            container.insert(at, node)

    def _apply_fields(self, node: dict[str, Any], change: dict[str, Any]) -> bool:
        touched = False
        for key in _PAGE_FIELDS:
            if key in change and node.get(key) != change[key]:
                node[key] = change[key]
                touched = True
        if "condition" in change and node.get("condition") != change["condition"]:
            node["condition"] = change["condition"]
            touched = True
        return touched

    # operations
    def insert_page(self, i: int, change: dict[str, Any]) -> None:
        where = f"changes[{i}]"
        markdown = self._markdown(change.get("document"), where)
        # As Git Sync reads a file: front matter is page metadata (it wins over the change's
        # fields), a leading "# Title" the title, the rest the page's document. Given a
        # ``title``, a leading heading that does not repeat it stays a heading of the body.
        read = page_text(markdown or "")
        container, _ = self._container(change.get("into"), where)
        title = change.get("title") or read.title or "Untitled"
        body = read.body
        if read.title is not None and not same_title(read.title, title):
            body = read.headed
        page_id = self.env.new_id()
        slug = _unique_slug(change.get("slug") or slugify(title), container, page_id)
        node: dict[str, Any] = {
            "id": page_id,
            "title": title,
            "type": "document",
            "slug": slug,
            "emoji": None,
            "icon": None,
            "description": None,
            "hidden": False,
            "noIndex": False,
            "createdAt": self.env.now,
            "updatedAt": self.env.now,
            "document": self.env.tx.put_blob(body),
            "pages": [],
        }
        self.tree.own(node, node["pages"])
        self._apply_fields(node, {k: v for k, v in change.items() if k != "title"})
        apply_front_matter(node, read.meta)
        self._place(container, node, change.get("at"))
        if change.get("ref"):
            self.page_refs[change["ref"]] = page_id
        entry: dict[str, Any] = {"object": "created_page", "page": page_id}
        if change.get("ref"):
            entry["ref"] = change["ref"]
        self.outcome.changes.append(entry)

    def update_page(self, i: int, change: dict[str, Any]) -> None:
        where = f"changes[{i}]"
        siblings, index, _ = self._resolve_page(change["page"], f"{where}.page")
        node = siblings[index]
        touched = self._apply_fields(node, change)
        markdown = self._markdown(change.get("document"), where)
        if markdown is not None:
            if node.get("type", "document") != "document":
                raise EditError(f"{where}.document: page '{change['page']}' is not a document")
            # Front matter is page metadata (it wins over the change's fields); a leading
            # "# Title" repeating the page's title is that title, not a heading of the body
            # (the markdown export of a page is its body: written back, it changes nothing).
            read = page_text(markdown)
            touched = apply_front_matter(node, read.meta) or touched
            body = read.headed
            if read.title is not None and same_title(read.title, node.get("title")):
                body = read.body
            digest = self.env.tx.put_blob(body)
            if node.get("document") != digest:
                node["document"] = digest
                touched = True
        moving = "into" in change
        at = change.get("at")
        if moving or at is not None:
            target = siblings
            if moving:
                target, target_id = self._container(change["into"], where)
                if target_id is not None and (
                    target_id == node["id"] or _contains(node, target_id)
                ):
                    raise EditError(
                        f"{where}.into: a page cannot be moved under itself or its sub-pages"
                    )
            same_parent = target is siblings
            siblings.pop(index)
            if at is None and same_parent:
                at = index
            if not same_parent:
                node["slug"] = _unique_slug(node.get("slug") or "page", target, node["id"])
            self._place(target, node, at)
            touched = touched or not same_parent or at != index
        if "slug" in change:
            siblings_now, _, _ = self._resolve_page(node["id"], where)
            wanted = change["slug"] or slugify(node.get("title") or "page")
            if any(s.get("slug") == wanted and s["id"] != node["id"] for s in siblings_now):
                raise EditError(f"{where}.slug: '{wanted}' is already used by a sibling page")
            if node.get("slug") != wanted:
                node["slug"] = wanted
                touched = True
        if touched:
            node["updatedAt"] = self.env.now
        self.outcome.changes.append({"object": "updated_page", "page": node["id"]})

    def delete_page(self, i: int, change: dict[str, Any]) -> None:
        siblings, index, _ = self._resolve_page(change["page"], f"changes[{i}].page")
        removed = siblings.pop(index)
        self.outcome.changes.append({"object": "deleted_page", "page": removed["id"]})

    def revert_page(self, i: int, change: dict[str, Any]) -> None:
        where = f"changes[{i}]"
        if change.get("block"):
            raise EditError(f"{where}.block: reverting single blocks is not supported")
        rev_id = change.get("revision") or self.env.base_revision_id
        revision = self.env.load_revision(rev_id)
        if revision is None or revision.get("space") != self.env.space_id:
            raise EditError(f"{where}.revision: revision '{rev_id}' does not exist in this space")
        page_id = self.page_refs.get(change["page"], change["page"])
        old = locate(revision["pages"], page_id)  # read only
        current = self.tree.locate(page_id)
        if old is None and current is None:
            raise EditError(f"{where}.page: page '{change['page']}' does not exist")
        if old is None:
            assert current is not None
            siblings, index, _ = current
            siblings.pop(index)
            self.outcome.changes.append({"object": "deleted_page", "page": page_id})
            return
        old_siblings, old_index, old_parent = old
        old_node = old_siblings[old_index]
        restored = {k: v for k, v in old_node.items() if k != "pages"}
        if current is not None:
            siblings, index, _ = current
            restored["pages"] = siblings[index].get("pages", [])
            self.tree.own(restored)
            siblings[index] = restored
            self.outcome.changes.append({"object": "updated_page", "page": page_id})
            return
        present = _all_ids(self.pages)

        def missing_subtree(nodes: list[dict[str, Any]]) -> list[dict[str, Any]]:
            out = []
            for n in nodes:
                if n["id"] in present:
                    continue
                out.append({**n, "pages": missing_subtree(n.get("pages", []))})
            return out

        restored["pages"] = missing_subtree(old_node.get("pages", []))
        self.tree.own(restored, restored["pages"])
        container = self.pages
        if old_parent is not None:
            found = self.tree.locate(old_parent["id"])
            if found is not None:
                container = self.tree.sub_pages(found[0][found[1]])
        restored["slug"] = _unique_slug(restored.get("slug") or "page", container, page_id)
        self._place(container, restored, old_index)
        self.outcome.changes.append({"object": "created_page", "page": page_id})

    def insert_files(self, i: int, change: dict[str, Any]) -> None:
        for j, spec in enumerate(change.get("files") or []):
            where = f"changes[{i}].files[{j}]"
            name = spec["name"]
            if spec.get("base64") is not None:
                try:
                    data = base64.b64decode(spec["base64"], validate=True)
                except (binascii.Error, ValueError) as exc:
                    raise EditError(f"{where}.base64: not valid base64") from exc
                fetched_type = ""
            elif spec.get("url"):
                try:
                    data, fetched_type = self.env.fetch(spec["url"])
                except Exception as exc:
                    detail = getattr(exc, "message", None) or str(exc)
                    raise EditError(f"{where}.url: could not download the file: {detail}") from exc
            else:
                raise EditError(f"{where}: give either url or base64")
            content_type = (
                spec.get("contentType")
                or fetched_type.split(";")[0].strip()
                or mimetypes.guess_type(name)[0]
                or "application/octet-stream"
            )
            digest = self.env.tx.put_blob(data)
            self.env.tx.put("file-blob", digest, {"contentType": content_type, "name": name})
            file_id = self.env.new_id()
            node = {
                "id": file_id,
                "name": name,
                "contentType": content_type,
                "size": len(data),
                "dimensions": image_dimensions(data, content_type),
                "blob": digest,
            }
            self.files.append(node)
            if spec.get("ref"):
                self.file_refs[spec["ref"]] = file_id
            self.outcome.inserted_files.append(node)


def apply_changes(
    env: EditEnv,
    pages: list[dict[str, Any]],
    files: list[dict[str, Any]],
    changes: list[dict[str, Any]],
) -> EditOutcome:
    """Apply ``changes`` in place to ``pages`` and ``files``: new top-level lists whose nodes
    may be shared with a stored revision (:func:`.store.shared_copy`) — a node is copied
    before it is changed (:class:`.page_tree_copy.PageTreeCopy`), the rest stays shared.

    Files are inserted first (so any page of the batch can reference them), then the page
    operations run in order.
    """
    batch = _Batch(env, pages, files)
    for i, change in enumerate(changes):
        if change.get("operation") == "insert_files":
            batch.insert_files(i, change)
    handlers = {
        "insert_page": batch.insert_page,
        "update_page": batch.update_page,
        "delete_page": batch.delete_page,
        "revert_page": batch.revert_page,
    }
    for i, change in enumerate(changes):
        op = change.get("operation")
        if op == "insert_files":
            continue
        handler = handlers.get(str(op))
        if handler is None:
            raise EditError(f"changes[{i}].operation: unknown operation '{op}'")
        handler(i, change)
    return batch.outcome
