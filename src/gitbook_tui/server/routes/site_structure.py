"""Routes for the structure of a site: sections and site spaces (section groups have their
own module).

The structure rules (defaults and their successors, gathering root site spaces into a first
section) live in :mod:`..sites.rules`, those of section groups in :mod:`..sites.groups`.
Kept here: ``path`` values are unique among sections and among the site spaces of one
section (409).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Response

from ..core.checks import deletable, updated_fields
from ..core.context import Ctx, CtxDep
from ..core.errors import bad_request, conflict
from ..core.pagination import PagingParams, paginate
from ..core.storage import Tx
from ..sites.groups import check_section_group, move_to_level, sibling_anchors
from ..sites.redirects import drop_redirects
from ..sites.rules import (
    add_site_space,
    gather_root_site_spaces,
    new_section,
    point_default_site_space,
    readable_space,
    successor,
    touch,
)
from ..sites.structure import place
from ..sites.structure_schemas import (
    Move,
    SectionCreate,
    SectionUpdate,
    SiteSpaceCreate,
    SiteSpaceUpdate,
    anchors,
    other_anchors,
)
from ..sites.views import (
    SECTION,
    SITE_SPACE,
    Structure,
    load_section,
    load_site_as,
    load_site_for_visitor,
    load_site_space,
    section_json,
    site_api_url,
    site_space_json,
    structure,
)
from ..spaces.rules import new_space

router = APIRouter(tags=["site structure"])

BASE = "/orgs/{organizationId}/sites/{siteId}"


# -- sections ---------------------------------------------------------------------------


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
        group = check_section_group(st, body.siteSectionGroupId, "siteSectionGroupId")
        space = _space_for(tx, ctx, st, body.spaceId, body.title or "Untitled")
        gather_root_site_spaces(tx, ctx, st)
        title = body.title or space.get("title") or "Untitled"
        section = new_section(
            tx,
            ctx,
            st,
            title=title if len(title) >= 2 else f"{title} section",
            icon=body.icon,
            description=body.description,
            draft=body.draft,
        )
        add_site_space(tx, ctx, site, space, section["id"])
        if group is not None:
            move_to_level(tx, st, (SECTION, section), group)
        touch(tx, ctx, site)
        st = structure(tx, site)
        response.headers["Location"] = (
            f"{site_api_url(ctx, organizationId, siteId)}/sections/{section['id']}"
        )
        return section_json(tx, ctx, st, load_section(st, section["id"]))


@router.delete(BASE + "/sections/{siteSectionId}", status_code=204, response_class=Response)
def delete_section(ctx: CtxDep, organizationId: str, siteId: str, siteSectionId: str) -> Response:
    with ctx.write() as tx:
        _, site, _ = load_site_as(tx, ctx, organizationId, siteId, "create")
        if not deletable(tx, SECTION, siteSectionId, siteId, "Site section"):
            return Response(status_code=204)  # nothing to delete (the deletion rule)
        st = structure(tx, site)
        if st.default_section_id() == siteSectionId:
            site["defaultSiteSection"] = successor(st.sections, siteSectionId)
        members = {ss["id"] for ss in st.members(siteSectionId)}
        for ss_id in members:
            tx.delete(SITE_SPACE, ss_id)
        drop_redirects(tx, siteId, sections={siteSectionId}, site_spaces=members)
        tx.delete(SECTION, siteSectionId)
        touch(tx, ctx, site)
    return Response(status_code=204)


@router.patch(BASE + "/sections/{siteSectionId}")
def update_section(
    ctx: CtxDep, organizationId: str, siteId: str, siteSectionId: str, body: SectionUpdate
) -> dict[str, Any]:
    fields = updated_fields(body, ("title", "path", "defaultSiteSpace", "draft"))
    with ctx.write() as tx:
        _, site, _ = load_site_as(tx, ctx, organizationId, siteId, "create")
        st = structure(tx, site)
        section = load_section(st, siteSectionId)
        if "path" in fields and body.path != section["path"]:
            other = next(
                (s for s in st.sections if s["id"] != siteSectionId and s["path"] == body.path),
                None,
            )
            if other is not None:
                raise conflict(
                    f"path: '{body.path}' is already the path of section '{other['id']}'"
                )
        if "siteSectionGroupId" in fields:
            group = check_section_group(st, body.siteSectionGroupId, "siteSectionGroupId")
            move_to_level(tx, st, (SECTION, section), group)
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
        return section_json(tx, ctx, structure(tx, site), section)


@router.post(BASE + "/sections/{siteSectionId}/move")
def move_section(
    ctx: CtxDep, organizationId: str, siteId: str, siteSectionId: str, body: Move | None = None
) -> dict[str, Any]:
    body = body or Move()  # no body: to the end
    before, after = anchors(body.position, "site-section")
    with ctx.write() as tx:
        _, site, _ = load_site_as(tx, ctx, organizationId, siteId, "create")
        st = structure(tx, site)
        node = (SECTION, load_section(st, siteSectionId))
        found = other_anchors(before, after, siteSectionId, "a section")
        sibling_anchors(st, node, found, "section")
        place(tx, st, node, st.parent_of(node[1]), before=before, after=after)
        touch(tx, ctx, site)
        st = structure(tx, site)
        return section_json(tx, ctx, st, load_section(st, siteSectionId))


# -- site spaces ------------------------------------------------------------------------


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
            f"{site_api_url(ctx, organizationId, siteId)}/site-spaces/{ss['id']}"
        )
        return site_space_json(tx, ctx, st, load_site_space(st, ss["id"]))


@router.delete(BASE + "/site-spaces/{siteSpaceId}", status_code=204, response_class=Response)
def delete_site_space(ctx: CtxDep, organizationId: str, siteId: str, siteSpaceId: str) -> Response:
    with ctx.write() as tx:
        _, site, _ = load_site_as(tx, ctx, organizationId, siteId, "create")
        if not deletable(tx, SITE_SPACE, siteSpaceId, siteId, "Site space"):
            return Response(status_code=204)  # nothing to delete (the deletion rule)
        st = structure(tx, site)
        ss = load_site_space(st, siteSpaceId)
        section_id = ss.get("section")
        if st.default_site_space_id(section_id) == siteSpaceId:
            heir = successor(st.members(section_id), siteSpaceId)
            section = load_section(st, section_id) if section_id is not None else None
            point_default_site_space(tx, site, section, heir)
        tx.delete(SITE_SPACE, siteSpaceId)
        drop_redirects(tx, siteId, sections=set(), site_spaces={siteSpaceId})
        touch(tx, ctx, site)
    return Response(status_code=204)


@router.patch(BASE + "/site-spaces/{siteSpaceId}")
def update_site_space(
    ctx: CtxDep, organizationId: str, siteId: str, siteSpaceId: str, body: SiteSpaceUpdate
) -> dict[str, Any]:
    fields = updated_fields(body, ("path", "spaceId", "hidden", "draft"))
    with ctx.write() as tx:
        _, site, _ = load_site_as(tx, ctx, organizationId, siteId, "create")
        st = structure(tx, site)
        ss = load_site_space(st, siteSpaceId)
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
    ctx: CtxDep, organizationId: str, siteId: str, siteSpaceId: str, body: Move | None = None
) -> dict[str, Any]:
    body = body or Move()  # no body: to the end
    before, after = anchors(body.position, "site-space")
    with ctx.write() as tx:
        _, site, _ = load_site_as(tx, ctx, organizationId, siteId, "create")
        st = structure(tx, site)
        ss = load_site_space(st, siteSpaceId)
        for field, anchor in other_anchors(before, after, siteSpaceId, "a site space"):
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
        return site_space_json(tx, ctx, st, load_site_space(st, siteSpaceId))
