"""Routes for the structure of a site: sections, site spaces and redirects.

Rules kept here:
- A site's site spaces live either at its root (no sections) or in sections. Adding the
  first section to a site whose site spaces are at the root first gathers those into a
  section of their own (the first, so the default one), then adds the new section.
- Exactly one section is the default: the first created, or the one set through the
  site's ``defaultSiteSection``; deleting it promotes the next one.
- In each section (and at the root) one site space is the default: the first added, or
  the one set through ``defaultSiteSpace``; deleting it promotes the next one.
- ``path`` values are unique among sections and among the site spaces of one section.
- Deleting a section or a site space also deletes the redirects that pointed to it.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Response
from pydantic import Field, field_validator

from ..content_store import find_page, get_revision, iter_pages
from ..context import Ctx, CtxDep
from ..errors import bad_request, conflict, not_found
from ..pagination import PagingParams, paginate
from ..schemas import Body, Position, PositionTarget
from ..storage import Tx
from .sites import (
    REDIRECT,
    SECTION,
    SITE,
    SITE_SPACE,
    Structure,
    add_site_space,
    check_path,
    load_site_as,
    load_site_for_visitor,
    readable_space,
    section_json,
    site_space_json,
    slugify,
    structure,
    successor,
    touch,
    unique_slug,
)
from .spaces import new_space

router = APIRouter(tags=["site structure"])

BASE = "/orgs/{organizationId}/sites/{siteId}"

# Redirect source paths (section 2.9).
SOURCE_RE = re.compile(
    r"^\/(?:[A-Za-z0-9\-._~]|%[0-9A-Fa-f]{2})+(?:\/(?:[A-Za-z0-9\-._~]|%[0-9A-Fa-f]{2})+)*$"
)
SOURCE_RULE = (
    "must be a path like '/old/page': '/'-separated segments of letters, digits, "
    "'-', '.', '_', '~' or %XX escapes"
)
URL_RE = re.compile(r"^https?://[^\s/$.?#][^\s]*$", re.IGNORECASE)


def _source(value: str | None) -> str | None:
    if value is not None and not SOURCE_RE.match(value):
        raise ValueError(SOURCE_RULE)
    return value


# -- request bodies ---------------------------------------------------------------------


class SectionCreate(Body):
    spaceId: str | None
    title: str | None = Field(None, min_length=2, max_length=128)
    icon: str | None = Field(None, max_length=50)
    description: str | None = Field(None, max_length=256)
    draft: bool = False


class SectionUpdate(Body):
    title: str | None = Field(None, min_length=2, max_length=128)
    path: str | None = Field(None, min_length=1, max_length=100)
    defaultSiteSpace: str | None = None
    condition: str | None = Field(None, max_length=1024)
    icon: str | None = Field(None, max_length=50)
    description: str | None = Field(None, max_length=256)
    draft: bool | None = None

    @field_validator("path")
    @classmethod
    def _path(cls, value: str | None) -> str | None:
        return check_path(value)


class Move(Body):
    position: Position


class SiteSpaceCreate(Body):
    spaceId: str | None
    sectionId: str | None = None
    title: str | None = Field(None, min_length=2, max_length=128)
    draft: bool = False


class SiteSpaceUpdate(Body):
    path: str | None = Field(None, min_length=1, max_length=100)
    condition: str | None = Field(None, max_length=1024)
    spaceId: str | None = None
    hidden: bool | None = None
    draft: bool | None = None

    @field_validator("path")
    @classmethod
    def _path(cls, value: str | None) -> str | None:
        return check_path(value)


class Destination(Body):
    kind: Literal["site-section", "site-space", "site-page", "external", "path"]
    siteSectionId: str | None = None
    siteSpaceId: str | None = None
    pageId: str | None = None
    url: str | None = Field(None, max_length=2048)
    spaceId: str | None = None
    path: str | None = Field(None, max_length=1024)


class RedirectCreate(Body):
    source: str = Field(max_length=512)
    destination: Destination
    draft: bool = False
    permanent: bool = False
    captureWildcard: bool = False

    @field_validator("source")
    @classmethod
    def _check_source(cls, value: str | None) -> str | None:
        return _source(value)


class RedirectUpdate(Body):
    source: str | None = Field(None, max_length=512)
    destination: Destination | None = None
    draft: bool | None = None
    permanent: bool | None = None
    captureWildcard: bool | None = None

    @field_validator("source")
    @classmethod
    def _check_source(cls, value: str | None) -> str | None:
        return _source(value)


def _not_null(body: Body, names: tuple[str, ...]) -> set[str]:
    fields = body.model_fields_set
    if not fields:
        raise bad_request("body: give at least one field to update")
    for name in names:
        if name in fields and getattr(body, name) is None:
            raise bad_request(f"{name}: must not be null")
    return fields


def _anchor(target: PositionTarget | None, kind: str, field: str) -> str | None:
    if target is None:
        return None
    key = "siteSection" if kind == "site-section" else "siteSpace"
    anchor = getattr(target, key)
    if target.type != kind or not anchor:
        raise bad_request(f"{field}: give {{type: '{kind}', {key}: <id>}}")
    return str(anchor)


def _anchors(position: Position, kind: str) -> tuple[str | None, str | None]:
    before = _anchor(position.before, kind, "position.before")
    after = _anchor(position.after, kind, "position.after")
    if before is None and after is None:
        raise bad_request("position: give `before` or `after`")
    return before, after


# -- sections ---------------------------------------------------------------------------


def _load_section(st: Structure, section_id: str) -> dict[str, Any]:
    section = st.section(section_id)
    if section is None:
        raise not_found("Site section", section_id)
    return section


def _new_section(
    tx: Tx,
    ctx: Ctx,
    st: Structure,
    *,
    title: str,
    icon: str | None = None,
    description: str | None = None,
    draft: bool = False,
) -> dict[str, Any]:
    now = ctx.now()
    section = {
        "id": ctx.new_id(),
        "site": st.site["id"],
        "title": title,
        "path": unique_slug(slugify(title, "section"), (s["path"] for s in st.sections)),
        "icon": icon,
        "description": description,
        "condition": None,
        "draft": draft,
        "defaultSiteSpace": None,
        "createdAt": now,
        "updatedAt": now,
    }
    tx.put(SECTION, section["id"], section, scope=st.site["id"])
    st.sections.append(section)
    if len(st.sections) == 1:
        st.site["defaultSiteSection"] = section["id"]
        tx.put(SITE, st.site["id"], st.site)
    return section


def _gather_root_site_spaces(tx: Tx, ctx: Ctx, st: Structure) -> None:
    """Before a site's first section: its root site spaces become a section of their own."""
    roots = st.members(None)
    if st.sections or not roots:
        return
    default_id = st.default_site_space_id(None)
    default = next(ss for ss in roots if ss["id"] == default_id)
    space = tx.get("space", default["space"]) or {}
    title = default.get("title") or space.get("title") or st.site["title"]
    section = _new_section(tx, ctx, st, title=title if len(title) >= 2 else st.site["title"])
    section["defaultSiteSpace"] = default_id
    tx.put(SECTION, section["id"], section)
    for ss in roots:
        ss["section"] = section["id"]
        tx.put(SITE_SPACE, ss["id"], ss)
    st.site.pop("defaultSiteSpace", None)
    tx.put(SITE, st.site["id"], st.site)


def _space_for(tx: Tx, ctx: Ctx, st: Structure, space_id: str | None, title: str) -> dict[str, Any]:
    """The space named by ``spaceId``, or a new one when it is ``null``."""
    org_id = st.site["organization"]
    if space_id is None:
        return new_space(tx, ctx, org_id=org_id, title=title[:50])
    return readable_space(tx, ctx, org_id, space_id, "spaceId")


@router.get(BASE + "/sections")
def list_sections(
    ctx: CtxDep,
    organizationId: str,
    siteId: str,
    paging: PagingParams,
    shareKey: Annotated[str | None, Query(max_length=512)] = None,
) -> dict[str, Any]:
    with ctx.read() as tx:
        site, _ = load_site_for_visitor(tx, ctx, organizationId, siteId, shareKey)
        st = structure(tx, site)
        return paginate(st.sections, paging, lambda s: section_json(tx, ctx, st, s))


@router.post(BASE + "/sections", status_code=201)
def create_section(
    ctx: CtxDep, organizationId: str, siteId: str, body: SectionCreate, response: Response
) -> dict[str, Any]:
    with ctx.write() as tx:
        _, site, _ = load_site_as(tx, ctx, organizationId, siteId, "create")
        st = structure(tx, site)
        space = _space_for(tx, ctx, st, body.spaceId, body.title or "Untitled")
        _gather_root_site_spaces(tx, ctx, st)
        title = body.title or space.get("title") or "Untitled"
        section = _new_section(
            tx,
            ctx,
            st,
            title=title if len(title) >= 2 else f"{title} section",
            icon=body.icon,
            description=body.description,
            draft=body.draft,
        )
        add_site_space(tx, ctx, site, space, section["id"])
        touch(tx, ctx, site)
        st = structure(tx, site)
        response.headers["Location"] = (
            f"{ctx.api}/orgs/{organizationId}/sites/{siteId}/sections/{section['id']}"
        )
        return section_json(tx, ctx, st, _load_section(st, section["id"]))


@router.delete(BASE + "/sections/{siteSectionId}", status_code=204, response_class=Response)
def delete_section(ctx: CtxDep, organizationId: str, siteId: str, siteSectionId: str) -> Response:
    with ctx.write() as tx:
        _, site, _ = load_site_as(tx, ctx, organizationId, siteId, "create")
        st = structure(tx, site)
        _load_section(st, siteSectionId)
        if st.default_section_id() == siteSectionId:
            site["defaultSiteSection"] = successor(st.sections, siteSectionId)
        members = {ss["id"] for ss in st.members(siteSectionId)}
        for ss_id in members:
            tx.delete(SITE_SPACE, ss_id)
        _drop_redirects(tx, siteId, sections={siteSectionId}, site_spaces=members)
        tx.delete(SECTION, siteSectionId)
        touch(tx, ctx, site)
    return Response(status_code=204)


@router.patch(BASE + "/sections/{siteSectionId}")
def update_section(
    ctx: CtxDep, organizationId: str, siteId: str, siteSectionId: str, body: SectionUpdate
) -> dict[str, Any]:
    fields = _not_null(body, ("title", "path", "defaultSiteSpace", "draft"))
    with ctx.write() as tx:
        _, site, _ = load_site_as(tx, ctx, organizationId, siteId, "create")
        st = structure(tx, site)
        section = _load_section(st, siteSectionId)
        if "path" in fields and body.path != section["path"]:
            other = next(
                (s for s in st.sections if s["id"] != siteSectionId and s["path"] == body.path),
                None,
            )
            if other is not None:
                raise conflict(
                    f"path: '{body.path}' is already the path of section '{other['id']}'"
                )
        if "defaultSiteSpace" in fields:
            member_ids = [ss["id"] for ss in st.members(siteSectionId)]
            if body.defaultSiteSpace not in member_ids:
                raise bad_request(
                    f"defaultSiteSpace: no site space '{body.defaultSiteSpace}' in this section"
                )
        for name in (
            "title",
            "path",
            "defaultSiteSpace",
            "condition",
            "icon",
            "description",
            "draft",
        ):
            if name in fields:
                section[name] = getattr(body, name)
        section["updatedAt"] = ctx.now()
        tx.put(SECTION, siteSectionId, section)
        touch(tx, ctx, site)
        return section_json(tx, ctx, st, section)


@router.post(BASE + "/sections/{siteSectionId}/move")
def move_section(
    ctx: CtxDep, organizationId: str, siteId: str, siteSectionId: str, body: Move
) -> dict[str, Any]:
    before, after = _anchors(body.position, "site-section")
    with ctx.write() as tx:
        _, site, _ = load_site_as(tx, ctx, organizationId, siteId, "create")
        st = structure(tx, site)
        _load_section(st, siteSectionId)
        for field, anchor in (("position.before", before), ("position.after", after)):
            if anchor is None:
                continue
            if anchor == siteSectionId:
                raise bad_request(f"{field}: cannot place a section relative to itself")
            if st.section(anchor) is None:
                raise bad_request(f"{field}: no section '{anchor}' in this site")
        tx.place(SECTION, siteSectionId, siteId, before=before, after=after)
        touch(tx, ctx, site)
        st = structure(tx, site)
        return section_json(tx, ctx, st, _load_section(st, siteSectionId))


# -- site spaces ------------------------------------------------------------------------


def _load_site_space(st: Structure, site_space_id: str) -> dict[str, Any]:
    ss = st.site_space(site_space_id)
    if ss is None:
        raise not_found("Site space", site_space_id)
    return ss


@router.get(BASE + "/site-spaces")
def list_site_spaces(
    ctx: CtxDep,
    organizationId: str,
    siteId: str,
    paging: PagingParams,
    shareKey: Annotated[str | None, Query(max_length=512)] = None,
    default: Annotated[
        bool | None,
        Query(description="true: only default site spaces; false: only the others; unset: all"),
    ] = None,
) -> dict[str, Any]:
    with ctx.read() as tx:
        site, _ = load_site_for_visitor(tx, ctx, organizationId, siteId, shareKey)
        st = structure(tx, site)
        items = st.ordered_site_spaces()
        if default is not None:
            items = [ss for ss in items if st.is_default(ss) is default]
        return paginate(items, paging, lambda ss: site_space_json(tx, ctx, st, ss))


@router.post(BASE + "/site-spaces", status_code=201)
def create_site_space(
    ctx: CtxDep, organizationId: str, siteId: str, body: SiteSpaceCreate, response: Response
) -> dict[str, Any]:
    with ctx.write() as tx:
        _, site, _ = load_site_as(tx, ctx, organizationId, siteId, "create")
        st = structure(tx, site)
        if body.sectionId is not None:
            if st.section(body.sectionId) is None:
                raise bad_request(f"sectionId: no section '{body.sectionId}' in this site")
            section_id: str | None = body.sectionId
        else:
            section_id = st.default_section_id()  # None: the root of a site without sections
        space = _space_for(tx, ctx, st, body.spaceId, body.title or "Untitled")
        if any(ss["space"] == space["id"] for ss in st.members(section_id)):
            where = f"section '{section_id}'" if section_id else "the site's root"
            raise conflict(f"spaceId: space '{space['id']}' is already in {where}")
        ss = add_site_space(tx, ctx, site, space, section_id, title=body.title, draft=body.draft)
        touch(tx, ctx, site)
        st = structure(tx, site)
        response.headers["Location"] = (
            f"{ctx.api}/orgs/{organizationId}/sites/{siteId}/site-spaces/{ss['id']}"
        )
        return site_space_json(tx, ctx, st, _load_site_space(st, ss["id"]))


@router.delete(BASE + "/site-spaces/{siteSpaceId}", status_code=204, response_class=Response)
def delete_site_space(ctx: CtxDep, organizationId: str, siteId: str, siteSpaceId: str) -> Response:
    with ctx.write() as tx:
        _, site, _ = load_site_as(tx, ctx, organizationId, siteId, "create")
        st = structure(tx, site)
        ss = _load_site_space(st, siteSpaceId)
        section_id = ss.get("section")
        if st.default_site_space_id(section_id) == siteSpaceId:
            heir = successor(st.members(section_id), siteSpaceId)
            if section_id is None:
                site["defaultSiteSpace"] = heir
            else:
                section = _load_section(st, section_id)
                section["defaultSiteSpace"] = heir
                tx.put(SECTION, section_id, section)
        tx.delete(SITE_SPACE, siteSpaceId)
        _drop_redirects(tx, siteId, sections=set(), site_spaces={siteSpaceId})
        touch(tx, ctx, site)
    return Response(status_code=204)


@router.patch(BASE + "/site-spaces/{siteSpaceId}")
def update_site_space(
    ctx: CtxDep, organizationId: str, siteId: str, siteSpaceId: str, body: SiteSpaceUpdate
) -> dict[str, Any]:
    fields = _not_null(body, ("path", "spaceId", "hidden", "draft"))
    with ctx.write() as tx:
        _, site, _ = load_site_as(tx, ctx, organizationId, siteId, "create")
        st = structure(tx, site)
        ss = _load_site_space(st, siteSpaceId)
        siblings = [s for s in st.members(ss.get("section")) if s["id"] != siteSpaceId]
        if "path" in fields and body.path != ss["path"]:
            other = next((s for s in siblings if s["path"] == body.path), None)
            if other is not None:
                raise conflict(
                    f"path: '{body.path}' is already the path of site space '{other['id']}' "
                    "in this section"
                )
            ss["path"] = body.path
        if "spaceId" in fields and body.spaceId != ss["space"]:
            space = readable_space(tx, ctx, site["organization"], str(body.spaceId), "spaceId")
            if any(s["space"] == space["id"] for s in siblings):
                raise conflict(f"spaceId: space '{space['id']}' is already in this section")
            ss["space"] = space["id"]
        for name in ("condition", "hidden", "draft"):
            if name in fields:
                ss[name] = getattr(body, name)
        ss["updatedAt"] = ctx.now()
        tx.put(SITE_SPACE, siteSpaceId, ss)
        touch(tx, ctx, site)
        return site_space_json(tx, ctx, st, ss)


@router.post(BASE + "/site-spaces/{siteSpaceId}/move")
def move_site_space(
    ctx: CtxDep, organizationId: str, siteId: str, siteSpaceId: str, body: Move
) -> dict[str, Any]:
    before, after = _anchors(body.position, "site-space")
    with ctx.write() as tx:
        _, site, _ = load_site_as(tx, ctx, organizationId, siteId, "create")
        st = structure(tx, site)
        ss = _load_site_space(st, siteSpaceId)
        for field, anchor in (("position.before", before), ("position.after", after)):
            if anchor is None:
                continue
            if anchor == siteSpaceId:
                raise bad_request(f"{field}: cannot place a site space relative to itself")
            other = st.site_space(anchor)
            if other is None:
                raise bad_request(f"{field}: no site space '{anchor}' in this site")
            if other.get("section") != ss.get("section"):
                raise bad_request(
                    f"{field}: site space '{anchor}' is in another section; site spaces move "
                    "only among the site spaces of their own section"
                )
        tx.place(SITE_SPACE, siteSpaceId, siteId, before=before, after=after)
        touch(tx, ctx, site)
        st = structure(tx, site)
        return site_space_json(tx, ctx, st, _load_site_space(st, siteSpaceId))


# -- redirects --------------------------------------------------------------------------


def _drop_redirects(tx: Tx, site_id: str, *, sections: set[str], site_spaces: set[str]) -> None:
    for redirect in tx.list(REDIRECT, site_id):
        dest = redirect["destination"]
        if dest.get("siteSectionId") in sections or dest.get("siteSpaceId") in site_spaces:
            tx.delete(REDIRECT, redirect["id"])


def redirect_json(redirect: dict[str, Any]) -> dict[str, Any]:
    body = {
        "object": "site-redirect",
        "id": redirect["id"],
        "source": redirect["source"],
        "destination": redirect["destination"],
        "draft": bool(redirect.get("draft", False)),
        "captureWildcard": bool(redirect.get("captureWildcard", False)),
        "permanent": bool(redirect.get("permanent", False)),
        "createdAt": redirect["createdAt"],
    }
    if redirect.get("updatedAt"):
        body["updatedAt"] = redirect["updatedAt"]
    return body


def _page_path(tx: Tx, space_id: str, page_id: str) -> str | None:
    space = tx.get("space", space_id)
    if space is None:
        return None
    found = find_page(get_revision(tx, space["revision"])["pages"], page_id)
    return None if found is None else found[1]


def _resolve_destination(tx: Tx, st: Structure, dest: Destination) -> dict[str, Any]:
    """The stored form of a destination, checked against the site (400 naming the field)."""

    def need(name: str) -> str:
        value = getattr(dest, name)
        if not value:
            raise bad_request(f"destination.{name}: is required for kind '{dest.kind}'")
        return str(value)

    def site_space(name: str = "siteSpaceId") -> dict[str, Any]:
        ss_id = need(name)
        ss = st.site_space(ss_id)
        if ss is None:
            raise bad_request(f"destination.{name}: no site space '{ss_id}' in this site")
        return ss

    if dest.kind == "site-section":
        section_id = need("siteSectionId")
        if st.section(section_id) is None:
            raise bad_request(f"destination.siteSectionId: no section '{section_id}' in this site")
        return {"kind": "site-section", "siteSectionId": section_id}
    if dest.kind == "site-space":
        return {"kind": "site-space", "siteSpaceId": site_space()["id"]}
    if dest.kind == "site-page":
        ss = site_space()
        page_id = need("pageId")
        if _page_path(tx, ss["space"], page_id) is None:
            raise bad_request(
                f"destination.pageId: no page '{page_id}' in the space of site space '{ss['id']}'"
            )
        return {"kind": "site-page", "siteSpaceId": ss["id"], "pageId": page_id}
    if dest.kind == "external":
        url = need("url")
        if not URL_RE.match(url):
            raise bad_request("destination.url: must be an absolute http(s) URL")
        return {"kind": "external", "url": url}
    # kind "path": a page of a space of the site, by its path in that space
    space_id = need("spaceId")
    candidates = [ss for ss in st.ordered_site_spaces() if ss["space"] == space_id]
    if not candidates:
        raise bad_request(f"destination.spaceId: space '{space_id}' is not in this site")
    ss = candidates[0]
    wanted = (dest.path or "").strip("/")
    if not wanted:
        return {"kind": "site-space", "siteSpaceId": ss["id"]}
    space = tx.get("space", space_id) or {}
    pages = get_revision(tx, space["revision"])["pages"] if space.get("revision") else []
    for node, path, _ in iter_pages(pages):
        if path == wanted and node.get("type") != "group":
            return {"kind": "site-page", "siteSpaceId": ss["id"], "pageId": node["id"]}
    raise bad_request(f"destination.path: no page at '{wanted}' in space '{space_id}'")


def _target_url(tx: Tx, st: Structure, dest: dict[str, Any]) -> str | None:
    kind = dest["kind"]
    if kind == "external":
        return str(dest["url"])
    if kind == "site-section":
        section = st.section(dest["siteSectionId"])
        return st.section_url(section) if section else None
    ss = st.site_space(dest["siteSpaceId"])
    if ss is None:
        return None
    url = st.site_space_url(ss)
    if kind == "site-page":
        path = _page_path(tx, ss["space"], dest["pageId"])
        return None if path is None else f"{url}/{path}"
    return url


def _load_redirect(tx: Tx, site_id: str, redirect_id: str) -> dict[str, Any]:
    redirect = tx.get(REDIRECT, redirect_id)
    if redirect is None or redirect.get("site") != site_id:
        raise not_found("Site redirect", redirect_id)
    return redirect


def _check_unique_source(tx: Tx, site_id: str, source: str, redirect_id: str | None) -> None:
    for other in tx.list(REDIRECT, site_id):
        if other["source"] == source and other["id"] != redirect_id:
            raise conflict(f"source: '{source}' already redirects (redirect '{other['id']}')")


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
        items = [r for r in tx.list(REDIRECT, siteId) if bool(r.get("draft")) is draft]
        if search:
            items = [r for r in items if search.lower() in r["source"].lower()]
        if orderBy == "source":
            items.sort(key=lambda r: r["source"])
        elif orderBy == "updatedAt":
            items.sort(key=lambda r: r.get("updatedAt") or r["createdAt"], reverse=True)
        return paginate(items, paging, redirect_json)


@router.post(BASE + "/redirects", status_code=201)
def create_redirect(
    ctx: CtxDep, organizationId: str, siteId: str, body: RedirectCreate
) -> dict[str, Any]:
    with ctx.write() as tx:
        _, site, _ = load_site_as(tx, ctx, organizationId, siteId, "create")
        st = structure(tx, site)
        _check_unique_source(tx, siteId, body.source, None)
        redirect = {
            "id": ctx.new_id(),
            "site": siteId,
            "source": body.source,
            "destination": _resolve_destination(tx, st, body.destination),
            "draft": body.draft,
            "permanent": body.permanent,
            "captureWildcard": body.captureWildcard,
            "createdAt": ctx.now(),
        }
        tx.put(REDIRECT, redirect["id"], redirect, scope=siteId)
        return redirect_json(redirect)


@router.patch(BASE + "/redirects/{siteRedirectId}")
def update_redirect(
    ctx: CtxDep, organizationId: str, siteId: str, siteRedirectId: str, body: RedirectUpdate
) -> dict[str, Any]:
    fields = _not_null(body, ("source", "destination", "draft", "permanent", "captureWildcard"))
    with ctx.write() as tx:
        _, site, _ = load_site_as(tx, ctx, organizationId, siteId, "create")
        redirect = _load_redirect(tx, siteId, siteRedirectId)
        if "source" in fields:
            _check_unique_source(tx, siteId, str(body.source), siteRedirectId)
            redirect["source"] = body.source
        if "destination" in fields and body.destination is not None:
            redirect["destination"] = _resolve_destination(
                tx, structure(tx, site), body.destination
            )
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
        _load_redirect(tx, siteId, siteRedirectId)
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
        redirect = next(
            (r for r in tx.list(REDIRECT, siteId) if r["source"] == source and not r.get("draft")),
            None,
        )
        if redirect is None:
            raise not_found("Redirect for source", source)
        target = _target_url(tx, structure(tx, site), redirect["destination"])
        if target is None:
            raise not_found("Destination of redirect", redirect["id"])
        return {"redirect": redirect_json(redirect), "target": target}
