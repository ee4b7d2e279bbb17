"""Routes for the PDF export of a change request: a temporary link, and the PDF it serves."""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response

from ..change_requests.views import load_cr
from ..content.store import find_page, get_revision, iter_pages, page_markdown
from ..core.clock import iso, parse_iso
from ..core.context import CtxDep, server_state
from ..core.errors import bad_request, forbidden, not_found
from ..core.pdf import Section, render_pdf
from ..core.storage import Tx

router = APIRouter(tags=["change-requests"])

PDF_LINK_LIFETIME = timedelta(hours=1)


@router.get("/spaces/{spaceId}/change-requests/{changeRequestId}/pdf")
def get_change_request_pdf(
    ctx: CtxDep,
    spaceId: str,
    changeRequestId: str,
    only: bool = False,
    page: Annotated[str | None, Query(max_length=256)] = None,
) -> dict[str, Any]:
    """A temporary (1 h) URL of a PDF of the change request's content."""
    with ctx.write() as tx:
        _, _, cr = load_cr(tx, ctx, spaceId, changeRequestId)
        if only and not page:
            raise bad_request("page: required when only is true")
        revision = get_revision(tx, cr["revision"])
        if page and find_page(revision["pages"], page) is None:
            raise bad_request(f"page: page '{page}' does not exist in the change request")
        token = secrets.token_urlsafe(24)
        expires = ctx.state.clock.now() + PDF_LINK_LIFETIME
        tx.put(
            "pdf-link",
            token,
            {
                "space": spaceId,
                "changeRequest": cr["id"],
                "revision": cr["revision"],
                "page": page,
                "only": only,
                "createdBy": ctx.user_id,
                "expiresAt": iso(expires),
            },
            scope=cr["id"],
        )
        url = f"{ctx.api}/spaces/{spaceId}/change-requests/{cr['id']}/pdf/file?token={token}"
        return {"url": url}


def _pdf_sections(
    tx: Tx, pages: list[dict[str, Any]], page: str | None, only: bool
) -> list[Section]:
    nodes = pages
    if page:
        found = find_page(pages, page)
        if found is None:
            return []
        nodes = [found[0] if not only else {**found[0], "pages": []}]
    sections = []
    for node, path, _ in iter_pages(nodes):
        if node.get("type") == "link":
            continue
        level = path.count("/")
        text = page_markdown(tx, node) if node.get("type", "document") == "document" else ""
        sections.append(Section(node.get("title") or "Untitled", text, level))
    return sections


@router.get("/spaces/{spaceId}/change-requests/{changeRequestId}/pdf/file")
def download_change_request_pdf(
    request: Request,
    spaceId: str,
    changeRequestId: str,
    token: Annotated[str, Query(min_length=1, max_length=256)],
) -> Response:
    """The PDF itself; the URL's token stands for the Bearer token (valid 1 hour)."""
    state = server_state(request)
    with state.storage.read() as tx:
        link = tx.get("pdf-link", token)
        if link is None or link["space"] != spaceId or link["changeRequest"] != changeRequestId:
            raise not_found("PDF", changeRequestId)
        if parse_iso(link["expiresAt"]) < state.clock.now():
            raise forbidden("This PDF link has expired; ask for a new one.")
        cr = tx.get("change-request", link["changeRequest"])
        space = tx.get("space", spaceId)
        if cr is None or space is None:
            raise not_found("Change request", changeRequestId)
        revision = get_revision(tx, link["revision"])
        sections = _pdf_sections(tx, revision["pages"], link.get("page"), bool(link.get("only")))
        title = f"{space.get('title', '')} — #{cr['number']} {cr.get('subject') or ''}".strip()
    data = render_pdf(sections, title=title)
    return Response(
        data,
        media_type="application/pdf",
        headers={"Content-Disposition": f'inline; filename="change-request-{cr["number"]}.pdf"'},
    )
