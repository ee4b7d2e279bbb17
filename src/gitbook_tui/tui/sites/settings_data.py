"""Settings data: a site's title, visibility, adaptive content, publishing and adaptive
schema written (and the schema read) through the client (no Textual here)."""

from __future__ import annotations

import json
from typing import Any

from ...api import AsyncGitBook
from ...models import PublishCheckout, Site

__all__ = [
    "rename_site",
    "save_schema",
    "schema_text",
    "set_adaptive",
    "set_published",
    "set_visibility",
]


async def rename_site(client: AsyncGitBook, org_id: str, site_id: str, title: str) -> Site:
    return await client.sites.update(org_id, site_id, title=title.strip())


async def set_visibility(client: AsyncGitBook, org_id: str, site_id: str, value: str) -> Site:
    return await client.sites.update(org_id, site_id, visibility=value)


async def set_adaptive(client: AsyncGitBook, org_id: str, site_id: str, enabled: bool) -> Site:
    return await client.sites.update(org_id, site_id, adaptive_content=enabled)


async def set_published(
    client: AsyncGitBook, org_id: str, site_id: str, publish: bool
) -> Site | PublishCheckout:
    """Publish or unpublish the site; the site as the server has it now, or the checkout
    the organization must complete first (then nothing was published)."""
    sites = client.sites
    if publish:
        return await sites.publish(org_id, site_id)
    await sites.unpublish(org_id, site_id)
    return await sites.get(org_id, site_id, read="network")


async def schema_text(client: AsyncGitBook, org_id: str, site_id: str) -> str:
    """The site's adaptive schema as indented JSON text, to edit."""
    current = await client.sites.adaptive_schema(org_id, site_id)
    return json.dumps(current.jsonSchema, indent=2, ensure_ascii=False) + "\n"


async def save_schema(
    client: AsyncGitBook, org_id: str, site_id: str, schema: dict[str, Any]
) -> None:
    await client.sites.set_adaptive_schema(org_id, site_id, schema)
