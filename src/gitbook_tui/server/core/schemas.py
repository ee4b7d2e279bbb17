"""Request-body building blocks shared by route families (roles, positions, content)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Role = Literal["admin", "create", "edit", "review", "comment", "read"]


class Body(BaseModel):
    """Base of request bodies: unknown fields are ignored, like the real service."""

    model_config = ConfigDict(extra="ignore")


class PositionTarget(Body):
    type: str
    space: str | None = None
    collection: str | None = None
    siteSection: str | None = None
    siteSpace: str | None = None


class Position(Body):
    before: PositionTarget | None = None
    after: PositionTarget | None = None

    def anchors(self) -> tuple[str | None, str | None]:
        """(before id, after id) whatever kind of item the position names."""

        def target_id(target: PositionTarget | None) -> str | None:
            if target is None:
                return None
            return target.space or target.collection or target.siteSection or target.siteSpace

        return target_id(self.before), target_id(self.after)


class MarkdownContent(Body):
    markdown: str = Field(max_length=1_000_000)
