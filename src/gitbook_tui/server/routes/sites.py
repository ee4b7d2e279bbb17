"""Routes for sites: list, create, read, update, delete, adaptive schema, publishing.

Storage: ``site`` documents (scope: organization id); a site's sections, site spaces and
redirects are ``site-section`` / ``site-space`` / ``site-redirect`` documents scoped by the
site id (see :mod:`.site_structure`). The helpers shared by both modules (loading a site,
its structure, the JSON renderers and published URLs) live here.

A site's ``adaptiveSchema`` (``{jsonSchema, updatedAt}``) and its ``shareKey`` (the secret
of share-link visibility) are kept on the site document itself.
"""

from __future__ import annotations

import re
import secrets
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

import jsonschema
from fastapi import APIRouter, Query, Response
from pydantic import Field, field_validator

from ..context import Ctx, CtxDep
from ..errors import ApiError, bad_request, conflict, forbidden, not_found
from ..pagination import PagingParams, paginate
from ..permissions import at_least, org_role, require, space_role
from ..resources import load_org, space_json
from ..schemas import Body, Role
from ..storage import Tx
from .spaces import new_space

router = APIRouter(tags=["sites"])

SITE = "site"
SECTION = "site-section"
SITE_SPACE = "site-space"
REDIRECT = "site-redirect"

SiteType = Literal["basic", "premium", "ultimate", "sponsored", "legacy-basic", "legacy-premium"]
SiteVisibility = Literal["public", "unlisted", "share-link", "visitor-auth"]
AgentsContext = Literal["excluded", "included"]

# Pattern of the contract (section 4.8). The custom ``hostname`` of section 2.9 is not
# settable through this API (the openapi's site update has no such field): it is shown
# when present and otherwise managed outside these routes.
PROXY_RE = re.compile(r"^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$", re.ASCII)
# Paths of sections and site spaces and the site basename: URL path segments made of
# unreserved characters (the openapi only bounds their length: 1-100).
PATH_RE = re.compile(r"^[A-Za-z0-9._~-]+(?:/[A-Za-z0-9._~-]+)*$")
PATH_RULE = (
    "must be 1-100 URL-safe characters (letters, digits, '-', '_', '.', '~'; '/' between segments)"
)

DRAFT7 = "http://json-schema.org/draft-07/schema#"
CLAIM_NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
UNSIGNED_DESCRIPTION = "Unsigned claims of the site visitor."


# -- small helpers -----------------------------------------------------------------------


def slugify(text: str, fallback: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")
    return slug[:100].strip("-") or fallback


def unique_slug(base: str, taken: Iterable[str]) -> str:
    used = set(taken)
    if base not in used:
        return base
    number = 2
    while f"{base}-{number}" in used:
        number += 1
    return f"{base}-{number}"


def check_path(value: str | None) -> str | None:
    """Validator of ``path``/``basename`` values."""
    if value is not None and not PATH_RE.match(value):
        raise ValueError(PATH_RULE)
    return value


def successor(items: list[dict[str, Any]], item_id: str) -> str | None:
    """The item that takes over when ``item_id`` goes away: the next one, else the first."""
    ids = [i["id"] for i in items]
    if item_id not in ids:
        return ids[0] if ids else None
    index = ids.index(item_id)
    rest = ids[:index] + ids[index + 1 :]
    if not rest:
        return None
    return rest[index] if index < len(rest) else rest[0]


# -- loading and access -----------------------------------------------------------------


def load_site(
    tx: Tx, ctx: Ctx, org_id: str, site_id: str
) -> tuple[dict[str, Any], dict[str, Any], str]:
    """The organization, the site and the caller's organization role (404 for non-members)."""
    org = load_org(tx, ctx, org_id)
    site = tx.get(SITE, site_id)
    if site is None or site.get("organization") != org_id:
        raise not_found("Site", site_id)
    role = org_role(tx, org_id, ctx.user_id)
    assert role is not None  # load_org guarantees membership
    return org, site, role


def load_site_as(
    tx: Tx, ctx: Ctx, org_id: str, site_id: str, needed: str
) -> tuple[dict[str, Any], dict[str, Any], str]:
    org, site, role = load_site(tx, ctx, org_id, site_id)
    require(role, needed, "Site", site_id)
    return org, site, role


def load_site_for_visitor(
    tx: Tx,
    ctx: Ctx,
    org_id: str,
    site_id: str,
    share_key: str | None,
    *,
    need_published: bool = False,
) -> tuple[dict[str, Any], str | None]:
    """A site for reads that take a share key (sections, site spaces, published, redirect).

    Members of the organization read every site of it; a share key they send must still
    be the right one for a share-link site (403 otherwise). Anyone else reads only
    published sites that are ``public``/``unlisted``, or ``share-link`` with the right
    share key; everything else is a 404.
    """
    org = tx.get("org", org_id)
    site = tx.get(SITE, site_id)
    if org is None or site is None or site.get("organization") != org_id:
        raise not_found("Site", site_id)
    role = org_role(tx, org_id, ctx.user_id)
    visibility = site.get("visibility")
    key_ok = share_key is not None and secrets.compare_digest(
        share_key.encode(), str(site.get("shareKey", "")).encode()
    )
    if role is None:
        readable = site.get("published") and (
            visibility in ("public", "unlisted") or (visibility == "share-link" and key_ok)
        )
        if not readable:
            raise not_found("Site", site_id)
    elif visibility == "share-link" and share_key is not None and not key_ok:
        raise forbidden("shareKey: the share key does not match this share-link site.")
    if need_published and not site.get("published"):
        raise ApiError(404, f"Site '{site_id}' is not published; publish it first.")
    return site, role


# -- structure of a site ----------------------------------------------------------------


@dataclass
class Structure:
    """A site's sections and site spaces (in order) with their defaults and URLs."""

    site: dict[str, Any]
    base: str
    sections: list[dict[str, Any]]
    site_spaces: list[dict[str, Any]]
    _members: dict[str | None, list[dict[str, Any]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for ss in self.site_spaces:
            self._members.setdefault(ss.get("section"), []).append(ss)

    def members(self, section_id: str | None) -> list[dict[str, Any]]:
        return self._members.get(section_id, [])

    def section(self, section_id: str) -> dict[str, Any] | None:
        return next((s for s in self.sections if s["id"] == section_id), None)

    def site_space(self, site_space_id: str) -> dict[str, Any] | None:
        return next((s for s in self.site_spaces if s["id"] == site_space_id), None)

    def default_section_id(self) -> str | None:
        ids = [s["id"] for s in self.sections]
        pointer = self.site.get("defaultSiteSection")
        if pointer in ids:
            return str(pointer)
        return ids[0] if ids else None

    def default_site_space_id(self, section_id: str | None) -> str | None:
        ids = [s["id"] for s in self.members(section_id)]
        if section_id is None:
            pointer = self.site.get("defaultSiteSpace")
        else:
            section = self.section(section_id)
            pointer = section.get("defaultSiteSpace") if section else None
        if pointer in ids:
            return str(pointer)
        return ids[0] if ids else None

    def ordered_site_spaces(self) -> list[dict[str, Any]]:
        """Root site spaces first, then each section's, in section order."""
        ordered = list(self.members(None))
        for section in self.sections:
            ordered += self.members(section["id"])
        return ordered

    def is_default(self, ss: dict[str, Any]) -> bool:
        return self.default_site_space_id(ss.get("section")) == ss["id"]

    def section_url(self, section: dict[str, Any]) -> str:
        if self.default_section_id() == section["id"]:
            return self.base
        return f"{self.base}/{section['path']}"

    def site_space_url(self, ss: dict[str, Any]) -> str:
        section = self.section(ss["section"]) if ss.get("section") else None
        root = self.section_url(section) if section else self.base
        return root if self.is_default(ss) else f"{root}/{ss['path']}"


def site_base_url(tx: Tx, site: dict[str, Any]) -> str:
    """Where the site is published: its proxy, else its custom hostname, else
    ``https://{org hostname}.gitbook.io/{basename}``."""
    if site.get("proxy"):
        return f"https://{site['proxy']}"
    if site.get("hostname"):
        return f"https://{site['hostname']}"
    org = tx.get("org", site["organization"]) or {}
    host = org.get("hostname") or site["organization"].lower()
    return f"https://{host}.gitbook.io/{site['basename']}"


def structure(tx: Tx, site: dict[str, Any]) -> Structure:
    return Structure(
        site=site,
        base=site_base_url(tx, site),
        sections=tx.list(SECTION, site["id"]),
        site_spaces=tx.list(SITE_SPACE, site["id"]),
    )


# -- renderers --------------------------------------------------------------------------


def site_json(tx: Tx, ctx: Ctx, site: dict[str, Any]) -> dict[str, Any]:
    org_id = site["organization"]
    role = org_role(tx, org_id, ctx.user_id)
    published = bool(site.get("published"))
    urls = {
        "location": f"{ctx.api}/orgs/{org_id}/sites/{site['id']}",
        "app": f"{ctx.app}/o/{org_id}/sites/{site['id']}",
        "preview": f"{ctx.app}/o/{org_id}/sites/{site['id']}/preview",
    }
    if published:
        urls["published"] = site_base_url(tx, site)
    body: dict[str, Any] = {
        "object": "site",
        "id": site["id"],
        "type": site.get("type", "basic"),
        "appliedType": site.get("type", "basic"),
        "title": site["title"],
        "basename": site["basename"],
        "visibility": site.get("visibility", "public"),
        "defaultLevel": site.get("defaultLevel", "inherit"),
        "published": published,
        "siteSpaces": tx.count(SITE_SPACE, site["id"]),
        "createdAt": site["createdAt"],
        "adaptiveContent": {"enabled": bool(site.get("adaptiveContent", False))},
        "agentsContext": site.get("agentsContext", "included"),
        "features": [],
        "urls": urls,
        "permissions": {
            "view": role is not None,
            "access": role is not None,
            "edit": at_least(role, "edit"),
            "create": at_least(role, "create"),
            "admin": at_least(role, "admin"),
            "installIntegration": at_least(role, "admin"),
            "viewAdaptiveSchema": role is not None,
            "editAdaptiveSchema": at_least(role, "create"),
        },
    }
    if site.get("hostname"):
        body["hostname"] = site["hostname"]
    if site.get("proxy"):
        body["proxy"] = {
            "origin": site["proxy"],
            "target": f"https://proxy.gitbook.site/sites/{site['id']}",
        }
    return body


def _space_of(tx: Tx, ctx: Ctx, space_id: str) -> dict[str, Any]:
    space = tx.get("space", space_id)
    if space is None:  # purged after deletion: keep the link readable
        return {"object": "space", "id": space_id, "title": "", "urls": {}}
    return space_json(tx, ctx, space)


def site_space_json(tx: Tx, ctx: Ctx, st: Structure, ss: dict[str, Any]) -> dict[str, Any]:
    space = _space_of(tx, ctx, ss["space"])
    body: dict[str, Any] = {
        "object": "site-space",
        "id": ss["id"],
        "path": ss["path"],
        "space": space,
        "title": ss.get("title") or space.get("title") or "",
        "default": st.is_default(ss),
        "draft": bool(ss.get("draft", False)),
        "hidden": bool(ss.get("hidden", False)),
        "hasAdvancedCustomizationFeature": False,
        "urls": {},
    }
    if ss.get("section"):
        body["section"] = ss["section"]
    if ss.get("condition") is not None:
        body["condition"] = ss["condition"]
    if st.site.get("published"):
        body["urls"]["published"] = st.site_space_url(ss)
    return body


def section_json(tx: Tx, ctx: Ctx, st: Structure, section: dict[str, Any]) -> dict[str, Any]:
    body: dict[str, Any] = {
        "object": "site-section",
        "id": section["id"],
        "title": section["title"],
        "default": st.default_section_id() == section["id"],
        "draft": bool(section.get("draft", False)),
        "path": section["path"],
        "siteSpaces": [site_space_json(tx, ctx, st, ss) for ss in st.members(section["id"])],
        "urls": {},
    }
    for key in ("description", "condition", "icon"):
        if section.get(key) is not None:
            body[key] = section[key]
    if st.site.get("published"):
        body["urls"]["published"] = st.section_url(section)
    return body


# -- shared mutations -------------------------------------------------------------------


def readable_space(tx: Tx, ctx: Ctx, org_id: str, space_id: str, field_name: str) -> dict[str, Any]:
    """A live space of the organization that the caller can read (400 naming the field)."""
    space = tx.get("space", space_id)
    if (
        space is None
        or space.get("organization") != org_id
        or space.get("deletedAt")
        or space_role(tx, space, ctx.user_id) is None
    ):
        raise bad_request(f"{field_name}: no space '{space_id}' in this organization")
    return space


def add_site_space(
    tx: Tx,
    ctx: Ctx,
    site: dict[str, Any],
    space: dict[str, Any],
    section_id: str | None,
    *,
    title: str | None = None,
    draft: bool = False,
) -> dict[str, Any]:
    """Link ``space`` into the site (in ``section_id`` or at the root), at the end."""
    siblings = [s for s in tx.list(SITE_SPACE, site["id"]) if s.get("section") == section_id]
    now = ctx.now()
    ss = {
        "id": ctx.new_id(),
        "site": site["id"],
        "section": section_id,
        "space": space["id"],
        "path": unique_slug(
            slugify(space.get("title") or "", "space"), (s["path"] for s in siblings)
        ),
        "title": title,
        "condition": None,
        "draft": draft,
        "hidden": False,
        "createdAt": now,
        "updatedAt": now,
    }
    tx.put(SITE_SPACE, ss["id"], ss, scope=site["id"])
    if not siblings:  # the first of its section is its default
        if section_id is None:
            site["defaultSiteSpace"] = ss["id"]
            tx.put(SITE, site["id"], site)
        else:
            section = tx.get(SECTION, section_id)
            if section is not None:
                section["defaultSiteSpace"] = ss["id"]
                tx.put(SECTION, section_id, section)
    return ss


def touch(tx: Tx, ctx: Ctx, site: dict[str, Any]) -> None:
    site["updatedAt"] = ctx.now()
    tx.put(SITE, site["id"], site)


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
    body: SiteCreate,
    response: Response,
    createSpace: Annotated[
        bool | None, Query(description="Also create a new space and add it to the site")
    ] = None,
) -> dict[str, Any]:
    with ctx.write() as tx:
        load_org(tx, ctx, organizationId)
        if not at_least(org_role(tx, organizationId, ctx.user_id), "create"):
            raise forbidden("Creating sites needs the 'create' role in the organization.")
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
                slugify(title, "site"), (s["basename"] for s in _sites_of(tx, organizationId))
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
        response.headers["Location"] = f"{ctx.api}/orgs/{organizationId}/sites/{site['id']}"
        return site_json(tx, ctx, site)


@router.get("/orgs/{organizationId}/sites/{siteId}")
def get_site(ctx: CtxDep, organizationId: str, siteId: str) -> dict[str, Any]:
    with ctx.read() as tx:
        _, site, _ = load_site(tx, ctx, organizationId, siteId)
        return site_json(tx, ctx, site)


_NOT_NULL = ("title", "visibility", "basename", "adaptiveContent", "agentsContext")


@router.patch("/orgs/{organizationId}/sites/{siteId}")
def update_site(ctx: CtxDep, organizationId: str, siteId: str, body: SiteUpdate) -> dict[str, Any]:
    fields = body.model_fields_set
    if not fields:
        raise bad_request("body: give at least one field to update")
    for name in _NOT_NULL:
        if name in fields and getattr(body, name) is None:
            raise bad_request(f"{name}: must not be null")
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
            _set_default_site_space(tx, st, body.defaultSiteSpace)
        touch(tx, ctx, site)
        return site_json(tx, ctx, site)


def _set_default_site_space(tx: Tx, st: Structure, site_space_id: str | None) -> None:
    """The site's default site space: at the root, or in the site's default section."""
    ss = st.site_space(site_space_id) if site_space_id else None
    if ss is None:
        raise bad_request(f"defaultSiteSpace: no site space '{site_space_id}' in this site")
    if st.sections:
        default_section = st.default_section_id()
        if ss.get("section") != default_section:
            raise bad_request(
                f"defaultSiteSpace: site space '{site_space_id}' is not in the site's default "
                f"section '{default_section}' (set a section's default with PATCH on the section)"
            )
        section = st.section(str(default_section))
        assert section is not None
        section["defaultSiteSpace"] = ss["id"]
        tx.put(SECTION, section["id"], section)
    else:
        st.site["defaultSiteSpace"] = ss["id"]


@router.delete("/orgs/{organizationId}/sites/{siteId}", status_code=204, response_class=Response)
def delete_site(ctx: CtxDep, organizationId: str, siteId: str) -> Response:
    with ctx.write() as tx:
        load_site_as(tx, ctx, organizationId, siteId, "admin")
        for kind in (REDIRECT, SITE_SPACE, SECTION):
            tx.delete_scope(kind, siteId)
        tx.delete(SITE, siteId)
    return Response(status_code=204)


# -- adaptive schema --------------------------------------------------------------------


def default_adaptive_schema(ctx: Ctx, site: dict[str, Any]) -> dict[str, Any]:
    return {
        "$schema": DRAFT7,
        "$id": f"{ctx.api}/orgs/{site['organization']}/sites/{site['id']}/adaptive-schema",
        "type": "object",
        "properties": {
            "unsigned": {
                "type": "object",
                "description": UNSIGNED_DESCRIPTION,
                "properties": {},
                "additionalProperties": False,
            }
        },
        "additionalProperties": False,
    }


def adaptive_schema_json(ctx: Ctx, site: dict[str, Any]) -> dict[str, Any]:
    stored = site.get("adaptiveSchema")
    if stored is None:
        return {
            "object": "site-adaptive-schema",
            "jsonSchema": default_adaptive_schema(ctx, site),
            "updatedAt": site["createdAt"],
        }
    return {
        "object": "site-adaptive-schema",
        "jsonSchema": stored["jsonSchema"],
        "updatedAt": stored["updatedAt"],
    }


def _check_claim(where: str, name: str, claim: Any, problems: list[str]) -> None:
    at = f"{where}.{name}"
    if not CLAIM_NAME_RE.match(name):
        problems.append(
            f"{at}: claim names must be identifiers (letters, digits, '_'; not starting "
            "with a digit)"
        )
    if not isinstance(claim, dict) or claim.get("type") != "boolean":
        problems.append(f'{at}: must be a boolean claim ({{"type": "boolean"}})')
        return
    extra = sorted(set(claim) - {"type", "description"})
    if extra:
        problems.append(f"{at}: unexpected key(s) {', '.join(extra)} (allowed: type, description)")
    if "description" in claim and not isinstance(claim["description"], str):
        problems.append(f"{at}.description: must be a string")


def adaptive_schema_problems(schema: dict[str, Any]) -> list[str]:
    """What keeps ``schema`` from being a valid draft-07 adaptive schema (empty: valid)."""
    try:
        jsonschema.Draft7Validator.check_schema(schema)
    except jsonschema.SchemaError as exc:
        where = "/".join(str(p) for p in exc.absolute_path)
        return [
            f"jsonSchema{'.' + where if where else ''}: not a valid JSON Schema (draft-07): "
            f"{exc.message}"
        ]
    problems: list[str] = []
    extra = sorted(set(schema) - {"$schema", "$id", "type", "properties", "additionalProperties"})
    if extra:
        problems.append(
            f"jsonSchema: unexpected key(s) {', '.join(extra)} "
            "(allowed: $schema, $id, type, properties, additionalProperties)"
        )
    if "$schema" in schema and schema["$schema"] not in (DRAFT7, DRAFT7.rstrip("#")):
        problems.append(f"jsonSchema.$schema: must be '{DRAFT7}'")
    if schema.get("type") != "object":
        problems.append("jsonSchema.type: must be 'object'")
    if schema.get("additionalProperties") is not False:
        problems.append("jsonSchema.additionalProperties: must be false")
    properties = schema.get("properties")
    if not isinstance(properties, dict):
        problems.append("jsonSchema.properties: is required (an object holding 'unsigned')")
        return problems
    unsigned = properties.get("unsigned")
    if not isinstance(unsigned, dict):
        problems.append(
            "jsonSchema.properties.unsigned: is required (an object of unsigned boolean claims)"
        )
    else:
        where = "jsonSchema.properties.unsigned"
        extra = sorted(
            set(unsigned) - {"type", "description", "properties", "additionalProperties"}
        )
        if extra:
            problems.append(f"{where}: unexpected key(s) {', '.join(extra)}")
        if unsigned.get("type") != "object":
            problems.append(f"{where}.type: must be 'object'")
        if unsigned.get("additionalProperties") is not False:
            problems.append(f"{where}.additionalProperties: must be false")
        if "description" in unsigned and not isinstance(unsigned["description"], str):
            problems.append(f"{where}.description: must be a string")
        claims = unsigned.get("properties")
        if not isinstance(claims, dict):
            problems.append(f"{where}.properties: is required (an object of boolean claims)")
        else:
            for name, claim in claims.items():
                _check_claim(f"{where}.properties", name, claim, problems)
    for name, claim in properties.items():
        if name != "unsigned":
            _check_claim("jsonSchema.properties", name, claim, problems)
    return problems


def template_conditions(schema: dict[str, Any]) -> list[dict[str, str]]:
    items: list[dict[str, str]] = []
    properties = schema.get("properties") or {}
    unsigned = (properties.get("unsigned") or {}).get("properties") or {}
    for name, claim in unsigned.items():
        items.append(
            {
                "description": claim.get("description")
                or f"The visitor's unsigned claim '{name}' is true",
                "condition": f"visitor.claims.unsigned.{name} == true",
            }
        )
    for name, claim in properties.items():
        if name == "unsigned":
            continue
        items.append(
            {
                "description": claim.get("description") or f"The visitor's claim '{name}' is true",
                "condition": f"visitor.claims.{name} == true",
            }
        )
    return items


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


def default_customization(site: dict[str, Any]) -> dict[str, Any]:
    """The customization settings of a site that was never customized."""
    themed = {"light": "#346DDB", "dark": "#346DDB"}
    return {
        "title": site["title"],
        "styling": {
            "theme": "clean",
            "primaryColor": themed,
            "infoColor": {"light": "#787878", "dark": "#787878"},
            "successColor": {"light": "#00C742", "dark": "#00C742"},
            "warningColor": {"light": "#FE9A00", "dark": "#FE9A00"},
            "dangerColor": {"light": "#FB2C36", "dark": "#FB2C36"},
            "tint": {"color": themed},
            "corners": "rounded",
            "depth": "subtle",
            "links": "default",
            "font": "Inter",
            "icons": "regular",
            "sidebar": {"background": "default", "list": "default"},
            "search": "subtle",
        },
        "internationalization": {"locale": "en"},
        "favicon": {},
        "header": {"links": []},
        "footer": {"groups": []},
        "announcement": {"enabled": False, "message": "", "style": "info"},
        "themes": {"default": "light", "toggeable": True},
        "pdf": {"enabled": True},
        "feedback": {"enabled": False},
        "aiSearch": {"enabled": True},
        "advancedCustomization": {"enabled": True},
        "pagination": {"enabled": True},
        "trademark": {"enabled": True},
        "ai": {"mode": "search", "pageLinkSummaries": {"enabled": False}},
        "git": {"showEditLink": False},
        "privacyPolicy": {},
        "socialPreview": {},
        "insights": {"trackingCookie": True},
        "externalLinks": {"target": "self"},
    }


def _customization(site: dict[str, Any], overrides: dict[str, Any] | None) -> dict[str, Any]:
    settings = default_customization(site)
    settings.update(site.get("customization") or {})
    settings.update(overrides or {})
    return settings


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
        st = structure(tx, site)
        live_spaces = [ss for ss in st.ordered_site_spaces() if not ss.get("draft")]
        if st.sections:
            tree: dict[str, Any] = {
                "type": "sections",
                "structure": [
                    _live_section_json(tx, ctx, st, s) for s in st.sections if not s.get("draft")
                ],
            }
        else:
            tree = {
                "type": "siteSpaces",
                "structure": [site_space_json(tx, ctx, st, ss) for ss in live_spaces],
            }
        return {
            "object": "published-content-site",
            "site": site_json(tx, ctx, site),
            "structure": tree,
            "customizations": {
                "site": _customization(site, None),
                "siteSpaces": {
                    ss["id"]: _customization(site, ss.get("customization")) for ss in live_spaces
                },
            },
            "scripts": [],
        }


def _live_section_json(tx: Tx, ctx: Ctx, st: Structure, section: dict[str, Any]) -> dict[str, Any]:
    body = section_json(tx, ctx, st, section)
    body["siteSpaces"] = [ss for ss in body["siteSpaces"] if not ss["draft"]]
    return body


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


__all__ = [
    "PATH_RULE",
    "REDIRECT",
    "SECTION",
    "SITE",
    "SITE_SPACE",
    "Structure",
    "add_site_space",
    "check_path",
    "load_site",
    "load_site_as",
    "load_site_for_visitor",
    "readable_space",
    "router",
    "section_json",
    "site_json",
    "site_space_json",
    "slugify",
    "structure",
    "successor",
    "touch",
    "unique_slug",
]
