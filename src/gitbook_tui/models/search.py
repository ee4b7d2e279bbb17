"""Results of a space content search: matching pages with their sections and ancestors."""

from __future__ import annotations

from pydantic import Field

from .common import ApiModel, Urls
from .lenient import Count

__all__ = [
    "SearchAncestor",
    "SearchSection",
    "SpaceSearchItem",
]


class SearchSection(ApiModel):
    """A matching section of a page in search results."""

    id: str
    title: str | None = None
    path: str | None = None
    body: str | None = None
    score: float | None = None
    resultType: str | None = None
    urls: Urls | None = None


class SearchAncestor(ApiModel):
    """An ancestor page of a search result."""

    title: str | None = None


class SpaceSearchItem(ApiModel):
    """A page matching a search, with its matching sections."""

    id: str
    title: str | None = None
    description: str | None = None
    path: str | None = None
    score: float | None = None
    rank: Count | None = None
    resultType: str | None = None
    sections: list[SearchSection] = Field(default_factory=list)
    ancestors: list[SearchAncestor] = Field(default_factory=list)
    urls: Urls | None = None
