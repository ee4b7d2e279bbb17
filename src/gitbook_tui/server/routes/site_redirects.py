"""Routes for the redirects of a site: list, create, update, delete, and look a source up.

Redirect destinations and the uniqueness of sources live in :mod:`..sites.redirects`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Response

from ..core.checks import deletable, updated_fields
from ..core.context import CtxDep
from ..core.errors import bad_request, not_found
from ..core.pagination import PagingParams, paginate
from ..sites.redirects import (
    check_unique_source,
    listed_redirects,
    live_redirect,
    load_redirect,
    new_redirect,
    redirect_json,
    resolve_destination,
    target_url,
)
from ..sites.structure_schemas import SOURCE_RE, SOURCE_RULE, RedirectCreate, RedirectUpdate
from ..sites.views import REDIRECT, load_site_as, load_site_for_visitor, structure

router = APIRouter(tags=["site structure"])

BASE = "/orgs/{organizationId}/sites/{siteId}"


@router.get(BASE + "/redirects")
def list_redirects(
    ctx: CtxDep,
    organizationId: str,
    siteId: str,
    paging: PagingParams,
    search: Annotated[str | None, Query(max_length=512)] = None,
    draft: Annotated[bool, Query(description="Draft redirects instead of live ones")] = False,
    orderBy: Annotated[Literal["createdAt", "updatedAt", "source"], Query()] = "createdAt",
) -> dict[str, Any]:
    with ctx.read() as tx:
        load_site_as(tx, ctx, organizationId, siteId, "read")
        items = listed_redirects(tx, siteId, search=search, draft=draft, order_by=orderBy)
        return paginate(items, paging, redirect_json)


@router.post(BASE + "/redirects", status_code=201)
def create_redirect(
    ctx: CtxDep, organizationId: str, siteId: str, body: RedirectCreate
) -> dict[str, Any]:
    with ctx.write() as tx:
        _, site, _ = load_site_as(tx, ctx, organizationId, siteId, "create")
        return redirect_json(new_redirect(tx, ctx, structure(tx, site), body))


@router.patch(BASE + "/redirects/{siteRedirectId}")
def update_redirect(
    ctx: CtxDep, organizationId: str, siteId: str, siteRedirectId: str, body: RedirectUpdate
) -> dict[str, Any]:
    fields = updated_fields(
        body, ("source", "destination", "draft", "permanent", "captureWildcard")
    )
    with ctx.write() as tx:
        _, site, _ = load_site_as(tx, ctx, organizationId, siteId, "create")
        redirect = load_redirect(tx, siteId, siteRedirectId)
        if "source" in fields:
            check_unique_source(tx, siteId, str(body.source), siteRedirectId)
            redirect["source"] = body.source
        if "destination" in fields and body.destination is not None:
            redirect["destination"] = resolve_destination(tx, structure(tx, site), body.destination)
        for name in ("draft", "permanent", "captureWildcard"):
            if name in fields:
                redirect[name] = getattr(body, name)
        redirect["updatedAt"] = ctx.now()
        tx.put(REDIRECT, siteRedirectId, redirect)
        return redirect_json(redirect)


@router.delete(BASE + "/redirects/{siteRedirectId}", status_code=204, response_class=Response)
def delete_redirect(ctx: CtxDep, organizationId: str, siteId: str, siteRedirectId: str) -> Response:
    with ctx.write() as tx:
        load_site_as(tx, ctx, organizationId, siteId, "create")
        if deletable(tx, REDIRECT, siteRedirectId, siteId, "Redirect"):
            tx.delete(REDIRECT, siteRedirectId)
    return Response(status_code=204)


@router.get(BASE + "/redirect")
def lookup_redirect(
    ctx: CtxDep,
    organizationId: str,
    siteId: str,
    source: Annotated[str, Query(max_length=512, description="Source path, like /old")],
    shareKey: Annotated[str | None, Query(max_length=512)] = None,
) -> dict[str, Any]:
    if not SOURCE_RE.match(source):
        raise bad_request(f"source: {SOURCE_RULE}")
    with ctx.read() as tx:
        site, _ = load_site_for_visitor(tx, ctx, organizationId, siteId, shareKey)
        redirect = live_redirect(tx, siteId, source)
        target = target_url(tx, structure(tx, site), redirect["destination"])
        if target is None:
            raise not_found("Destination of redirect", redirect["id"])
        return {"redirect": redirect_json(redirect), "target": target}
