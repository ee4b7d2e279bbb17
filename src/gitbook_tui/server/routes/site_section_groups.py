"""Routes for the section groups of a site, and the site's structure as one tree.

Reads follow the rules of sections (members, and visitors of a site they may see); every
change needs the ``create`` role, like a section's. The rules of where groups and sections
may go, and what deleting a group does, live in :mod:`..sites.groups`.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Response

from ..core.checks import deletable, updated_fields
from ..core.context import CtxDep
from ..core.errors import bad_request
from ..core.pagination import PagingParams, paginate
from ..sites.groups import (
    check_group_parent,
    check_pointer_kinds,
    dissolve_group,
    group_anchors,
    move_to_level,
    new_group,
    sibling_anchors,
)
from ..sites.published import structure_json
from ..sites.rules import gather_root_site_spaces, touch
from ..sites.structure import place
from ..sites.structure_schemas import GroupCreate, GroupMove, GroupUpdate
from ..sites.views import (
    GROUP,
    SECTION,
    group_json,
    load_group,
    load_site_as,
    load_site_for_visitor,
    site_api_url,
    structure,
)

router = APIRouter(tags=["site structure"])

BASE = "/orgs/{organizationId}/sites/{siteId}"
ShareKey = Annotated[str | None, Query(max_length=512)]


@router.get(BASE + "/structure")
def get_structure(
    ctx: CtxDep, organizationId: str, siteId: str, shareKey: ShareKey = None
) -> dict[str, Any]:
    """Sections and section groups as a tree (or the site spaces of a site without
    sections)."""
    with ctx.read() as tx:
        site, _ = load_site_for_visitor(tx, ctx, organizationId, siteId, shareKey)
        return structure_json(tx, ctx, site)


@router.get(BASE + "/section-groups")
def list_section_groups(
    ctx: CtxDep, organizationId: str, siteId: str, paging: PagingParams, shareKey: ShareKey = None
) -> dict[str, Any]:
    """Every section group of the site, nested ones included, in navigation order."""
    with ctx.read() as tx:
        site, _ = load_site_for_visitor(tx, ctx, organizationId, siteId, shareKey)
        st = structure(tx, site)
        return paginate(st.groups, paging, lambda g: group_json(tx, ctx, st, g))


@router.post(BASE + "/section-groups", status_code=201)
def create_section_group(
    ctx: CtxDep, organizationId: str, siteId: str, body: GroupCreate, response: Response
) -> dict[str, Any]:
    with ctx.write() as tx:
        _, site, _ = load_site_as(tx, ctx, organizationId, siteId, "create")
        st = structure(tx, site)
        parent = check_group_parent(st, None, body.parent, "parent")
        members = list(dict.fromkeys(body.sections))  # in order, once each
        for section_id in members:
            if st.section(section_id) is None:
                raise bad_request(f"sections: no section '{section_id}' in this site")
        gather_root_site_spaces(tx, ctx, st)
        group = new_group(
            tx, ctx, st, title=body.title, icon=body.icon, draft=body.draft, parent=parent
        )
        for section_id in members:
            section = st.section(section_id)
            assert section is not None
            move_to_level(tx, st, (SECTION, section), group["id"])
        touch(tx, ctx, site)
        st = structure(tx, site)
        response.headers["Location"] = (
            f"{site_api_url(ctx, organizationId, siteId)}/section-groups/{group['id']}"
        )
        return group_json(tx, ctx, st, load_group(st, group["id"]))


@router.patch(BASE + "/section-groups/{siteSectionGroupId}", response_model=None)
def update_section_group(
    ctx: CtxDep,
    organizationId: str,
    siteId: str,
    siteSectionGroupId: str,
    body: GroupUpdate,
    prefer: Annotated[str | None, Header(max_length=64)] = None,
) -> dict[str, Any] | Response:
    """``Prefer: return=minimal`` answers 204 without the group."""
    fields = updated_fields(body, ("title", "draft"))
    with ctx.write() as tx:
        _, site, _ = load_site_as(tx, ctx, organizationId, siteId, "create")
        st = structure(tx, site)
        group = load_group(st, siteSectionGroupId)
        if "parentSectionGroupId" in fields:
            parent = check_group_parent(
                st, group, body.parentSectionGroupId, "parentSectionGroupId"
            )
            move_to_level(tx, st, (GROUP, group), parent)
        for name in ("title", "localizedTitle", "icon", "draft"):
            if name in fields:
                group[name] = getattr(body, name)
        group["updatedAt"] = ctx.now()
        tx.put(GROUP, group["id"], group)
        touch(tx, ctx, site)
        if prefer is not None and prefer.strip() == "return=minimal":
            return Response(status_code=204, headers={"Preference-Applied": "return=minimal"})
        st = structure(tx, site)
        return group_json(tx, ctx, st, load_group(st, group["id"]))


@router.delete(
    BASE + "/section-groups/{siteSectionGroupId}", status_code=205, response_class=Response
)
def delete_section_group(
    ctx: CtxDep, organizationId: str, siteId: str, siteSectionGroupId: str
) -> Response:
    """205 when deleted (what the group held takes its place), 204 when there is no such
    group, 404 for a group of another site (the deletion rule)."""
    with ctx.write() as tx:
        _, site, _ = load_site_as(tx, ctx, organizationId, siteId, "create")
        if not deletable(tx, GROUP, siteSectionGroupId, siteId, "Site section group"):
            return Response(status_code=204)
        st = structure(tx, site)
        group = load_group(st, siteSectionGroupId)
        dissolve_group(tx, st, group)
        touch(tx, ctx, site)
    return Response(status_code=205)


@router.post(BASE + "/section-groups/{siteSectionGroupId}/move")
def move_section_group(
    ctx: CtxDep,
    organizationId: str,
    siteId: str,
    siteSectionGroupId: str,
    body: GroupMove | None = None,
) -> dict[str, Any]:
    """Reorder the group among its siblings (sections and groups of its level); without a
    position it goes to the end of its level."""
    body = body or GroupMove()
    before, after, found = group_anchors(body.position, siteSectionGroupId)
    with ctx.write() as tx:
        _, site, _ = load_site_as(tx, ctx, organizationId, siteId, "create")
        st = structure(tx, site)
        node = (GROUP, load_group(st, siteSectionGroupId))
        sibling_anchors(st, node, iter(found), "section or section group")
        check_pointer_kinds(st, body.position)
        place(tx, st, node, st.parent_of(node[1]), before=before, after=after)
        touch(tx, ctx, site)
        st = structure(tx, site)
        return group_json(tx, ctx, st, load_group(st, siteSectionGroupId))
