"""Request bodies and parameter types of the integrations routes (openapi names and bounds)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import Path
from pydantic import Field, field_validator

from ..core.checks import is_http_url
from ..core.schemas import Body

NAME_PATTERN = r"^[a-zA-Z0-9-_.]+$"
NameParam = Annotated[str, Path(pattern=NAME_PATTERN, max_length=100)]

Visibility = Literal["public", "private", "unlisted"]
Target = Literal["all", "site", "space", "organization"]
Category = Literal["analytics", "collaboration", "content", "marketing", "visitor-auth", "other"]
Scope = Literal[
    "space:content:read",
    "space:content:write",
    "space:metadata:read",
    "space:metadata:write",
    "space:git:sync",
    "page:feedback:read",
    "site:metadata:read",
    "site:views:read",
    "site:script:inject",
    "site:script:cookies",
    "site:visitor:auth",
    "site:visitor:claims",
    "site:adaptive:read",
    "site:adaptive:write",
    "conversations:ingest",
    "openapi:read",
    "openapi:write",
]
Selection = Literal["all", "selected"]

MAX_IMAGE_BYTES = 2 * 1024 * 1024
MAX_SCRIPT_CHARS = 10_000_000


# -- request bodies ----------------------------------------------------------------------------
class BlockMarkdown(Body):
    codeblock: str = Field(max_length=100)
    body: str = Field(max_length=100)


class Block(Body):
    id: str = Field(min_length=1, max_length=100)
    title: str = Field(min_length=2, max_length=40)
    description: str | None = Field(None, max_length=150)
    icon: str | None = Field(None, max_length=2048)
    urlUnfurl: list[str] | None = None
    markdown: BlockMarkdown | None = None


class ComponentRef(Body):
    componentId: str = Field(min_length=1, max_length=100)


class ContentSource(Body):
    id: str = Field(min_length=1, max_length=100)
    title: str = Field(min_length=2, max_length=40)
    description: str | None = Field(None, max_length=150)
    icon: str | None = Field(None, max_length=2048)
    configuration: ComponentRef


class ExternalLink(Body):
    url: str = Field(min_length=1, max_length=2048)
    label: str = Field(max_length=100)


class Configurations(Body):
    account: dict[str, Any] | None = None
    space: dict[str, Any] | None = None
    site: dict[str, Any] | None = None


class PublishIntegration(Body):
    runtime: Literal["v1", "v2"] = "v1"
    icon: str | None = None
    title: str | None = Field(None, min_length=2, max_length=30)
    description: str | None = Field(None, max_length=100)
    summary: str | None = Field(None, max_length=2048)
    previewImages: list[str] | None = Field(None, max_length=3)
    visibility: Visibility | None = None
    target: Target | None = None
    scopes: list[Scope] | None = None
    categories: list[Category] | None = None
    blocks: list[Block] | None = Field(None, max_length=100)
    contentSources: list[ContentSource] | None = Field(None, max_length=100)
    externalLinks: list[ExternalLink] | None = Field(None, max_length=5)
    configurations: Configurations | None = None
    script: str | None = Field(None, max_length=MAX_SCRIPT_CHARS)
    organization: str | None = Field(None, min_length=1, max_length=100)
    secrets: dict[str, str] | None = None
    contentSecurityPolicy: str | dict[str, str] | None = None

    @field_validator("secrets")
    @classmethod
    def _secrets(cls, value: dict[str, str] | None) -> dict[str, str] | None:
        if value is not None and len(value) > 20:
            raise ValueError("at most 20 secrets")
        return value

    @field_validator("externalLinks")
    @classmethod
    def _links(cls, value: list[ExternalLink] | None) -> list[ExternalLink] | None:
        for link in value or []:
            if not is_http_url(link.url):
                raise ValueError(f"'{link.url}' is not an http(s) URL")
        return value


class InstallBody(Body):
    organization: str = Field(min_length=1, max_length=100)
    configuration: dict[str, Any] | None = None
    externalIds: list[Annotated[str, Field(min_length=1, max_length=512)]] | None = Field(
        None, max_length=5
    )
    space_selection: Selection | None = None
    site_selection: Selection | None = None


class DevMode(Body):
    tunnelUrl: str = Field(min_length=1, max_length=256)
    all: bool = False

    @field_validator("tunnelUrl")
    @classmethod
    def _tunnel(cls, value: str) -> str:
        if not is_http_url(value):
            raise ValueError("must be an http(s) URL")
        return value


class RenderRequest(Body):
    componentId: str = Field(min_length=1, max_length=256)
    props: dict[str, Any]
    state: dict[str, Any] | None = None
    context: dict[str, Any]
    action: dict[str, Any] | None = None
