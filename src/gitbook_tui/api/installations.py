"""Installations of integrations: an organization's installations, uninstalling, and the
spaces and sites one installation is on (list, install on one, uninstall from one)."""

from __future__ import annotations

from ..models import IntegrationSiteItem, IntegrationSpaceItem, OrgInstallation
from .base import ReadMode
from .integrations import integration_path
from .pagination import AsyncPager
from .resource import Resource, operation, seg


def _installation(integration_name: str, installation_id: str) -> str:
    path = integration_path(integration_name)
    return f"{path}/installations/{seg(installation_id, 'installation_id')}"


class Installations(Resource):
    @operation("GET /v1/orgs/{organizationId}/installations")
    def in_org(
        self,
        organization_id: str,
        *,
        limit: int | None = None,
        max_items: int | None = None,
        read: ReadMode | None = None,
    ) -> AsyncPager[OrgInstallation]:
        """Every integration installed in the organization, with its installation."""
        return self._list(
            f"/orgs/{seg(organization_id, 'organization_id')}/installations",
            OrgInstallation,
            "listOrganizationInstallations",
            limit=limit,
            max_items=max_items,
            read=read,
        )

    @operation("DELETE /v1/integrations/{integrationName}/installations/{installationId}")
    async def uninstall(self, integration_name: str, installation_id: str) -> None:
        """Uninstall the integration from the installation's organization."""
        await self._client.send(
            "DELETE",
            _installation(integration_name, installation_id),
            invalidates=[integration_path(integration_name)],
            operation="uninstallIntegration",
        )

    # -- spaces ---------------------------------------------------------------------------
    @operation("GET /v1/integrations/{integrationName}/installations/{installationId}/spaces")
    def spaces(
        self,
        integration_name: str,
        installation_id: str,
        *,
        extended: bool | None = None,
        limit: int | None = None,
        max_items: int | None = None,
        read: ReadMode | None = None,
    ) -> AsyncPager[IntegrationSpaceItem]:
        """The spaces the installation reaches (``extended=True``: full Space objects)."""
        return self._list(
            f"{_installation(integration_name, installation_id)}/spaces",
            IntegrationSpaceItem,
            "listIntegrationInstallationSpaces",
            params={"extended": extended},
            limit=limit,
            max_items=max_items,
            read=read,
        )

    @operation("POST /v1/integrations/{integrationName}/installations/{installationId}/spaces")
    async def install_on_space(
        self, integration_name: str, installation_id: str, space_id: str
    ) -> IntegrationSpaceItem:
        result: IntegrationSpaceItem = await self._client.send(
            "POST",
            f"{_installation(integration_name, installation_id)}/spaces",
            IntegrationSpaceItem,
            body={"space": space_id},
            invalidates=[integration_path(integration_name)],
            operation="installIntegrationOnSpace",
        )
        return result

    @operation(
        "DELETE /v1/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}"
    )
    async def uninstall_from_space(
        self, integration_name: str, installation_id: str, space_id: str
    ) -> None:
        path = _installation(integration_name, installation_id)
        await self._client.send(
            "DELETE",
            f"{path}/spaces/{seg(space_id, 'space_id')}",
            invalidates=[integration_path(integration_name)],
            operation="uninstallIntegrationFromSpace",
        )

    # -- sites ----------------------------------------------------------------------------
    @operation("GET /v1/integrations/{integrationName}/installations/{installationId}/sites")
    def sites(
        self,
        integration_name: str,
        installation_id: str,
        *,
        extended: bool | None = None,
        limit: int | None = None,
        max_items: int | None = None,
        read: ReadMode | None = None,
    ) -> AsyncPager[IntegrationSiteItem]:
        """The sites the installation reaches (``extended=True``: full Site objects)."""
        return self._list(
            f"{_installation(integration_name, installation_id)}/sites",
            IntegrationSiteItem,
            "listIntegrationInstallationSites",
            params={"extended": extended},
            limit=limit,
            max_items=max_items,
            read=read,
        )

    @operation("POST /v1/integrations/{integrationName}/installations/{installationId}/sites")
    async def install_on_site(
        self, integration_name: str, installation_id: str, site_id: str
    ) -> IntegrationSiteItem:
        result: IntegrationSiteItem = await self._client.send(
            "POST",
            f"{_installation(integration_name, installation_id)}/sites",
            IntegrationSiteItem,
            body={"siteId": site_id},
            invalidates=[integration_path(integration_name)],
            operation="installIntegrationOnSite",
        )
        return result

    @operation(
        "DELETE /v1/integrations/{integrationName}/installations/{installationId}/sites/{siteId}"
    )
    async def uninstall_from_site(
        self, integration_name: str, installation_id: str, site_id: str
    ) -> None:
        path = _installation(integration_name, installation_id)
        await self._client.send(
            "DELETE",
            f"{path}/sites/{seg(site_id, 'site_id')}",
            invalidates=[integration_path(integration_name)],
            operation="uninstallIntegrationFromSite",
        )
