"""Section groups of a site and its structure as one tree (mixed into ``Sites``).

Moves reorder a group among its siblings; to move a group into or out of a parent group,
update its ``parent_section_group_id`` (a section: ``update_section(...,
site_section_group_id=...)``), which puts it at the end of its new level.
"""

from __future__ import annotations

from typing import Any

from ..models import SiteSectionGroup, SiteStructure
from .base import ReadMode
from .pagination import AsyncPager
from .resource import Resource, body, operation, seg

__all__ = ["SiteSectionGroups", "site_path"]


def site_path(organization_id: str, site_id: str) -> str:
    return f"/orgs/{seg(organization_id, 'organization_id')}/sites/{seg(site_id, 'site_id')}"


def _pointer(item_id: str, is_group: bool) -> dict[str, str]:
    return {"type": "site-section-group" if is_group else "site-section", "id": item_id}


class SiteSectionGroups(Resource):
    @operation("GET /v1/orgs/{organizationId}/sites/{siteId}/structure")
    async def get_structure(
        self,
        organization_id: str,
        site_id: str,
        *,
        share_key: str | None = None,
        read: ReadMode | None = None,
    ) -> SiteStructure:
        """Sections and section groups as a tree (``type == "sections"``), or the site
        spaces of a site without sections (``type == "siteSpaces"``)."""
        result: SiteStructure = await self._client.get(
            f"{site_path(organization_id, site_id)}/structure",
            SiteStructure,
            params={"shareKey": share_key},
            read=read,
            operation="getSiteStructure",
        )
        return result

    @operation("GET /v1/orgs/{organizationId}/sites/{siteId}/section-groups")
    def list_section_groups(
        self,
        organization_id: str,
        site_id: str,
        *,
        limit: int | None = None,
        max_items: int | None = None,
        read: ReadMode | None = None,
    ) -> AsyncPager[SiteSectionGroup]:
        """Every section group of the site (nested ones too), in navigation order."""
        return AsyncPager(
            self._client,
            f"{site_path(organization_id, site_id)}/section-groups",
            SiteSectionGroup,
            limit=limit,
            max_items=max_items,
            read=read,
            operation="listSiteSectionGroups",
        )

    @operation("POST /v1/orgs/{organizationId}/sites/{siteId}/section-groups")
    async def create_section_group(
        self,
        organization_id: str,
        site_id: str,
        title: str,
        *,
        icon: str | None = None,
        sections: list[str] | None = None,
        parent: str | None = None,
        draft: bool | None = None,
    ) -> SiteSectionGroup:
        """A group at the end of the site's root (or of ``parent``), holding ``sections``."""
        site = site_path(organization_id, site_id)
        result: SiteSectionGroup = await self._client.send(
            "POST",
            f"{site}/section-groups",
            SiteSectionGroup,
            body=body(title=title, icon=icon, sections=sections, parent=parent, draft=draft),
            invalidates=[site],
            operation="addSectionGroupToSite",
        )
        return result

    @operation("PATCH /v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}")
    async def update_section_group(
        self,
        organization_id: str,
        site_id: str,
        site_section_group_id: str,
        *,
        title: str | None = None,
        icon: str | None = None,
        draft: bool | None = None,
        parent_section_group_id: str | None = None,
    ) -> SiteSectionGroup:
        """Omitted fields are unchanged; ``icon=NULL`` removes the icon and
        ``parent_section_group_id=NULL`` moves the group to the site's root."""
        site = site_path(organization_id, site_id)
        result: SiteSectionGroup = await self._client.send(
            "PATCH",
            f"{site}/section-groups/{seg(site_section_group_id, 'site_section_group_id')}",
            SiteSectionGroup,
            body=body(
                title=title, icon=icon, draft=draft, parentSectionGroupId=parent_section_group_id
            ),
            invalidates=[site],
            operation="updateSiteSectionGroupById",
        )
        return result

    @operation(
        "DELETE /v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}"
    )
    async def delete_section_group(
        self, organization_id: str, site_id: str, site_section_group_id: str
    ) -> None:
        """Delete the group; what it held takes its place (nothing is unpublished)."""
        site = site_path(organization_id, site_id)
        await self._client.send(
            "DELETE",
            f"{site}/section-groups/{seg(site_section_group_id, 'site_section_group_id')}",
            invalidates=[site],
            operation="deleteSiteSectionGroupById",
        )

    @operation(
        "POST /v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/move"
    )
    async def move_section_group(
        self,
        organization_id: str,
        site_id: str,
        site_section_group_id: str,
        *,
        before: str | None = None,
        after: str | None = None,
        before_is_group: bool = False,
        after_is_group: bool = False,
    ) -> SiteSectionGroup:
        """Place the group before/after a sibling section (or group, with ``*_is_group``);
        neither: the end of its level."""
        position: dict[str, Any] = {}
        if before is not None:
            position["before"] = _pointer(before, before_is_group)
        if after is not None:
            position["after"] = _pointer(after, after_is_group)
        site = site_path(organization_id, site_id)
        gid = seg(site_section_group_id, "site_section_group_id")
        result: SiteSectionGroup = await self._client.send(
            "POST",
            f"{site}/section-groups/{gid}/move",
            SiteSectionGroup,
            body={"position": position} if position else {},
            invalidates=[site],
            operation="moveSiteSectionGroup",
        )
        return result
