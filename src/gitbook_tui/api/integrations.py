"""Integration operations: publish, installations, events, items, dev mode and UI render."""

from __future__ import annotations

import builtins
import json
from typing import Any

from ..lzstring import compress_to_encoded_uri_component
from ..models import (
    Installation,
    InstallationSelection,
    Integration,
    IntegrationEvent,
    IntegrationEventDetail,
    IntegrationSiteItem,
    IntegrationSpaceItem,
    IntegrationTarget,
    IntegrationVisibility,
    UIRenderOutput,
)
from .base import ReadMode
from .pagination import AsyncPager
from .resource import Resource, body, operation, seg


def integration_path(name: str) -> str:
    """``/integrations/{name}``: the path every operation on one integration starts with."""
    return f"/integrations/{seg(name, 'integration_name')}"


class Integrations(Resource):
    @operation("GET /v1/integrations")
    def list(
        self,
        *,
        search: str | None = None,
        category: str | None = None,
        block_domain: str | None = None,
        blocks: bool | None = None,
        content_sources: bool | None = None,
        owner: str | None = None,
        scope: str | None = None,
        target: IntegrationTarget | str | None = None,
        limit: int | None = None,
        max_items: int | None = None,
        read: ReadMode | None = None,
    ) -> AsyncPager[Integration]:
        """Public integrations and those of the caller's organizations, by name."""
        return self._list(
            "/integrations",
            Integration,
            "listIntegrations",
            params={
                "search": search,
                "category": category,
                "blockDomain": block_domain,
                "blocks": blocks,
                "contentSources": content_sources,
                "owner": owner,
                "scope": scope,
                "target": target,
            },
            limit=limit,
            max_items=max_items,
            read=read,
        )

    @operation("GET /v1/integrations/{integrationName}")
    async def get(self, integration_name: str, *, read: ReadMode | None = None) -> Integration:
        result: Integration = await self._client.get(
            integration_path(integration_name),
            Integration,
            read=read,
            operation="getIntegrationByName",
        )
        return result

    @operation("POST /v1/integrations/{integrationName}")
    async def publish(
        self,
        integration_name: str,
        *,
        organization: str | None = None,
        title: str | None = None,
        description: str | None = None,
        summary: str | None = None,
        runtime: str | None = None,
        icon: str | None = None,
        preview_images: builtins.list[str] | None = None,
        visibility: IntegrationVisibility | str | None = None,
        target: IntegrationTarget | str | None = None,
        scopes: builtins.list[str] | None = None,
        categories: builtins.list[str] | None = None,
        blocks: builtins.list[dict[str, Any]] | None = None,
        content_sources: builtins.list[dict[str, Any]] | None = None,
        external_links: builtins.list[dict[str, Any]] | None = None,
        configurations: dict[str, Any] | None = None,
        script: str | None = None,
        secrets: dict[str, str] | None = None,
        content_security_policy: str | dict[str, str] | None = None,
    ) -> Integration:
        """Publish a new version (a new integration needs ``organization`` and ``title``);
        ``icon`` and ``preview_images`` are base64 images."""
        result: Integration = await self._client.send(
            "POST",
            integration_path(integration_name),
            Integration,
            body=body(
                organization=organization,
                title=title,
                description=description,
                summary=summary,
                runtime=runtime,
                icon=icon,
                previewImages=preview_images,
                visibility=visibility,
                target=target,
                scopes=scopes,
                categories=categories,
                blocks=blocks,
                contentSources=content_sources,
                externalLinks=external_links,
                configurations=configurations,
                script=script,
                secrets=secrets,
                contentSecurityPolicy=content_security_policy,
            ),
            operation="publishIntegration",
        )
        return result

    @operation("DELETE /v1/integrations/{integrationName}")
    async def delete(self, integration_name: str) -> None:
        """Unpublish the integration (with its installations and events)."""
        await self._client.send(
            "DELETE", integration_path(integration_name), operation="unpublishIntegration"
        )

    # -- installations --------------------------------------------------------------------
    @operation("GET /v1/integrations/{integrationName}/installations")
    def installations(
        self,
        integration_name: str,
        *,
        external_id: str | None = None,
        limit: int | None = None,
        max_items: int | None = None,
        read: ReadMode | None = None,
    ) -> AsyncPager[Installation]:
        return self._list(
            f"{integration_path(integration_name)}/installations",
            Installation,
            "listIntegrationInstallations",
            params={"externalId": external_id},
            limit=limit,
            max_items=max_items,
            read=read,
        )

    @operation("POST /v1/integrations/{integrationName}/installations")
    async def install(
        self,
        integration_name: str,
        organization: str,
        *,
        configuration: dict[str, Any] | None = None,
        external_ids: builtins.list[str] | None = None,
        space_selection: InstallationSelection | str | None = None,
        site_selection: InstallationSelection | str | None = None,
    ) -> Installation:
        """Install in ``organization`` (installing again updates that installation)."""
        path = integration_path(integration_name)
        result: Installation = await self._client.send(
            "POST",
            f"{path}/installations",
            Installation,
            body=body(
                organization=organization,
                configuration=configuration,
                externalIds=external_ids,
                space_selection=space_selection,
                site_selection=site_selection,
            ),
            invalidates=[path],
            operation="installIntegration",
        )
        return result

    # -- events ---------------------------------------------------------------------------
    @operation("GET /v1/integrations/{integrationName}/events")
    def events(
        self,
        integration_name: str,
        *,
        limit: int | None = None,
        max_items: int | None = None,
        read: ReadMode | None = None,
    ) -> AsyncPager[IntegrationEvent]:
        """Events of the integration, newest first."""
        return self._list(
            f"{integration_path(integration_name)}/events",
            IntegrationEvent,
            "listIntegrationEvents",
            limit=limit,
            max_items=max_items,
            read=read,
        )

    @operation("GET /v1/integrations/{integrationName}/events/{eventId}")
    async def event(
        self, integration_name: str, event_id: str, *, read: ReadMode | None = None
    ) -> IntegrationEventDetail:
        """The event and its trace."""
        result: IntegrationEventDetail = await self._client.get(
            f"{integration_path(integration_name)}/events/{seg(event_id, 'event_id')}",
            IntegrationEventDetail,
            read=read,
            operation="getIntegrationEvent",
        )
        return result

    # -- installed spaces and sites -------------------------------------------------------
    @operation("GET /v1/integrations/{integrationName}/spaces")
    def spaces(
        self,
        integration_name: str,
        *,
        external_id: str | None = None,
        extended: bool | None = None,
        limit: int | None = None,
        max_items: int | None = None,
        read: ReadMode | None = None,
    ) -> AsyncPager[IntegrationSpaceItem]:
        """Spaces the integration is installed on (``extended=True``: full Space objects)."""
        return self._list(
            f"{integration_path(integration_name)}/spaces",
            IntegrationSpaceItem,
            "listIntegrationSpaceInstallations",
            params={"externalId": external_id, "extended": extended},
            limit=limit,
            max_items=max_items,
            read=read,
        )

    @operation("GET /v1/integrations/{integrationName}/sites")
    def sites(
        self,
        integration_name: str,
        *,
        external_id: str | None = None,
        extended: bool | None = None,
        limit: int | None = None,
        max_items: int | None = None,
        read: ReadMode | None = None,
    ) -> AsyncPager[IntegrationSiteItem]:
        """Sites the integration is installed on (``extended=True``: full Site objects)."""
        return self._list(
            f"{integration_path(integration_name)}/sites",
            IntegrationSiteItem,
            "listIntegrationSiteInstallations",
            params={"externalId": external_id, "extended": extended},
            limit=limit,
            max_items=max_items,
            read=read,
        )

    # -- development mode -----------------------------------------------------------------
    @operation("PUT /v1/integrations/{integrationName}/dev")
    async def enable_dev(
        self, integration_name: str, tunnel_url: str, *, all_organizations: bool | None = None
    ) -> None:
        """Dispatch events and renders to ``tunnel_url``; ``all_organizations`` (the API's
        ``all``) forwards every organization's requests, not only the owner's."""
        path = integration_path(integration_name)
        await self._client.send(
            "PUT",
            f"{path}/dev",
            body=body(tunnelUrl=tunnel_url, all=all_organizations),
            invalidates=[path],
            operation="setIntegrationDevelopmentMode",
        )

    @operation("DELETE /v1/integrations/{integrationName}/dev")
    async def disable_dev(self, integration_name: str) -> None:
        path = integration_path(integration_name)
        await self._client.send(
            "DELETE",
            f"{path}/dev",
            invalidates=[path],
            operation="disableIntegrationDevelopmentMode",
        )

    # -- UI render ------------------------------------------------------------------------
    @operation("POST /v1/integrations/{integrationName}/render")
    async def render(
        self,
        integration_name: str,
        component_id: str,
        *,
        props: dict[str, Any],
        context: dict[str, Any],
        state: dict[str, Any] | None = None,
        action: dict[str, Any] | None = None,
    ) -> UIRenderOutput:
        """Render a UI component of the integration (its output, as the runtime sent it)."""
        result: UIRenderOutput = await self._client.send(
            "POST",
            f"{integration_path(integration_name)}/render",
            UIRenderOutput,
            body=body(
                componentId=component_id, props=props, context=context, state=state, action=action
            ),
            invalidates=None,
            operation="renderIntegrationUIWithPost",
        )
        return result

    @operation("GET /v1/integrations/{integrationName}/render")
    async def render_compressed(
        self, integration_name: str, request: dict[str, Any]
    ) -> UIRenderOutput:
        """Render with GET: ``request`` (``{componentId, props, context, state?, action?}``)
        travels LZ-string compressed in the ``request`` parameter. Always asks the server."""
        text = json.dumps(request, separators=(",", ":"), ensure_ascii=False)
        result: UIRenderOutput = await self._client.get(
            f"{integration_path(integration_name)}/render",
            UIRenderOutput,
            params={"request": compress_to_encoded_uri_component(text)},
            read="network",
            operation="renderIntegrationUIWithGet",
        )
        return result
