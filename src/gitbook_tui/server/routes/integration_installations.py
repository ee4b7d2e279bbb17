"""Routes for one installation of an integration: uninstall it, the spaces it is installed
on (list, install on a space, uninstall from a space), and an organization's installations.

Rules where the official description is silent: changing an installation needs the
``admin`` role on its organization; an installation with ``space_selection`` ``all``
reaches every space, so installing it on one space changes nothing, and uninstalling it
from one space turns the selection into ``selected`` with every other space kept.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Response
from fastapi.responses import JSONResponse
from pydantic import Field

from ..core.checks import require_org_role
from ..core.context import Ctx, CtxDep
from ..core.errors import not_found
from ..core.pagination import PagingParams, paginate
from ..core.permissions import org_role
from ..core.resources import load_org
from ..core.schemas import Body
from ..core.storage import Tx
from ..integrations.schemas import NameParam
from ..integrations.views import (
    content_item_json,
    installation_json,
    installed_spaces,
    integration_json,
    load_integration,
    org_spaces,
    visible_installations,
)

router = APIRouter(tags=["integration installations"])

Extended = Annotated[bool, Query(description="Return the full Space objects instead of ids")]


class SpaceInstall(Body):
    space: str = Field(min_length=1, max_length=100, description="The space to install on")


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
        tx.delete("installation", installationId)
    return Response(status_code=205)


@router.get("/integrations/{integrationName}/installations/{installationId}/spaces")
def list_installation_spaces(
    ctx: CtxDep,
    integrationName: NameParam,
    installationId: str,
    paging: PagingParams,
    extended: Extended = False,
) -> dict[str, Any]:
    with ctx.read() as tx:
        inst = _installation(tx, ctx, integrationName, installationId)
        pairs = [(inst, space) for space in installed_spaces(tx, inst)]
        return paginate(pairs, paging, lambda p: content_item_json(tx, ctx, p, "space", extended))


@router.post("/integrations/{integrationName}/installations/{installationId}/spaces")
def install_on_space(
    ctx: CtxDep,
    integrationName: NameParam,
    installationId: str,
    body: SpaceInstall,
    extended: Extended = False,
) -> JSONResponse:
    with ctx.write() as tx:
        inst = _installation(tx, ctx, integrationName, installationId)
        _require_admin(tx, ctx, inst)
        space = next(
            (s for s in org_spaces(tx, inst["organization"]) if s["id"] == body.space), None
        )
        if space is None:
            raise not_found("Space", body.space)
        if inst.get("space_selection", "all") != "all":
            record = {"installation": installationId, "space": space["id"], "createdAt": ctx.now()}
            tx.put(
                "installation-space",
                f"{installationId}:{space['id']}",
                record,
                scope=installationId,
            )
        result = content_item_json(tx, ctx, (inst, space), "space", extended)
    return JSONResponse(result, status_code=201)


@router.delete(
    "/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}",
    status_code=205,
    response_class=Response,
)
def uninstall_from_space(
    ctx: CtxDep, integrationName: NameParam, installationId: str, spaceId: str
) -> Response:
    """205 when uninstalled from the space, 204 when it was not installed there."""
    with ctx.write() as tx:
        inst = _installation(tx, ctx, integrationName, installationId)
        _require_admin(tx, ctx, inst)
        reached = installed_spaces(tx, inst)
        if spaceId not in {s["id"] for s in reached}:
            return Response(status_code=204)
        if inst.get("space_selection", "all") == "all":
            inst["space_selection"] = "selected"
            inst["updatedAt"] = ctx.now()
            tx.put("installation", inst["id"], inst)
            for space in reached:
                if space["id"] != spaceId:
                    record = {
                        "installation": inst["id"],
                        "space": space["id"],
                        "createdAt": ctx.now(),
                    }
                    tx.put(
                        "installation-space",
                        f"{inst['id']}:{space['id']}",
                        record,
                        scope=inst["id"],
                    )
        else:
            tx.delete("installation-space", f"{installationId}:{spaceId}")
    return Response(status_code=205)
