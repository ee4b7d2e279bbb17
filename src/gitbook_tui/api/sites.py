"""Site operations: sites, adaptive schema, publishing, plus sections, site spaces, redirects."""

from __future__ import annotations

import builtins
from typing import Any

from ..models import (
    AgentsContext,
    Page,
    PublishCheckout,
    PublishedSite,
    PublishResult,
    Role,
    Site,
    SiteAdaptiveSchema,
    SiteType,
    SiteVisibility,
    TemplateCondition,
)
from .base import ReadMode
from .pagination import AsyncPager
from .resource import body, operation, seg
from .site_structure import SiteStructure, site_path


class Sites(SiteStructure):
    @operation("GET /v1/orgs/{organizationId}/sites")
    def list(
        self,
        organization_id: str,
        *,
        space: str | None = None,
        title: str | None = None,
        published: bool | None = None,
        type: builtins.list[SiteType | str] | None = None,
        limit: int | None = None,
        max_items: int | None = None,
        read: ReadMode | None = None,
    ) -> AsyncPager[Site]:
        """Sites of the organization; filters: showing ``space``, ``title`` contains,
        ``published`` or not, of one of the ``type`` values."""
        return AsyncPager(
            self._client,
            f"/orgs/{seg(organization_id, 'organization_id')}/sites",
            Site,
            params={"space": space, "title": title, "published": published, "type": type},
            limit=limit,
            max_items=max_items,
            read=read,
            operation="listSites",
        )

    @operation("POST /v1/orgs/{organizationId}/sites")
    async def create(
        self,
        organization_id: str,
        *,
        title: str | None = None,
        type: SiteType | str | None = None,
        visibility: SiteVisibility | str | None = None,
        spaces: builtins.list[str] | None = None,
        create_space: bool | None = None,
    ) -> Site:
        """A new (unpublished) site showing ``spaces``; ``create_space`` adds a new space."""
        invalidates = (
            [f"/orgs/{seg(organization_id, 'organization_id')}/spaces"] if create_space else []
        )
        result: Site = await self._client.send(
            "POST",
            f"/orgs/{seg(organization_id, 'organization_id')}/sites",
            Site,
            body=body(
                title=title,
                type=type,
                visibility=visibility,
                spaces=spaces,
                createSpace=create_space,
            ),
            invalidates=invalidates,
            operation="createSite",
        )
        return result

    @operation("GET /v1/orgs/{organizationId}/sites/{siteId}")
    async def get(
        self, organization_id: str, site_id: str, *, read: ReadMode | None = None
    ) -> Site:
        result: Site = await self._client.get(
            site_path(organization_id, site_id), Site, read=read, operation="getSiteById"
        )
        return result

    @operation("PATCH /v1/orgs/{organizationId}/sites/{siteId}")
    async def update(
        self,
        organization_id: str,
        site_id: str,
        *,
        title: str | None = None,
        visibility: SiteVisibility | str | None = None,
        basename: str | None = None,
        adaptive_content: bool | None = None,
        agents_context: AgentsContext | str | None = None,
        default_level: Role | str | None = None,
        default_site_space: str | None = None,
        default_site_section: str | None = None,
        proxy: str | None = None,
    ) -> Site:
        """Omitted fields are unchanged; ``proxy=NULL`` removes the proxy."""
        result: Site = await self._client.send(
            "PATCH",
            site_path(organization_id, site_id),
            Site,
            body=body(
                title=title,
                visibility=visibility,
                basename=basename,
                adaptiveContent=None if adaptive_content is None else {"enabled": adaptive_content},
                agentsContext=agents_context,
                defaultLevel=default_level,
                defaultSiteSpace=default_site_space,
                defaultSiteSection=default_site_section,
                proxy=proxy,
            ),
            operation="updateSiteById",
        )
        return result

    @operation("DELETE /v1/orgs/{organizationId}/sites/{siteId}")
    async def delete(self, organization_id: str, site_id: str) -> None:
        await self._client.send(
            "DELETE", site_path(organization_id, site_id), operation="deleteSiteById"
        )

    # -- adaptive schema ------------------------------------------------------------------
    @operation("GET /v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema")
    async def adaptive_schema(
        self, organization_id: str, site_id: str, *, read: ReadMode | None = None
    ) -> SiteAdaptiveSchema:
        result: SiteAdaptiveSchema = await self._client.get(
            f"{site_path(organization_id, site_id)}/adaptive-schema",
            SiteAdaptiveSchema,
            read=read,
            operation="getSiteAdaptiveSchema",
        )
        return result

    @operation("PUT /v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema")
    async def set_adaptive_schema(
        self, organization_id: str, site_id: str, json_schema: dict[str, Any]
    ) -> SiteAdaptiveSchema:
        """Replace the schema (a draft-07 JSON Schema of the visitor's boolean claims)."""
        result: SiteAdaptiveSchema = await self._client.send(
            "PUT",
            f"{site_path(organization_id, site_id)}/adaptive-schema",
            SiteAdaptiveSchema,
            body={"jsonSchema": json_schema},
            operation="updateSiteAdaptiveSchema",
        )
        return result

    @operation("GET /v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema/template-conditions")
    async def template_conditions(
        self, organization_id: str, site_id: str, *, read: ReadMode | None = None
    ) -> builtins.list[TemplateCondition]:
        """One condition expression per claim of the adaptive schema."""
        # The list envelope ({items}, and the members every list may carry), not a typed map.
        data: Page[TemplateCondition] = await self._client.get(
            f"{site_path(organization_id, site_id)}/adaptive-schema/template-conditions",
            Page[TemplateCondition],
            read=read,
            operation="listSiteAdaptiveTemplateConditions",
        )
        return data.items

    # -- publishing -----------------------------------------------------------------------
    @operation("GET /v1/orgs/{organizationId}/sites/{siteId}/published")
    async def published(
        self,
        organization_id: str,
        site_id: str,
        *,
        share_key: str | None = None,
        read: ReadMode | None = None,
    ) -> PublishedSite:
        """The published profile: site, live structure and customizations."""
        result: PublishedSite = await self._client.get(
            f"{site_path(organization_id, site_id)}/published",
            PublishedSite,
            params={"shareKey": share_key},
            read=read,
            operation="getPublishedContentSite",
        )
        return result

    @operation("POST /v1/orgs/{organizationId}/sites/{siteId}/publish")
    async def publish(self, organization_id: str, site_id: str) -> Site | PublishCheckout:
        """The published site, or a checkout when the organization's plan needs an upgrade
        first (then the site is not published)."""
        site = site_path(organization_id, site_id)
        result: Site | PublishCheckout = await self._client.send(
            "POST",
            f"{site}/publish",
            PublishResult,
            invalidates=[site, f"/orgs/{seg(organization_id, 'organization_id')}/sites"],
            operation="publishSite",
        )
        return result

    @operation("POST /v1/orgs/{organizationId}/sites/{siteId}/unpublish")
    async def unpublish(self, organization_id: str, site_id: str) -> Site:
        site = site_path(organization_id, site_id)
        result: Site = await self._client.send(
            "POST",
            f"{site}/unpublish",
            Site,
            invalidates=[site, f"/orgs/{seg(organization_id, 'organization_id')}/sites"],
            operation="unpublishSite",
        )
        return result
