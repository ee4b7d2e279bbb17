"""Request bodies of comments and replies, and the output format of comment bodies."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, field_validator

from ..core.schemas import Body

MAX_EMOJI = 50
MAX_REACTIONS_PER_REQUEST = 50

Format = Literal["document", "markdown"]


class Content(Body):
    """A comment body: ``{markdown}`` (or ``{document}``, read as its plain text)."""

    # Length is checked in `read_content`: the validation handler drops every `body` part
    # of an error location, so a pydantic limit here would be reported as just `markdown`.
    markdown: str | None = None
    document: dict[str, Any] | None = None


class CommentPost(Body):
    body: Content
    page: str | None = Field(None, min_length=1, max_length=256)
    node: str | None = Field(None, min_length=1, max_length=256)


class ReplyPost(Body):
    body: Content


class CommentUpdate(Body):
    resolved: bool | None = None
    body: Content | None = None
    addedReactions: list[str] | None = Field(None, max_length=MAX_REACTIONS_PER_REQUEST)
    removedReactions: list[str] | None = Field(None, max_length=MAX_REACTIONS_PER_REQUEST)

    @field_validator("addedReactions", "removedReactions")
    @classmethod
    def _emojis(cls, value: list[str] | None) -> list[str] | None:
        if value is None:
            return None
        cleaned = []
        for emoji in value:
            emoji = emoji.strip()
            if not emoji:
                raise ValueError("an emoji must not be empty")
            if len(emoji) > MAX_EMOJI:
                raise ValueError(f"an emoji is at most {MAX_EMOJI} characters")
            cleaned.append(emoji)
        return cleaned
