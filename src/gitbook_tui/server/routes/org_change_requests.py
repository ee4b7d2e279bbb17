"""Route for the organization-wide change request list (``listChangeRequestsForOrganization``)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query

from ..change_requests.listing import (
    CrFilters,
    filter_change_requests,
    readable_org_spaces,
    site_space_ids,
)
from ..change_requests.views import cr_json
from ..core.context import CtxDep
from ..core.pagination import PagingParams, paginate
from ..core.resources import load_org

router = APIRouter(tags=["change-requests"])

Status = Literal["draft", "open", "archived", "merged"]
Id = Annotated[str | None, Query(max_length=256)]


@router.get("/orgs/{organizationId}/change-requests")
def list_org_change_requests(
    ctx: CtxDep,
    organizationId: str,
    paging: PagingParams,
    status: Annotated[list[Status] | None, Query()] = None,
    creator: Id = None,
    contributor: Id = None,
    requestedReviewer: Id = None,
    site: Id = None,
    space: Id = None,
    topic: Id = None,
    styleguideRun: Id = None,
    finding: Literal["none", "all"] = "none",
    orderBy: Literal["updatedAt", "createdAt"] = "updatedAt",
) -> dict[str, Any]:
    """Change requests of every space of the organization the caller can read (status
    default ``open``), most recent first. This server has no site topics, style guide runs
    or triage findings: a ``topic`` or ``styleguideRun`` filter matches nothing and
    ``finding`` changes nothing."""
    with ctx.read() as tx:
        load_org(tx, ctx, organizationId)
        spaces = {s["id"]: s for s in readable_org_spaces(tx, organizationId, ctx.user_id)}
        if space is not None:
            spaces = {k: v for k, v in spaces.items() if k == space}
        if site is not None:
            linked = site_space_ids(tx, organizationId, site)
            spaces = {k: v for k, v in spaces.items() if k in linked}
        if topic is not None or styleguideRun is not None:
            spaces = {}
        filters = CrFilters(
            status=frozenset(status or ["open"]),
            creator=creator,
            contributor=contributor,
            requested_reviewer=requestedReviewer,
            order_by=orderBy,
        )
        items = filter_change_requests(
            tx,
            organizationId,
            (cr for space_id in spaces for cr in tx.list("change-request", space_id)),
            filters,
        )
        return paginate(items, paging, lambda cr: cr_json(tx, ctx, spaces[cr["space"]], cr))
