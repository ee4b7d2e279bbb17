"""Routes for organizations."""

from __future__ import annotations

import re
from typing import Any

from fastapi import APIRouter
from pydantic import Field, field_validator

from ..core.context import CtxDep
from ..core.errors import forbidden
from ..core.merge_rules import OrgMergeRules
from ..core.pagination import PagingParams, paginate
from ..core.permissions import org_role
from ..core.resources import load_org, org_json
from ..core.schemas import Body, Role

router = APIRouter(tags=["organizations"])

_HOSTNAME = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$")


class DefaultContent(Body):
    type: str
    site: str | None = None


class OrganizationUpdate(Body):
    title: str | None = Field(None, min_length=1, max_length=100)
    emailDomains: list[str] | None = None
    hostname: str | None = None
    defaultRole: Role | None = None
    defaultContent: DefaultContent | None = None
    logo: str | None = Field(None, max_length=2048)
    sso: bool | None = None
    ai: bool | None = None
    inviteLinks: bool | None = None
    mergeRules: OrgMergeRules | None = None

    @field_validator("hostname")
    @classmethod
    def _hostname(cls, value: str | None) -> str | None:
        if value is not None and not _HOSTNAME.match(value):
            raise ValueError("must be lowercase letters, digits and dashes (1-63 characters)")
        return value

    @field_validator("emailDomains")
    @classmethod
    def _domains(cls, value: list[str] | None) -> list[str] | None:
        for domain in value or []:
            if "." not in domain or "@" in domain or " " in domain:
                raise ValueError(f"'{domain}' is not a domain name")
        return value


@router.get("/orgs")
def list_organizations(ctx: CtxDep, paging: PagingParams) -> dict[str, Any]:
    with ctx.read() as tx:
        orgs = [o for o in tx.list("org") if org_role(tx, o["id"], ctx.user_id) is not None]
        return paginate(orgs, paging, lambda o: org_json(tx, ctx, o))


@router.get("/orgs/{organizationId}")
def get_organization(ctx: CtxDep, organizationId: str) -> dict[str, Any]:
    with ctx.read() as tx:
        return org_json(tx, ctx, load_org(tx, ctx, organizationId))


@router.patch("/orgs/{organizationId}")
def update_organization(
    ctx: CtxDep, organizationId: str, body: OrganizationUpdate
) -> dict[str, Any]:
    with ctx.write() as tx:
        org = load_org(tx, ctx, organizationId)
        if org_role(tx, organizationId, ctx.user_id) != "admin":
            raise forbidden("Only organization admins can change the organization.")
        changes = body.model_dump(exclude_unset=True, mode="json")
        if "mergeRules" in changes and changes["mergeRules"] is None:
            changes.pop("mergeRules")  # the rules are a setting; they cannot be unset
        org.update(changes)
        tx.put("org", org["id"], org)
        return org_json(tx, ctx, org)


@router.get("/email-domains/{emailDomain}/orgs")
def list_organizations_for_domain(ctx: CtxDep, emailDomain: str) -> dict[str, Any]:
    domain = emailDomain.lower()
    with ctx.read() as tx:
        orgs = [
            o
            for o in tx.list("org")
            if domain in [d.lower() for d in o.get("emailDomains", [])]
            and (o.get("inviteLinks") or org_role(tx, o["id"], ctx.user_id) is not None)
        ]
        return {"organizations": [org_json(tx, ctx, o) for o in orgs]}
