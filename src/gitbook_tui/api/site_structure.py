"""Site structure operations: sections and site spaces (mixed into ``Sites``, with section
groups from :mod:`.site_section_groups` and redirects from :mod:`.site_redirects`)."""

from __future__ import annotations

from typing import Any

from ..models import SiteSection, SiteSpace
from .base import ReadMode
from .pagination import AsyncPager
from .resource import NULL, body, operation, seg
from .site_redirects import SiteRedirects
from .site_section_groups import SiteSectionGroups, site_path

__all__ = ["SiteStructure", "site_path"]


def _position(kind: str, key: str, before: str | None, after: str | None) -> dict[str, Any]:
    """``{before: {type, <key>: id}}`` and/or ``{after: ...}`` of a move."""
    if before is None and after is None:
        raise ValueError("give before= or after= (the id of a sibling)")
    position: dict[str, Any] = {}
    if before is not None:
        position["before"] = {"type": kind, key: before}
    if after is not None:
        position["after"] = {"type": kind, key: after}
    return position


class SiteStructure(SiteSectionGroups, SiteRedirects):
    # -- sections -------------------------------------------------------------------------
    @operation("GET /v1/orgs/{organizationId}/sites/{siteId}/sections")
    def list_sections(
        self,
        organization_id: str,
        site_id: str,
        *,
        share_key: str | None = None,
        limit: int | None = None,
        max_items: int | None = None,
        read: ReadMode | None = None,
    ) -> AsyncPager[SiteSection]:
        return AsyncPager(
            self._client,
            f"{site_path(organization_id, site_id)}/sections",
            SiteSection,
            params={"shareKey": share_key},
            limit=limit,
            max_items=max_items,
            read=read,
            operation="listSiteSections",
        )

    @operation("POST /v1/orgs/{organizationId}/sites/{siteId}/sections")
    async def create_section(
        self,
        organization_id: str,
        site_id: str,
        space_id: str | None,
        *,
        title: str | None = None,
        icon: str | None = None,
        description: str | None = None,
        draft: bool | None = None,
        site_section_group_id: str | None = None,
    ) -> SiteSection:
        """A section showing ``space_id`` (``None``: a new space is created for it), at the
        end of the site's root or of the group ``site_section_group_id``."""
        site = site_path(organization_id, site_id)
        invalidates = [site, f"/orgs/{seg(organization_id, 'organization_id')}/sites"]
        if space_id is None:
            invalidates.append(f"/orgs/{seg(organization_id, 'organization_id')}/spaces")
        result: SiteSection = await self._client.send(
            "POST",
            f"{site}/sections",
            SiteSection,
            body=body(
                spaceId=NULL if space_id is None else space_id,
                title=title,
                icon=icon,
                description=description,
                draft=draft,
                siteSectionGroupId=site_section_group_id,
            ),
            invalidates=invalidates,
            operation="addSectionToSite",
        )
        return result

    @operation("PATCH /v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}")
    async def update_section(
        self,
        organization_id: str,
        site_id: str,
        site_section_id: str,
        *,
        title: str | None = None,
        path: str | None = None,
        default_site_space: str | None = None,
        condition: str | None = None,
        icon: str | None = None,
        description: str | None = None,
        draft: bool | None = None,
        site_section_group_id: str | None = None,
    ) -> SiteSection:
        """Omitted fields are unchanged; ``condition=NULL`` (and ``icon``/``description``)
        removes the value; ``site_section_group_id`` moves the section into that group
        (``NULL``: to the site's root), at the end."""
        site = site_path(organization_id, site_id)
        result: SiteSection = await self._client.send(
            "PATCH",
            f"{site}/sections/{seg(site_section_id, 'site_section_id')}",
            SiteSection,
            body=body(
                title=title,
                path=path,
                defaultSiteSpace=default_site_space,
                condition=condition,
                icon=icon,
                description=description,
                draft=draft,
                siteSectionGroupId=site_section_group_id,
            ),
            invalidates=[site],
            operation="updateSiteSectionById",
        )
        return result

    @operation("DELETE /v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}")
    async def delete_section(
        self, organization_id: str, site_id: str, site_section_id: str
    ) -> None:
        site = site_path(organization_id, site_id)
        await self._client.send(
            "DELETE",
            f"{site}/sections/{seg(site_section_id, 'site_section_id')}",
            invalidates=[site, f"/orgs/{seg(organization_id, 'organization_id')}/sites"],
            operation="deleteSiteSectionById",
        )

    @operation("POST /v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}/move")
    async def move_section(
        self,
        organization_id: str,
        site_id: str,
        site_section_id: str,
        *,
        before: str | None = None,
        after: str | None = None,
    ) -> SiteSection:
        """Place the section before and/or after sibling sections (their ids; moves reorder
        within the section's own level)."""
        site = site_path(organization_id, site_id)
        result: SiteSection = await self._client.send(
            "POST",
            f"{site}/sections/{seg(site_section_id, 'site_section_id')}/move",
            SiteSection,
            body={"position": _position("site-section", "siteSection", before, after)},
            invalidates=[site],
            operation="moveSiteSection",
        )
        return result

    # -- site spaces ----------------------------------------------------------------------
    @operation("GET /v1/orgs/{organizationId}/sites/{siteId}/site-spaces")
    def list_site_spaces(
        self,
        organization_id: str,
        site_id: str,
        *,
        share_key: str | None = None,
        default: bool | None = None,
        limit: int | None = None,
        max_items: int | None = None,
        read: ReadMode | None = None,
    ) -> AsyncPager[SiteSpace]:
        """``default=True``: only default site spaces; ``False``: only the others."""
        return AsyncPager(
            self._client,
            f"{site_path(organization_id, site_id)}/site-spaces",
            SiteSpace,
            params={"shareKey": share_key, "default": default},
            limit=limit,
            max_items=max_items,
            read=read,
            operation="listSiteSpaces",
        )

    @operation("POST /v1/orgs/{organizationId}/sites/{siteId}/site-spaces")
    async def create_site_space(
        self,
        organization_id: str,
        site_id: str,
        space_id: str | None,
        *,
        section_id: str | None = None,
        title: str | None = None,
        draft: bool | None = None,
    ) -> SiteSpace:
        """Add ``space_id`` (``None``: a new space) to a section (default: the default one,
        or the site's root when it has no sections)."""
        site = site_path(organization_id, site_id)
        invalidates = [site, f"/orgs/{seg(organization_id, 'organization_id')}/sites"]
        if space_id is None:
            invalidates.append(f"/orgs/{seg(organization_id, 'organization_id')}/spaces")
        result: SiteSpace = await self._client.send(
            "POST",
            f"{site}/site-spaces",
            SiteSpace,
            body=body(
                spaceId=NULL if space_id is None else space_id,
                sectionId=section_id,
                title=title,
                draft=draft,
            ),
            invalidates=invalidates,
            operation="addSpaceToSite",
        )
        return result

    @operation("PATCH /v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}")
    async def update_site_space(
        self,
        organization_id: str,
        site_id: str,
        site_space_id: str,
        *,
        path: str | None = None,
        condition: str | None = None,
        space_id: str | None = None,
        hidden: bool | None = None,
        draft: bool | None = None,
    ) -> SiteSpace:
        """Omitted fields are unchanged; ``condition=NULL`` removes the condition."""
        site = site_path(organization_id, site_id)
        result: SiteSpace = await self._client.send(
            "PATCH",
            f"{site}/site-spaces/{seg(site_space_id, 'site_space_id')}",
            SiteSpace,
            body=body(path=path, condition=condition, spaceId=space_id, hidden=hidden, draft=draft),
            invalidates=[site],
            operation="updateSiteSpaceById",
        )
        return result

    @operation("DELETE /v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}")
    async def delete_site_space(
        self, organization_id: str, site_id: str, site_space_id: str
    ) -> None:
        site = site_path(organization_id, site_id)
        await self._client.send(
            "DELETE",
            f"{site}/site-spaces/{seg(site_space_id, 'site_space_id')}",
            invalidates=[site, f"/orgs/{seg(organization_id, 'organization_id')}/sites"],
            operation="deleteSiteSpaceById",
        )

    @operation("POST /v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/move")
    async def move_site_space(
        self,
        organization_id: str,
        site_id: str,
        site_space_id: str,
        *,
        before: str | None = None,
        after: str | None = None,
    ) -> SiteSpace:
        """Place the site space before and/or after site spaces of its section (their ids)."""
        site = site_path(organization_id, site_id)
        result: SiteSpace = await self._client.send(
            "POST",
            f"{site}/site-spaces/{seg(site_space_id, 'site_space_id')}/move",
            SiteSpace,
            body={"position": _position("site-space", "siteSpace", before, after)},
            invalidates=[site],
            operation="moveSiteSpace",
        )
        return result
