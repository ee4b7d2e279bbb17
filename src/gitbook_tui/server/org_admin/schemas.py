"""Request bodies of organization administration: email and link invites, teams, translations."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, field_validator, model_validator

from ..core.schemas import Body, Role

_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s.]+$")

Language = Literal[
    "en", "fr", "de", "es", "it", "pt", "pt-br", "ru", "ja", "zh", "zh-tw", "yue", "ko", "ar",
    "hi", "nl", "pl", "tr", "sv", "no", "da", "fi", "el", "cs", "hu", "ro", "th", "vi", "id",
    "ms", "he", "uk", "sk", "bg", "hr", "lt", "lv", "et", "sl",
]  # fmt: skip


class EmailInvite(Body):
    email: str
    role: Role | None


class InviteUsers(Body):
    emails: list[str | EmailInvite] = Field(min_length=1)
    role: Role | None = None
    sso: bool = False

    @field_validator("emails")
    @classmethod
    def _emails(cls, value: list[str | EmailInvite]) -> list[str | EmailInvite]:
        for item in value:
            email = item if isinstance(item, str) else item.email
            if not _EMAIL.match(email):
                raise ValueError(f"'{email}' is not a valid email address")
        return value


class LinkInviteBody(Body):
    """An organization invite ``{role}``, or a content invite ``{level, space | collection}``
    (the official ``CreateOrganizationInvite`` forms)."""

    role: Role | None = None
    level: Role | None = None
    space: str | None = Field(None, min_length=1, max_length=100)
    collection: str | None = Field(None, min_length=1, max_length=100)

    @model_validator(mode="after")
    def _one_form(self) -> LinkInviteBody:
        fields = self.model_fields_set
        content = "level" in fields or self.space is not None or self.collection is not None
        if content:
            if "role" in fields:
                raise ValueError("give either 'role' or 'level' with 'space' or 'collection'")
            if "level" not in fields:
                raise ValueError("level: is required with 'space' or 'collection'")
            if (self.space is None) == (self.collection is None):
                raise ValueError("give exactly one of 'space' or 'collection' with 'level'")
        elif "role" not in fields:
            raise ValueError("role: is required")
        return self


class LinkInviteUpdate(Body):
    """``{role}`` for an organization invite, ``{level}`` for a content invite."""

    role: Role | None = None
    level: Role | None = None

    @model_validator(mode="after")
    def _one(self) -> LinkInviteUpdate:
        if len(self.model_fields_set & {"role", "level"}) != 1:
            raise ValueError("give exactly one of 'role' or 'level'")
        return self


class TeamCreate(Body):
    title: str = Field(min_length=1, max_length=64)
    members: list[str] = Field(default_factory=list)


class TeamUpdate(Body):
    title: str = Field(min_length=1, max_length=64)


class TranslationBody(Body):
    title: str = Field(min_length=1, max_length=100)
    languages: list[Language] = Field(default_factory=list)
