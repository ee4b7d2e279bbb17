"""Routes for sites: list, create, read, update, delete, adaptive schema, publishing.

Loading, structure and JSON views of sites live in :mod:`..site_views`, the structure rules
in :mod:`..site_rules` and the adaptive schema in :mod:`..site_adaptive`; the routes of
sections, site spaces and redirects in :mod:`.site_structure`.
"""

from __future__ import annotations

import secrets
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Response
from pydantic import Field, field_validator

from ..core.checks import deletable, require_org_role, updated_fields
from ..core.context import CtxDep
from ..core.errors import bad_request, conflict
from ..core.pagination import PagingParams, paginate
from ..core.resources import load_org
from ..core.schemas import Body, Role
from ..core.slugs import slugify, unique_slug
from ..core.storage import Tx
from ..sites.adaptive import adaptive_schema_json, adaptive_schema_problems, template_conditions
from ..sites.published import published_site_json
from ..sites.rules import (
    PROXY_RE,
    add_site_space,
    check_path,
    readable_space,
    set_default_site_space,
    touch,
)
from ..sites.views import (
    GROUP,
    REDIRECT,
    SECTION,
    SITE,
    SITE_SPACE,
    load_site,
    load_site_as,
    load_site_for_visitor,
    site_api_url,
    site_json,
    structure,
)
from ..spaces.rules import new_space

router = APIRouter(tags=["sites"])

SiteType = Literal["basic", "premium", "ultimate", "sponsored", "legacy-basic", "legacy-premium"]
SiteVisibility = Literal["public", "unlisted", "share-link", "visitor-auth"]
AgentsContext = Literal["excluded", "included"]


# -- request bodies ---------------------------------------------------------------------


class SiteCreate(Body):
    type: SiteType = "basic"
    title: str | None = Field(None, min_length=2, max_length=128)
    visibility: SiteVisibility = "public"
    spaces: list[str] = Field(default_factory=list, max_length=100)
    createSpace: bool = False


class AdaptiveContent(Body):
    enabled: bool


class SiteUpdate(Body):
    title: str | None = Field(None, min_length=2, max_length=128)
    visibility: SiteVisibility | None = None
    basename: str | None = Field(None, min_length=1, max_length=100)
    adaptiveContent: AdaptiveContent | None = None
    agentsContext: AgentsContext | None = None
    defaultLevel: Role | Literal["inherit"] | None = None
    defaultSiteSpace: str | None = None
    defaultSiteSection: str | None = None
    proxy: str | None = Field(None, max_length=512)

    @field_validator("basename")
    @classmethod
    def _basename(cls, value: str | None) -> str | None:
        return check_path(value)

    @field_validator("proxy")
    @classmethod
    def _proxy(cls, value: str | None) -> str | None:
        if value is not None and not PROXY_RE.match(value):
            raise ValueError(
                "must be a host and path without scheme, like 'company.com/docs' "
                r"(pattern ^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$)"
            )
        return value


class AdaptiveSchemaUpdate(Body):
    jsonSchema: dict[str, Any]


# -- sites ------------------------------------------------------------------------------


def _sites_of(tx: Tx, org_id: str) -> list[dict[str, Any]]:
    return tx.list(SITE, org_id)


@router.get("/orgs/{organizationId}/sites")
def list_sites(
    ctx: CtxDep,
    organizationId: str,
    paging: PagingParams,
    space: Annotated[str | None, Query(description="Only sites showing this space")] = None,
    title: Annotated[str | None, Query(max_length=128, description="Title contains")] = None,
    published: Annotated[bool | None, Query(description="Published or not")] = None,
    type: Annotated[list[SiteType] | None, Query(description="Site types")] = None,
) -> dict[str, Any]:
    with ctx.read() as tx:
        load_org(tx, ctx, organizationId)
        sites = _sites_of(tx, organizationId)
        if space is not None:
            sites = [
                s for s in sites if any(ss["space"] == space for ss in tx.list(SITE_SPACE, s["id"]))
            ]
        if title:
            sites = [s for s in sites if title.lower() in s["title"].lower()]
        if published is not None:
            sites = [s for s in sites if bool(s.get("published")) is published]
        if type:
            sites = [s for s in sites if s.get("type", "basic") in type]
        return paginate(sites, paging, lambda s: site_json(tx, ctx, s))


@router.post("/orgs/{organizationId}/sites", status_code=201)
def create_site(
    ctx: CtxDep,
    organizationId: str,
    response: Response,
    createSpace: Annotated[
        bool | None, Query(description="Also create a new space and add it to the site")
    ] = None,
    body: SiteCreate | None = None,
) -> dict[str, Any]:
    body = body or SiteCreate()  # every field is optional: no body at all is fine
    with ctx.write() as tx:
        load_org(tx, ctx, organizationId)
        require_org_role(
            tx,
            ctx,
            organizationId,
            "create",
            "Creating sites needs the 'create' role in the organization.",
        )
        if len(set(body.spaces)) != len(body.spaces):
            dup = next(s for s in body.spaces if body.spaces.count(s) > 1)
            raise bad_request(f"spaces: space '{dup}' is listed more than once")
        spaces = [readable_space(tx, ctx, organizationId, sid, "spaces") for sid in body.spaces]
        title = body.title or "Untitled site"
        now = ctx.now()
        site: dict[str, Any] = {
            "id": ctx.new_id(),
            "organization": organizationId,
            "type": body.type,
            "title": title,
            "visibility": body.visibility,
            "basename": unique_slug(
                slugify(title, "site"), {s["basename"] for s in _sites_of(tx, organizationId)}
            ),
            "published": False,
            "defaultLevel": "inherit",
            "adaptiveContent": False,
            "agentsContext": "included",
            "shareKey": secrets.token_urlsafe(24),
            "createdAt": now,
            "updatedAt": now,
            "createdBy": ctx.user_id,
        }
        tx.put(SITE, site["id"], site, scope=organizationId)
        if createSpace or body.createSpace:
            spaces.insert(0, new_space(tx, ctx, org_id=organizationId, title=title[:50]))
        for space in spaces:
            add_site_space(tx, ctx, site, space, None)
        response.headers["Location"] = site_api_url(ctx, organizationId, site["id"])
        return site_json(tx, ctx, site)


@router.get("/orgs/{organizationId}/sites/{siteId}")
def get_site(ctx: CtxDep, organizationId: str, siteId: str) -> dict[str, Any]:
    with ctx.read() as tx:
        _, site, _ = load_site(tx, ctx, organizationId, siteId)
        return site_json(tx, ctx, site)


_NOT_NULL = ("title", "visibility", "basename", "adaptiveContent", "agentsContext")


@router.patch("/orgs/{organizationId}/sites/{siteId}")
def update_site(ctx: CtxDep, organizationId: str, siteId: str, body: SiteUpdate) -> dict[str, Any]:
    fields = updated_fields(body, _NOT_NULL)
    with ctx.write() as tx:
        _, site, _ = load_site_as(tx, ctx, organizationId, siteId, "create")
        if "title" in fields:
            site["title"] = body.title
        if "visibility" in fields:
            site["visibility"] = body.visibility
            site.setdefault("shareKey", secrets.token_urlsafe(24))
        if "basename" in fields and body.basename != site["basename"]:
            other = next(
                (
                    s
                    for s in _sites_of(tx, organizationId)
                    if s["id"] != siteId and s["basename"] == body.basename
                ),
                None,
            )
            if other is not None:
                raise conflict(
                    f"basename: '{body.basename}' is already used by site '{other['id']}'"
                )
            site["basename"] = body.basename
        if "adaptiveContent" in fields and body.adaptiveContent is not None:
            site["adaptiveContent"] = body.adaptiveContent.enabled
        if "agentsContext" in fields:
            site["agentsContext"] = body.agentsContext
        if "defaultLevel" in fields:
            site["defaultLevel"] = body.defaultLevel
        if "proxy" in fields:
            if body.proxy is None:
                site.pop("proxy", None)
            else:
                site["proxy"] = body.proxy
        st = structure(tx, site)
        if "defaultSiteSection" in fields:
            if body.defaultSiteSection is None or st.section(body.defaultSiteSection) is None:
                raise bad_request(
                    f"defaultSiteSection: no section '{body.defaultSiteSection}' in this site"
                )
            site["defaultSiteSection"] = body.defaultSiteSection
        if "defaultSiteSpace" in fields:
            set_default_site_space(tx, st, body.defaultSiteSpace)
        touch(tx, ctx, site)
        return site_json(tx, ctx, site)


@router.delete("/orgs/{organizationId}/sites/{siteId}", status_code=204, response_class=Response)
def delete_site(ctx: CtxDep, organizationId: str, siteId: str) -> Response:
    """204 whether the site was deleted or did not exist; 404 for a site of another
    organization (the deletion rule)."""
    with ctx.write() as tx:
        load_org(tx, ctx, organizationId)
        if not deletable(tx, SITE, siteId, organizationId, "Site"):
            return Response(status_code=204)
        load_site_as(tx, ctx, organizationId, siteId, "admin")
        for kind in (REDIRECT, SITE_SPACE, SECTION, GROUP):
            tx.delete_scope(kind, siteId)
        tx.delete(SITE, siteId)
    return Response(status_code=204)


@router.get("/orgs/{organizationId}/sites/{siteId}/adaptive-schema")
def get_adaptive_schema(ctx: CtxDep, organizationId: str, siteId: str) -> dict[str, Any]:
    with ctx.read() as tx:
        _, site, _ = load_site(tx, ctx, organizationId, siteId)
        return adaptive_schema_json(ctx, site)


@router.put("/orgs/{organizationId}/sites/{siteId}/adaptive-schema")
def put_adaptive_schema(
    ctx: CtxDep, organizationId: str, siteId: str, body: AdaptiveSchemaUpdate
) -> dict[str, Any]:
    problems = adaptive_schema_problems(body.jsonSchema)
    with ctx.write() as tx:
        _, site, _ = load_site_as(tx, ctx, organizationId, siteId, "create")
        if problems:
            raise bad_request("; ".join(problems))
        site["adaptiveSchema"] = {"jsonSchema": body.jsonSchema, "updatedAt": ctx.now()}
        touch(tx, ctx, site)
        return adaptive_schema_json(ctx, site)


@router.get("/orgs/{organizationId}/sites/{siteId}/adaptive-schema/template-conditions")
def list_template_conditions(ctx: CtxDep, organizationId: str, siteId: str) -> dict[str, Any]:
    with ctx.read() as tx:
        _, site, _ = load_site(tx, ctx, organizationId, siteId)
        schema = adaptive_schema_json(ctx, site)["jsonSchema"]
        return {"items": template_conditions(schema)}


# -- publishing -------------------------------------------------------------------------


@router.get("/orgs/{organizationId}/sites/{siteId}/published")
def get_published_site(
    ctx: CtxDep,
    organizationId: str,
    siteId: str,
    shareKey: Annotated[str | None, Query(max_length=512)] = None,
) -> dict[str, Any]:
    with ctx.read() as tx:
        site, _ = load_site_for_visitor(
            tx, ctx, organizationId, siteId, shareKey, need_published=True
        )
        return published_site_json(tx, ctx, site)


@router.post("/orgs/{organizationId}/sites/{siteId}/publish")
def publish_site(ctx: CtxDep, organizationId: str, siteId: str) -> dict[str, Any]:
    with ctx.write() as tx:
        _, site, _ = load_site_as(tx, ctx, organizationId, siteId, "admin")
        if not site.get("published"):
            site["published"] = True
            site["publishedAt"] = ctx.now()
            touch(tx, ctx, site)
        return site_json(tx, ctx, site)


@router.post("/orgs/{organizationId}/sites/{siteId}/unpublish")
def unpublish_site(ctx: CtxDep, organizationId: str, siteId: str) -> dict[str, Any]:
    with ctx.write() as tx:
        _, site, _ = load_site_as(tx, ctx, organizationId, siteId, "admin")
        if site.get("published"):
            site["published"] = False
            touch(tx, ctx, site)
        return site_json(tx, ctx, site)
