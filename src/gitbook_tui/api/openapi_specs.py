"""OpenAPI specification operations: specs by slug, their versions and version content."""

from __future__ import annotations

from typing import Any

from ..models import OpenAPISpec, OpenAPISpecVersion, VersionContent
from .base import ReadMode
from .pagination import AsyncPager
from .resource import Resource, body, operation, seg


def _specs(organization_id: str) -> str:
    return f"/orgs/{seg(organization_id, 'organization_id')}/openapi"


def _spec(organization_id: str, slug: str) -> str:
    return f"{_specs(organization_id)}/{seg(slug, 'slug')}"


def _source(url: str | None, text: str | None) -> dict[str, Any]:
    if (url is None) == (text is None):
        raise ValueError("give exactly one of url= or text=")
    return body(url=url, text=text)


class OpenAPISpecs(Resource):
    @operation("GET /v1/orgs/{organizationId}/openapi")
    def list(
        self,
        organization_id: str,
        *,
        limit: int | None = None,
        max_items: int | None = None,
        read: ReadMode | None = None,
    ) -> AsyncPager[OpenAPISpec]:
        return AsyncPager(
            self._client,
            _specs(organization_id),
            OpenAPISpec,
            limit=limit,
            max_items=max_items,
            read=read,
            operation="listOpenAPISpecs",
        )

    @operation("POST /v1/orgs/{organizationId}/openapi")
    async def create(
        self,
        organization_id: str,
        slug: str,
        *,
        url: str | None = None,
        text: str | None = None,
    ) -> OpenAPISpec:
        """A spec from ``url`` (fetched by the server) or from ``text``; processing errors
        show in ``lastProcessErrorCode``, not as a failed request."""
        result: OpenAPISpec = await self._client.send(
            "POST",
            _specs(organization_id),
            OpenAPISpec,
            body={"slug": slug, "source": _source(url, text)},
            operation="createOpenAPISpec",
        )
        return result

    @operation("GET /v1/orgs/{organizationId}/openapi/{specSlug}")
    async def get(
        self, organization_id: str, slug: str, *, read: ReadMode | None = None
    ) -> OpenAPISpec:
        result: OpenAPISpec = await self._client.get(
            _spec(organization_id, slug), OpenAPISpec, read=read, operation="getOpenAPISpecBySlug"
        )
        return result

    @operation("PUT /v1/orgs/{organizationId}/openapi/{specSlug}")
    async def update(
        self,
        organization_id: str,
        slug: str,
        *,
        url: str | None = None,
        text: str | None = None,
    ) -> OpenAPISpec:
        """Set the source and process it again (creates the spec when the slug is new)."""
        result: OpenAPISpec = await self._client.send(
            "PUT",
            _spec(organization_id, slug),
            OpenAPISpec,
            body={"source": _source(url, text)},
            operation="createOrUpdateOpenAPISpecBySlug",
        )
        return result

    @operation("DELETE /v1/orgs/{organizationId}/openapi/{specSlug}")
    async def delete(self, organization_id: str, slug: str) -> None:
        await self._client.send(
            "DELETE", _spec(organization_id, slug), operation="deleteOpenAPISpecBySlug"
        )

    # -- versions -------------------------------------------------------------------------
    @operation("GET /v1/orgs/{organizationId}/openapi/{specSlug}/versions")
    def versions(
        self,
        organization_id: str,
        slug: str,
        *,
        limit: int | None = None,
        max_items: int | None = None,
        read: ReadMode | None = None,
    ) -> AsyncPager[OpenAPISpecVersion]:
        """Processed versions, newest first."""
        return AsyncPager(
            self._client,
            f"{_spec(organization_id, slug)}/versions",
            OpenAPISpecVersion,
            limit=limit,
            max_items=max_items,
            read=read,
            operation="listOpenAPISpecVersions",
        )

    @operation("GET /v1/orgs/{organizationId}/openapi/{specSlug}/versions/latest")
    async def latest_version(
        self, organization_id: str, slug: str, *, read: ReadMode | None = None
    ) -> OpenAPISpecVersion:
        result: OpenAPISpecVersion = await self._client.get(
            f"{_spec(organization_id, slug)}/versions/latest",
            OpenAPISpecVersion,
            read=read,
            operation="getLatestOpenAPISpecVersion",
        )
        return result

    @operation("GET /v1/orgs/{organizationId}/openapi/{specSlug}/versions/latest/content")
    async def latest_content(
        self, organization_id: str, slug: str, *, read: ReadMode | None = None
    ) -> VersionContent:
        result: VersionContent = await self._client.get(
            f"{_spec(organization_id, slug)}/versions/latest/content",
            VersionContent,
            read=read,
            operation="getLatestOpenAPISpecVersionContent",
        )
        return result

    @operation("GET /v1/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}")
    async def version(
        self, organization_id: str, slug: str, version_id: str, *, read: ReadMode | None = None
    ) -> OpenAPISpecVersion:
        result: OpenAPISpecVersion = await self._client.get(
            f"{_spec(organization_id, slug)}/versions/{seg(version_id, 'version_id')}",
            OpenAPISpecVersion,
            read=read,
            operation="getOpenAPISpecVersionById",
        )
        return result

    @operation("GET /v1/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}/content")
    async def version_content(
        self, organization_id: str, slug: str, version_id: str, *, read: ReadMode | None = None
    ) -> VersionContent:
        result: VersionContent = await self._client.get(
            f"{_spec(organization_id, slug)}/versions/{seg(version_id, 'version_id')}/content",
            VersionContent,
            read=read,
            operation="getOpenAPISpecVersionContentById",
        )
        return result
