"""Site redirect operations: list, create, update, delete, look a source up (mixed into
``Sites``)."""

from __future__ import annotations

from typing import Any

from ..models import RedirectDestination, SiteRedirect, SiteRedirectLookup
from .base import ReadMode
from .pagination import AsyncPager
from .resource import Resource, body, operation, seg
from .site_section_groups import site_path

__all__ = ["SiteRedirects"]


def _destination(value: RedirectDestination | dict[str, Any] | None) -> dict[str, Any] | None:
    return value.to_api() if isinstance(value, RedirectDestination) else value


def _redirect_body(
    source: str | None,
    destination: RedirectDestination | dict[str, Any] | None,
    draft: bool | None,
    permanent: bool | None,
    capture_wildcard: bool | None,
) -> dict[str, Any]:
    """A redirect's create/update body (fields left ``None`` are not sent)."""
    return body(
        source=source,
        destination=_destination(destination),
        draft=draft,
        permanent=permanent,
        captureWildcard=capture_wildcard,
    )


class SiteRedirects(Resource):
    @operation("GET /v1/orgs/{organizationId}/sites/{siteId}/redirects")
    def list_redirects(
        self,
        organization_id: str,
        site_id: str,
        *,
        search: str | None = None,
        draft: bool | None = None,
        order_by: str | None = None,
        limit: int | None = None,
        max_items: int | None = None,
        read: ReadMode | None = None,
    ) -> AsyncPager[SiteRedirect]:
        """Live redirects (``draft=True``: the drafts), optionally filtered by ``search`` in
        the source and ordered by ``createdAt``, ``updatedAt`` or ``source``."""
        return AsyncPager(
            self._client,
            f"{site_path(organization_id, site_id)}/redirects",
            SiteRedirect,
            params={"search": search, "draft": draft, "orderBy": order_by},
            limit=limit,
            max_items=max_items,
            read=read,
            operation="listSiteRedirects",
        )

    @operation("POST /v1/orgs/{organizationId}/sites/{siteId}/redirects")
    async def create_redirect(
        self,
        organization_id: str,
        site_id: str,
        source: str,
        destination: RedirectDestination | dict[str, Any],
        *,
        draft: bool | None = None,
        permanent: bool | None = None,
        capture_wildcard: bool | None = None,
    ) -> SiteRedirect:
        """Redirect ``source`` (a path like ``/old/page``) to ``destination``, e.g.
        ``{"kind": "site-section", "siteSectionId": ...}``."""
        site = site_path(organization_id, site_id)
        result: SiteRedirect = await self._client.send(
            "POST",
            f"{site}/redirects",
            SiteRedirect,
            body=_redirect_body(source, destination, draft, permanent, capture_wildcard),
            invalidates=[f"{site}/redirect"],
            operation="createSiteRedirect",
        )
        return result

    @operation("PATCH /v1/orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}")
    async def update_redirect(
        self,
        organization_id: str,
        site_id: str,
        site_redirect_id: str,
        *,
        source: str | None = None,
        destination: RedirectDestination | dict[str, Any] | None = None,
        draft: bool | None = None,
        permanent: bool | None = None,
        capture_wildcard: bool | None = None,
    ) -> SiteRedirect:
        site = site_path(organization_id, site_id)
        result: SiteRedirect = await self._client.send(
            "PATCH",
            f"{site}/redirects/{seg(site_redirect_id, 'site_redirect_id')}",
            SiteRedirect,
            body=_redirect_body(source, destination, draft, permanent, capture_wildcard),
            invalidates=[f"{site}/redirect"],
            operation="updateSiteRedirectById",
        )
        return result

    @operation("DELETE /v1/orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}")
    async def delete_redirect(
        self, organization_id: str, site_id: str, site_redirect_id: str
    ) -> None:
        site = site_path(organization_id, site_id)
        await self._client.send(
            "DELETE",
            f"{site}/redirects/{seg(site_redirect_id, 'site_redirect_id')}",
            invalidates=[f"{site}/redirect"],
            operation="deleteSiteRedirectById",
        )

    @operation("GET /v1/orgs/{organizationId}/sites/{siteId}/redirect")
    async def lookup_redirect(
        self,
        organization_id: str,
        site_id: str,
        source: str,
        *,
        share_key: str | None = None,
        read: ReadMode | None = None,
    ) -> SiteRedirectLookup:
        """The live redirect of ``source`` and the URL it leads to."""
        result: SiteRedirectLookup = await self._client.get(
            f"{site_path(organization_id, site_id)}/redirect",
            SiteRedirectLookup,
            params={"source": source, "shareKey": share_key},
            read=read,
            operation="getSiteRedirectBySource",
        )
        return result
