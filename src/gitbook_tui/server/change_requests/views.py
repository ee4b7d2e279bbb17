"""Change request rendering (JSON, URLs) and the loading/state checks its route modules share."""

from __future__ import annotations

from typing import Any

from ..content.official_document import to_document, to_markdown
from ..content.store import shared_copy
from ..core.checks import check_body_length
from ..core.context import Ctx
from ..core.errors import conflict, forbidden
from ..core.file_links import download_url
from ..core.merge_rules import effective_rules, unmet_rules
from ..core.permissions import require
from ..core.resources import load_change_request, load_space, user_ref
from ..core.storage import Tx
from .schemas import DescriptionDocument


def cr_location(ctx: Ctx, cr: dict[str, Any]) -> str:
    return f"{ctx.api}/spaces/{cr['space']}/change-requests/{cr['id']}"


def is_outdated(space: dict[str, Any], cr: dict[str, Any]) -> bool:
    if cr.get("status") in ("merged", "archived"):
        return False
    return space.get("revision") != cr.get("revisionMergedAncestor")


def open_comments(tx: Tx, cr_id: str) -> int:
    row = tx.conn.execute(
        "SELECT COUNT(*) FROM docs WHERE kind='comment' AND scope=? "
        "AND COALESCE(json_extract(data, '$.status'), 'open') <> 'resolved'",
        (f"cr:{cr_id}",),
    ).fetchone()
    return int(row[0])


def cr_json(tx: Tx, ctx: Ctx, space: dict[str, Any], cr: dict[str, Any]) -> dict[str, Any]:
    body: dict[str, Any] = {
        "object": "change-request",
        "id": cr["id"],
        "number": cr["number"],
        "status": cr["status"],
        "subject": cr.get("subject") or "",
        "space": cr["space"],
        "createdBy": user_ref(tx, ctx, cr["createdBy"]),
        "createdAt": cr["createdAt"],
        "updatedAt": cr["updatedAt"],
        "revision": cr["revision"],
        "revisionInitial": cr["revisionInitial"],
        "revisionMergedAncestor": cr.get("revisionMergedAncestor") or cr["revisionInitial"],
        "comments": open_comments(tx, cr["id"]),
        "outdated": is_outdated(space, cr),
        "urls": {
            "app": f"{ctx.app}/s/{cr['space']}/~/changes/{cr['number']}/",
            "location": cr_location(ctx, cr),
        },
    }
    if cr.get("description") is not None:
        body["description"] = cr["description"]
    if cr.get("status") == "merged":
        body["revisionMerged"] = cr.get("revisionMerged")
        body["mergedAt"] = cr.get("mergedAt")
        if cr.get("mergedBy"):
            body["mergedBy"] = user_ref(tx, ctx, cr["mergedBy"])
    return body


def load_cr(
    tx: Tx, ctx: Ctx, space_id: str, cr_id: str, needed: str = "read"
) -> tuple[dict[str, Any], str, dict[str, Any]]:
    space, role = load_space(tx, ctx, space_id)
    cr = load_change_request(tx, ctx, space, cr_id)
    require(role, needed, "Space", space_id)
    return space, role, cr


def ensure_unlocked(space: dict[str, Any]) -> None:
    if space.get("editMode") == "locked":
        raise forbidden(
            f"Space '{space['id']}' is locked (editMode: locked); its content cannot be changed."
        )


def ensure_active(cr: dict[str, Any], action: str) -> None:
    if cr["status"] == "merged":
        raise conflict(f"Change request #{cr['number']} is already merged; it cannot be {action}.")
    if cr["status"] == "archived":
        raise conflict(
            f"Change request #{cr['number']} is archived; reopen it (PATCH status 'open') "
            f"before it can be {action}."
        )


def ensure_merge_rules(tx: Tx, ctx: Ctx, space: dict[str, Any], cr: dict[str, Any]) -> None:
    """409 naming the unmet rules when the space's merge rules forbid this merge."""
    org = tx.get("org", space["organization"]) or {}
    rules = effective_rules(org, space)
    if not rules:
        return
    latest: dict[str, dict[str, Any]] = {}
    for review in tx.list("review", cr["id"]):
        latest[review["reviewer"]] = review
    unmet = unmet_rules(
        rules,
        merger=ctx.user_id,
        author=cr["createdBy"],
        reviews=list(latest.values()),
        outdated=is_outdated(space, cr),
        subject=cr.get("subject") or "",
        description=bool(cr.get("description")),
    )
    if unmet:
        raise conflict(
            f"Change request #{cr['number']} cannot be merged: the merge rules are not met "
            f"({'; '.join(unmet)})."
        )


def touch(tx: Tx, cr: dict[str, Any], now: str) -> None:
    cr["updatedAt"] = now
    tx.put("change-request", cr["id"], cr)


def revision_contents(revision: dict[str, Any]) -> dict[str, Any]:
    pages, files = shared_copy(revision)
    return {"pages": pages, "files": files, "variables": dict(revision.get("variables") or {})}


def page_location(ctx: Ctx, cr: dict[str, Any], page_id: str) -> str:
    return f"{cr_location(ctx, cr)}/content/page/{page_id}"


def file_download_url(ctx: Ctx, node: dict[str, Any]) -> str:
    return download_url(ctx, str(node.get("blob", "")), node.get("name") or "file")


def file_json(ctx: Ctx, node: dict[str, Any]) -> dict[str, Any]:
    body = {
        "id": node["id"],
        "name": node.get("name", ""),
        "contentType": node.get("contentType", ""),
        "downloadURL": file_download_url(ctx, node),
        "size": node.get("size", 0),
    }
    if node.get("dimensions"):
        body["dimensions"] = node["dimensions"]
    return body


def content_update_json(
    ctx: Ctx,
    cr: dict[str, Any],
    rendered: dict[str, Any],
    changes: list[dict[str, Any]],
    inserted_files: list[dict[str, Any]],
) -> dict[str, Any]:
    """The answer of a content update without ``compat``: the change request, the pages each
    change affected and the files it inserted."""
    affected = []
    for change in changes:
        if change["object"] == "deleted_page":
            affected.append({"object": "deleted_page", "page": change["page"]})
            continue
        entry: dict[str, Any] = {
            "object": change["object"],
            "page": {
                "object": "page",
                "id": change["page"],
                "urls": {"location": page_location(ctx, cr, change["page"])},
            },
        }
        if change.get("ref"):
            entry["ref"] = change["ref"]
        affected.append(entry)
    return {
        "changeRequest": rendered,
        "changes": affected,
        "insertedFiles": [file_json(ctx, f) for f in inserted_files],
    }


def description_document(given: DescriptionDocument | None) -> dict[str, Any] | None:
    """The stored description: the official JSON document (markdown is converted); a
    document whose text is longer than the one body limit is a 400, as long markdown is."""
    if given is None:
        return None
    if given.markdown is not None:
        return to_document(given.markdown)
    document = given.model_dump(exclude_none=True)
    document.setdefault("data", {})
    check_body_length(to_markdown(document), "description")
    return document
