"""Installations of integrations: an organization's installations, uninstalling, and the
spaces and sites one installation is on (list, install on one, uninstall from one)."""

from __future__ import annotations

from typing import TypeVar

from ..models import IntegrationSiteItem, IntegrationSpaceItem, OrgInstallation
from .base import ReadMode
from .integrations import integration_path
from .pagination import AsyncPager
from .resource import Resource, operation, seg

_Place = TypeVar("_Place", IntegrationSpaceItem, IntegrationSiteItem)


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
        return self._places(
            integration_name,
            installation_id,
            "spaces",
            IntegrationSpaceItem,
            "listIntegrationInstallationSpaces",
            extended=extended,
            limit=limit,
            max_items=max_items,
            read=read,
        )

    @operation("POST /v1/integrations/{integrationName}/installations/{installationId}/spaces")
    async def install_on_space(
        self, integration_name: str, installation_id: str, space_id: str
    ) -> IntegrationSpaceItem:
        return await self._add_place(
            integration_name,
            installation_id,
            "spaces",
            IntegrationSpaceItem,
            {"space": space_id},
            "installIntegrationOnSpace",
        )

    @operation(
        "DELETE /v1/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}"
    )
    async def uninstall_from_space(
        self, integration_name: str, installation_id: str, space_id: str
    ) -> None:
        await self._remove_place(
            integration_name,
            installation_id,
            f"spaces/{seg(space_id, 'space_id')}",
            "uninstallIntegrationFromSpace",
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
        return self._places(
            integration_name,
            installation_id,
            "sites",
            IntegrationSiteItem,
            "listIntegrationInstallationSites",
            extended=extended,
            limit=limit,
            max_items=max_items,
            read=read,
        )

    @operation("POST /v1/integrations/{integrationName}/installations/{installationId}/sites")
    async def install_on_site(
        self, integration_name: str, installation_id: str, site_id: str
    ) -> IntegrationSiteItem:
        return await self._add_place(
            integration_name,
            installation_id,
            "sites",
            IntegrationSiteItem,
            {"siteId": site_id},
            "installIntegrationOnSite",
        )

    @operation(
        "DELETE /v1/integrations/{integrationName}/installations/{installationId}/sites/{siteId}"
    )
    async def uninstall_from_site(
        self, integration_name: str, installation_id: str, site_id: str
    ) -> None:
        await self._remove_place(
            integration_name,
            installation_id,
            f"sites/{seg(site_id, 'site_id')}",
            "uninstallIntegrationFromSite",
        )

    # -- the spaces and sites of an installation: one path each way --------------------------
    def _places(
        self,
        integration_name: str,
        installation_id: str,
        kind: str,
        model: type[_Place],
        operation: str,
        *,
        extended: bool | None,
        limit: int | None,
        max_items: int | None,
        read: ReadMode | None,
    ) -> AsyncPager[_Place]:
        return self._list(
            f"{_installation(integration_name, installation_id)}/{kind}",
            model,
            operation,
            params={"extended": extended},
            limit=limit,
            max_items=max_items,
            read=read,
        )

    async def _add_place(
        self,
        integration_name: str,
        installation_id: str,
        kind: str,
        model: type[_Place],
        body: dict[str, str],
        operation: str,
    ) -> _Place:
        result: _Place = await self._client.send(
            "POST",
            f"{_installation(integration_name, installation_id)}/{kind}",
            model,
            body=body,
            invalidates=[integration_path(integration_name)],
            operation=operation,
        )
        return result

    async def _remove_place(
        self, integration_name: str, installation_id: str, place: str, operation: str
    ) -> None:
        await self._client.send(
            "DELETE",
            f"{_installation(integration_name, installation_id)}/{place}",
            invalidates=[integration_path(integration_name)],
            operation=operation,
        )
