"""Request bodies of the spaces and collections families (create, update, move, transfer)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..core.merge_rules import SpaceMergeRules
from ..core.schemas import Body, Position, Role

Visibility = Literal["public", "unlisted", "share-link", "visitor-auth", "in-collection", "private"]

DefaultLevel = Role | Literal["inherit"] | None


class SpaceCreate(Body):
    title: str | None = Field(None, max_length=50)
    emoji: str | None = Field(None, max_length=50)
    visibility: Visibility | None = None
    parent: str | None = None


class SpaceUpdate(Body):
    title: str | None = Field(None, min_length=1, max_length=50)
    emoji: str | None = Field(None, max_length=50)
    icon: str | None = Field(None, max_length=2048)
    editMode: Literal["live", "locked"] | None = None
    defaultLevel: DefaultLevel = None
    visibility: Visibility | None = None
    mergeRules: SpaceMergeRules | None = None


class SpaceMove(Body):
    parent: str | None = None
    position: Position | None = None


class Transfer(Body):
    organization: str = Field(min_length=1)
