"""Routes for integrations: publish, installations, events, space/site items, dev mode, render.

The rules where the contract is silent live with the code that applies them: visibility,
list filters and who sees installations and events in :mod:`..integration_views`,
publishing in :mod:`..integration_publish`, events and their delivery to a development
tunnel in :mod:`..integration_events`, renders in :mod:`..integration_render`. Kept here:

- List order: by name (case-insensitive).
- DELETE needs ``admin`` on the owner org: 205, or 204 when no such integration exists; it
  removes installations and events.
- Installing (POST .../installations) needs ``admin`` on the target organization; a
  ``private`` integration installs only in its owner organization. Optional local extension
  fields: ``configuration``, ``externalIds`` (≤ 5), ``space_selection``/``site_selection``
  (default ``all``). Installing again in the same organization updates that installation
  (201 as well: the official description declares no other success status) and its event
  carries ``previous: {status, configuration}``; a first installation's event has none.
- ``extended=true`` on space and site items renders the Space / Site objects.
- Events list newest first.
- Dev mode (PUT 204 / DELETE 205) needs ``create`` on the owner organization; its
  ``development`` settings are shown to members of the owner organization in the
  Integration JSON.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Response
from fastapi.responses import JSONResponse

from ...lzstring import (
    compress_to_encoded_uri_component as lz_compress_to_uri,
)
from ...lzstring import (
    decompress_from_encoded_uri_component as lz_decompress_from_uri,
)
from ..core.checks import require_org_role
from ..core.context import CtxDep
from ..core.errors import forbidden, not_found
from ..core.pagination import PagingParams, paginate
from ..core.permissions import org_role
from ..core.url_guard import require_fetchable
from ..integrations.events import deliver, dev_fields, record_event
from ..integrations.publish import publish
from ..integrations.render import parse_compressed_request, render
from ..integrations.schemas import (
    NAME_PATTERN,
    Category,
    DevMode,
    InstallBody,
    NameParam,
    PublishIntegration,
    RenderRequest,
    Scope,
    Target,
)
from ..integrations.views import (
    IntegrationFilters,
    content_item_json,
    content_items,
    event_json,
    installation_in,
    installation_json,
    integration_json,
    load_for_events,
    load_integration,
    memberships,
    require_owner,
    visible_installations,
)

# The tests (and older callers) import the LZ-string codec under these names from here.
__all__ = ["lz_compress_to_uri", "lz_decompress_from_uri", "router"]

router = APIRouter(tags=["integrations"])


# -- integrations ------------------------------------------------------------------------------
@router.get("/integrations")
def list_integrations(
    ctx: CtxDep,
    paging: PagingParams,
    search: Annotated[str | None, Query(max_length=256)] = None,
    category: Category | None = None,
    blockDomain: Annotated[str | None, Query(pattern=NAME_PATTERN, max_length=100)] = None,
    blocks: bool | None = None,
    contentSources: bool | None = None,
    owner: str | None = None,
    scope: Scope | None = None,
    target: Target | None = None,
) -> dict[str, Any]:
    filters = IntegrationFilters(
        search, category, blockDomain, blocks, contentSources, owner, scope, target
    )
    with ctx.read() as tx:
        member_orgs = {m["organization"] for m in memberships(tx, ctx.user_id)}
        items = [
            integ
            for integ in tx.list("integration")
            if (integ.get("visibility") == "public" or integ["organization"] in member_orgs)
            and filters.matches(integ)
        ]
        items.sort(key=lambda i: (i["name"].lower(), i["name"]))
        return paginate(items, paging, lambda i: integration_json(tx, ctx, i))


@router.get("/integrations/{integrationName}")
def get_integration(ctx: CtxDep, integrationName: NameParam) -> dict[str, Any]:
    with ctx.read() as tx:
        return integration_json(tx, ctx, load_integration(tx, ctx, integrationName))


@router.post("/integrations/{integrationName}")
def publish_integration(
    ctx: CtxDep, integrationName: NameParam, body: PublishIntegration
) -> dict[str, Any]:
    with ctx.write() as tx:
        return integration_json(tx, ctx, publish(tx, ctx, integrationName, body))


@router.delete("/integrations/{integrationName}")
def unpublish_integration(ctx: CtxDep, integrationName: NameParam) -> Response:
    with ctx.write() as tx:
        if tx.get("integration", integrationName) is None:
            return Response(status_code=204)
        # one the caller cannot see is a 404, as for a read (the deletion rule)
        integ = load_integration(tx, ctx, integrationName)
        require_owner(tx, ctx, integ, "admin", "Deleting an integration")
        tx.delete_scope("installation", integrationName)
        tx.delete_scope("integration-event", integrationName)
        tx.delete("integration", integrationName)
    return Response(status_code=205)


# -- installations -----------------------------------------------------------------------------
@router.get("/integrations/{integrationName}/installations")
def list_installations(
    ctx: CtxDep,
    integrationName: NameParam,
    paging: PagingParams,
    externalId: Annotated[str | None, Query(max_length=512)] = None,
) -> dict[str, Any]:
    with ctx.read() as tx:
        integ = load_integration(tx, ctx, integrationName)
        items = visible_installations(tx, ctx, integ)
        if externalId is not None:
            items = [i for i in items if externalId in i.get("externalIds", [])]
        return paginate(items, paging, lambda i: installation_json(tx, ctx, i))


@router.post("/integrations/{integrationName}/installations")
def install_integration(ctx: CtxDep, integrationName: NameParam, body: InstallBody) -> Response:
    with ctx.write() as tx:
        integ = load_integration(tx, ctx, integrationName)
        org = tx.get("org", body.organization)
        if org is None or org_role(tx, body.organization, ctx.user_id) is None:
            raise not_found("Organization", body.organization)
        require_org_role(
            tx,
            ctx,
            body.organization,
            "admin",
            "Installing an integration needs the 'admin' role on the organization.",
        )
        if integ.get("visibility") == "private" and org["id"] != integ["organization"]:
            raise forbidden(
                f"Integration '{integ['name']}' is private: it can only be installed in the "
                "organization that publishes it."
            )
        now = ctx.now()
        inst = installation_in(tx, integ["name"], org["id"])
        previous = None
        if inst is None:
            inst = {
                "id": ctx.new_id(),
                "integration": integ["name"],
                "organization": org["id"],
                "space_selection": "all",
                "site_selection": "all",
                "configuration": {},
                "externalIds": [],
                "createdAt": now,
                "installedBy": ctx.user_id,
            }
        else:
            previous = {"status": inst["status"], "configuration": inst.get("configuration", {})}
        for key in ("configuration", "externalIds", "space_selection", "site_selection"):
            value = getattr(body, key)
            if value is not None:
                inst[key] = value
        inst["status"] = "active"
        inst["updatedAt"] = now
        tx.put("installation", inst["id"], inst, scope=integ["name"])
        dispatch = record_event(
            tx,
            ctx,
            integ,
            "installation_setup",
            installation=inst,
            fields={"status": inst["status"], "previous": previous},
        )
        result = installation_json(tx, ctx, inst)
    deliver(ctx, [dispatch])
    return JSONResponse(
        result,
        status_code=201,
        headers={"Location": result["urls"]["location"]},
    )


@router.get("/integrations/{integrationName}/events")
def list_integration_events(
    ctx: CtxDep, integrationName: NameParam, paging: PagingParams
) -> dict[str, Any]:
    with ctx.read() as tx:
        integ = load_for_events(tx, ctx, integrationName)
        events = list(reversed(tx.list("integration-event", integ["name"])))
        return paginate(events, paging, event_json)


@router.get("/integrations/{integrationName}/events/{eventId}")
def get_integration_event(ctx: CtxDep, integrationName: NameParam, eventId: str) -> dict[str, Any]:
    with ctx.read() as tx:
        integ = load_for_events(tx, ctx, integrationName)
        event = tx.get("integration-event", eventId)
        if event is None or event.get("integration") != integ["name"]:
            raise not_found("Integration event", eventId)
        return {"event": event_json(event), "trace": {"logs": event.get("trace", [])}}


# -- space and site items ----------------------------------------------------------------------
ExtendedParam = Annotated[
    bool, Query(description="Return the full Space/Site objects instead of ids")
]


@router.get("/integrations/{integrationName}/spaces")
def list_integration_spaces(
    ctx: CtxDep,
    integrationName: NameParam,
    paging: PagingParams,
    externalId: Annotated[str | None, Query(max_length=512)] = None,
    extended: ExtendedParam = False,
) -> dict[str, Any]:
    with ctx.read() as tx:
        pairs = content_items(tx, ctx, integrationName, "space", externalId)
        return paginate(pairs, paging, lambda p: content_item_json(tx, ctx, p, "space", extended))


@router.get("/integrations/{integrationName}/sites")
def list_integration_sites(
    ctx: CtxDep,
    integrationName: NameParam,
    paging: PagingParams,
    externalId: Annotated[str | None, Query(max_length=512)] = None,
    extended: ExtendedParam = False,
) -> dict[str, Any]:
    with ctx.read() as tx:
        pairs = content_items(tx, ctx, integrationName, "site", externalId)
        return paginate(pairs, paging, lambda p: content_item_json(tx, ctx, p, "site", extended))


# -- development mode --------------------------------------------------------------------------
@router.put("/integrations/{integrationName}/dev")
def set_development_mode(ctx: CtxDep, integrationName: NameParam, body: DevMode) -> Response:
    with ctx.read() as tx:
        integ = load_integration(tx, ctx, integrationName)
        require_owner(tx, ctx, integ, "create", "Development mode")
    require_fetchable(body.tunnelUrl, ctx.state.fetch_policy, "tunnelUrl")
    with ctx.write() as tx:
        integ = load_integration(tx, ctx, integrationName)
        require_owner(tx, ctx, integ, "create", "Development mode")
        previous = integ.get("development")
        integ["development"] = {
            "tunnelUrl": body.tunnelUrl,
            "all": body.all,
            "enabledAt": ctx.now(),
            "enabledBy": ctx.user_id,
        }
        tx.put("integration", integ["name"], integ)
        dispatch = record_event(
            tx,
            ctx,
            integ,
            "dev_mode_enabled",
            organization=integ["organization"],
            fields=dev_fields(tx, integ, previous),
        )
    deliver(ctx, [dispatch])
    return Response(status_code=204)


@router.delete("/integrations/{integrationName}/dev")
def disable_development_mode(ctx: CtxDep, integrationName: NameParam) -> Response:
    with ctx.write() as tx:
        integ = load_integration(tx, ctx, integrationName)
        require_owner(tx, ctx, integ, "create", "Development mode")
        previous = integ.pop("development", None)
        if previous is not None:
            tx.put("integration", integ["name"], integ)
            record_event(
                tx,
                ctx,
                integ,
                "dev_mode_disabled",
                organization=integ["organization"],
                fields=dev_fields(tx, integ, previous),
            )
    return Response(status_code=205)


# -- render ------------------------------------------------------------------------------------
@router.get("/integrations/{integrationName}/render")
def render_integration_ui_get(
    ctx: CtxDep,
    integrationName: NameParam,
    request: Annotated[str, Query(min_length=1, max_length=200_000)],
) -> JSONResponse:
    return render(ctx, integrationName, parse_compressed_request(request))


@router.post("/integrations/{integrationName}/render")
def render_integration_ui_post(
    ctx: CtxDep, integrationName: NameParam, body: RenderRequest
) -> JSONResponse:
    return render(ctx, integrationName, body)
