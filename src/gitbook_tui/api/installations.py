"""Installations of integrations: an organization's installations, uninstalling, and the
spaces one installation is installed on (list, install on a space, uninstall from one)."""

from __future__ import annotations

from ..models import IntegrationSpaceItem, OrgInstallation
from .base import ReadMode
from .pagination import AsyncPager
from .resource import Resource, operation, seg


def _installation(integration_name: str, installation_id: str) -> str:
    name = seg(integration_name, "integration_name")
    return f"/integrations/{name}/installations/{seg(installation_id, 'installation_id')}"


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
        return AsyncPager(
            self._client,
            f"/orgs/{seg(organization_id, 'organization_id')}/installations",
            OrgInstallation,
            limit=limit,
            max_items=max_items,
            read=read,
            operation="listOrganizationInstallations",
        )

    @operation("DELETE /v1/integrations/{integrationName}/installations/{installationId}")
    async def uninstall(self, integration_name: str, installation_id: str) -> None:
        """Uninstall the integration from the installation's organization."""
        await self._client.send(
            "DELETE",
            _installation(integration_name, installation_id),
            invalidates=[f"/integrations/{seg(integration_name, 'integration_name')}"],
            operation="uninstallIntegration",
        )

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
        return AsyncPager(
            self._client,
            f"{_installation(integration_name, installation_id)}/spaces",
            IntegrationSpaceItem,
            params={"extended": extended},
            limit=limit,
            max_items=max_items,
            read=read,
            operation="listIntegrationInstallationSpaces",
        )

    @operation("POST /v1/integrations/{integrationName}/installations/{installationId}/spaces")
    async def install_on_space(
        self, integration_name: str, installation_id: str, space_id: str
    ) -> IntegrationSpaceItem:
        path = _installation(integration_name, installation_id)
        result: IntegrationSpaceItem = await self._client.send(
            "POST",
            f"{path}/spaces",
            IntegrationSpaceItem,
            body={"space": space_id},
            invalidates=[f"/integrations/{seg(integration_name, 'integration_name')}"],
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
            invalidates=[f"/integrations/{seg(integration_name, 'integration_name')}"],
            operation="uninstallIntegrationFromSpace",
        )
