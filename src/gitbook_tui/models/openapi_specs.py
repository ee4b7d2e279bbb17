"""OpenAPI specifications, their versions and version content."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import Field

from .common import ApiModel, Open, Urls
from .lenient import Count, Timestamp

__all__ = [
    "OpenAPISpec",
    "OpenAPISpecPermissions",
    "OpenAPISpecVersion",
    "ProcessErrorCode",
    "ProcessingState",
    "VersionContent",
    "VersionContentUrls",
]


class ProcessingState(StrEnum):
    """Processing state of an OpenAPI spec."""

    pending = "pending"
    progress = "progress"
    complete = "complete"


class ProcessErrorCode(StrEnum):
    """Why processing of an OpenAPI spec failed."""

    FETCH_TIMEOUT = "FETCH_TIMEOUT"
    FETCH_ERROR = "FETCH_ERROR"
    PARSE_ERROR = "PARSE_ERROR"


class OpenAPISpecPermissions(ApiModel):
    """What the caller may do with an OpenAPI spec."""

    view: bool | None = None
    edit: bool | None = None


class OpenAPISpec(ApiModel):
    """An OpenAPI specification of an organization, identified by ``slug`` in paths."""

    object: str = "openapi-spec"
    id: str
    createdAt: Timestamp | None = None
    updatedAt: Timestamp | None = None
    slug: str | None = None
    sourceURL: str | None = None
    processingState: Open[ProcessingState] | None = None
    visibility: str | None = None
    lastVersion: str | None = None
    lastProcessedAt: Timestamp | None = None
    lastProcessErrorCode: Open[ProcessErrorCode] | None = None
    lastProcessedErrorCount: Count | None = None
    lastProcessedErrors: list[dict[str, Any]] = Field(default_factory=list)
    permissions: OpenAPISpecPermissions | None = None
    urls: Urls | None = None


class OpenAPISpecVersion(ApiModel):
    """A processed version of an OpenAPI specification."""

    object: str = "openapi-spec-version"
    id: str
    createdAt: Timestamp | None = None
    url: str | None = None
    urls: Urls | None = None


class VersionContentUrls(ApiModel):
    """URLs of an OpenAPI version's content."""

    source: str | None = None
    public: str | None = None


class VersionContent(ApiModel):
    """Content of an OpenAPI spec version: ``{filesystem, url}``."""

    filesystem: dict[str, Any] = Field(default_factory=dict)
    url: str | None = None
    urls: VersionContentUrls | None = None
