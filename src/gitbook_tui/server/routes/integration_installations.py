"""Routes for one installation of an integration: uninstall it, the spaces and the sites it
is installed on (list, install on one, uninstall from one), and an organization's
installations.

Rules where the official description is silent: changing an installation needs the
``admin`` role on its organization; an installation with ``space_selection`` ``all``
reaches every space, so installing it on one space changes nothing, and uninstalling it
from one space turns the selection into ``selected`` with every other space kept (sites
the same with ``site_selection``).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Response
from fastapi.responses import JSONResponse
from pydantic import Field

from ..core.checks import require_org_role
from ..core.context import Ctx, CtxDep
from ..core.errors import not_found
from ..core.pagination import Paging, PagingParams, paginate
from ..core.permissions import org_role
from ..core.resources import load_org
from ..core.schemas import Body
from ..core.storage import Tx
from ..integrations.schemas import NameParam
from ..integrations.views import (
    content_item_json,
    installation_json,
    installed_targets,
    integration_json,
    load_integration,
    org_targets,
    visible_installations,
)

router = APIRouter(tags=["integration installations"])

Extended = Annotated[bool, Query(description="Return the full objects instead of ids")]


class SpaceInstall(Body):
    space: str = Field(min_length=1, max_length=100, description="The space to install on")


class SiteInstall(Body):
    siteId: str = Field(min_length=1, max_length=100, description="The site to install on")


def _installation(tx: Tx, ctx: Ctx, name: str, installation_id: str) -> dict[str, Any]:
    integ = load_integration(tx, ctx, name)
    for inst in visible_installations(tx, ctx, integ):
        if inst["id"] == installation_id:
            return inst
    raise not_found("Installation", installation_id)


def _require_admin(tx: Tx, ctx: Ctx, inst: dict[str, Any]) -> None:
    require_org_role(
        tx,
        ctx,
        inst["organization"],
        "admin",
        "Changing an integration's installation needs the 'admin' role on the organization.",
    )


@router.get("/orgs/{organizationId}/installations")
def list_org_installations(
    ctx: CtxDep, organizationId: str, paging: PagingParams
) -> dict[str, Any]:
    with ctx.read() as tx:
        load_org(tx, ctx, organizationId)
        pairs = []
        for inst in tx.list("installation"):
            if inst["organization"] != organizationId:
                continue
            integ = tx.get("integration", inst["integration"])
            if integ is not None:
                pairs.append((integ, inst))
        pairs.sort(key=lambda p: str(p[0].get("title") or p[0]["name"]).lower())
        return paginate(
            pairs,
            paging,
            lambda p: {
                "integration": integration_json(tx, ctx, p[0]),
                "installation": installation_json(tx, ctx, p[1]),
            },
        )


@router.delete(
    "/integrations/{integrationName}/installations/{installationId}",
    status_code=205,
    response_class=Response,
)
def uninstall_integration(ctx: CtxDep, integrationName: NameParam, installationId: str) -> Response:
    """205 when uninstalled, 204 when there was no such installation."""
    with ctx.write() as tx:
        integ = load_integration(tx, ctx, integrationName)
        inst = next(
            (i for i in tx.list("installation", integ["name"]) if i["id"] == installationId), None
        )
        if inst is None or org_role(tx, inst["organization"], ctx.user_id) is None:
            return Response(status_code=204)
        _require_admin(tx, ctx, inst)
        tx.delete_scope("installation-space", installationId)
        tx.delete_scope("installation-site", installationId)
        tx.delete("installation", installationId)
    return Response(status_code=205)


def _list_targets(
    ctx: Ctx, name: str, installation_id: str, kind: str, paging: Paging, extended: bool
) -> dict[str, Any]:
    with ctx.read() as tx:
        inst = _installation(tx, ctx, name, installation_id)
        pairs = [(inst, target) for target in installed_targets(tx, inst, kind)]
        return paginate(pairs, paging, lambda p: content_item_json(tx, ctx, p, kind, extended))


def _choose(ctx: Ctx, tx: Tx, inst: dict[str, Any], kind: str, target_id: str) -> None:
    record = {"installation": inst["id"], kind: target_id, "createdAt": ctx.now()}
    tx.put(f"installation-{kind}", f"{inst['id']}:{target_id}", record, scope=inst["id"])


def _install_on(
    ctx: Ctx, name: str, installation_id: str, kind: str, target_id: str, extended: bool
) -> JSONResponse:
    with ctx.write() as tx:
        inst = _installation(tx, ctx, name, installation_id)
        _require_admin(tx, ctx, inst)
        targets = org_targets(tx, inst["organization"], kind)
        target = next((t for t in targets if t["id"] == target_id), None)
        if target is None:
            raise not_found(kind.capitalize(), target_id)
        if inst.get(f"{kind}_selection", "all") != "all":
            _choose(ctx, tx, inst, kind, target["id"])
        result = content_item_json(tx, ctx, (inst, target), kind, extended)
    return JSONResponse(result, status_code=201)


def _uninstall_from(
    ctx: Ctx, name: str, installation_id: str, kind: str, target_id: str
) -> Response:
    with ctx.write() as tx:
        inst = _installation(tx, ctx, name, installation_id)
        _require_admin(tx, ctx, inst)
        reached = installed_targets(tx, inst, kind)
        if target_id not in {t["id"] for t in reached}:
            return Response(status_code=204)
        selection = f"{kind}_selection"
        if inst.get(selection, "all") == "all":
            inst[selection] = "selected"
            inst["updatedAt"] = ctx.now()
            tx.put("installation", inst["id"], inst)
            for target in reached:
                if target["id"] != target_id:
                    _choose(ctx, tx, inst, kind, target["id"])
        else:
            tx.delete(f"installation-{kind}", f"{installation_id}:{target_id}")
    return Response(status_code=205)


@router.get("/integrations/{integrationName}/installations/{installationId}/spaces")
def list_installation_spaces(
    ctx: CtxDep,
    integrationName: NameParam,
    installationId: str,
    paging: PagingParams,
    extended: Extended = False,
) -> dict[str, Any]:
    return _list_targets(ctx, integrationName, installationId, "space", paging, extended)


@router.post("/integrations/{integrationName}/installations/{installationId}/spaces")
def install_on_space(
    ctx: CtxDep,
    integrationName: NameParam,
    installationId: str,
    body: SpaceInstall,
    extended: Extended = False,
) -> JSONResponse:
    return _install_on(ctx, integrationName, installationId, "space", body.space, extended)


@router.delete(
    "/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}",
    status_code=205,
    response_class=Response,
)
def uninstall_from_space(
    ctx: CtxDep, integrationName: NameParam, installationId: str, spaceId: str
) -> Response:
    """205 when uninstalled from the space, 204 when it was not installed there."""
    return _uninstall_from(ctx, integrationName, installationId, "space", spaceId)


@router.get("/integrations/{integrationName}/installations/{installationId}/sites")
def list_installation_sites(
    ctx: CtxDep,
    integrationName: NameParam,
    installationId: str,
    paging: PagingParams,
    extended: Extended = False,
) -> dict[str, Any]:
    return _list_targets(ctx, integrationName, installationId, "site", paging, extended)


@router.post("/integrations/{integrationName}/installations/{installationId}/sites")
def install_on_site(
    ctx: CtxDep,
    integrationName: NameParam,
    installationId: str,
    body: SiteInstall,
    extended: Extended = False,
) -> JSONResponse:
    return _install_on(ctx, integrationName, installationId, "site", body.siteId, extended)


@router.delete(
    "/integrations/{integrationName}/installations/{installationId}/sites/{siteId}",
    status_code=205,
    response_class=Response,
)
def uninstall_from_site(
    ctx: CtxDep, integrationName: NameParam, installationId: str, siteId: str
) -> Response:
    """205 when uninstalled from the site, 204 when it was not installed there."""
    return _uninstall_from(ctx, integrationName, installationId, "site", siteId)
