"""OutboxAction: one queued write (comment, reply, reaction or resolve) and where its text
goes back to when the server refuses it."""

from __future__ import annotations

import builtins
from typing import Annotated, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .keys import COMMENT, REPLY, DraftKey

__all__ = ["ACTION_KINDS", "ActionKind", "Id", "OutboxAction"]

ActionKind = Literal["comment", "reply", "reaction", "resolve"]
ACTION_KINDS: tuple[ActionKind, ...] = ("comment", "reply", "reaction", "resolve")
Id = Annotated[str, Field(min_length=1, max_length=1024)]


class OutboxAction(BaseModel):
    """One queued write. Build it with ``comment``, ``reply``, ``reaction`` or ``resolve``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: ActionKind
    space: Id
    change_request: Id | None = None
    comment: Id | None = None  # the thread
    reply: Id | None = None  # reacted reply
    page: Id | None = None  # a new thread's page
    node: Id | None = None  # …and block in it
    markdown: str | None = None  # comment / reply body
    added_reactions: tuple[str, ...] = ()
    removed_reactions: tuple[str, ...] = ()
    resolved: bool | None = None
    draft: DraftKey | None = None  # the draft the text came from (restored on a 4xx)
    label: str | None = Field(default=None, max_length=500)  # e.g. "Reply to Lee on FAQ"
    key: Id | None = Field(default=None, exclude=True)
    """The ``Idempotency-Key`` its sends carry: the queued item's id, set by the Replayer
    for each send (not stored: the item's id is)."""

    @model_validator(mode="after")
    def _fits_kind(self) -> Self:
        needs: dict[str, tuple[str, ...]] = {
            "comment": ("markdown",),
            "reply": ("comment", "markdown"),
            "reaction": ("comment",),
            "resolve": ("comment", "resolved"),
        }
        missing = [name for name in needs[self.kind] if getattr(self, name) is None]
        if missing:
            raise ValueError(f"a queued {self.kind} needs {', '.join(missing)}")
        if self.markdown is not None and not self.markdown.strip():
            raise ValueError("an empty comment is not queued")
        if self.kind == "reaction" and not (self.added_reactions or self.removed_reactions):
            raise ValueError("a queued reaction adds or removes at least one emoji")
        allowed = {
            "comment": {"page", "node", "markdown"},
            "reply": {"comment", "markdown"},
            "reaction": {"comment", "reply", "added_reactions", "removed_reactions"},
            "resolve": {"comment", "resolved"},
        }[self.kind]
        payload = {"comment", "reply", "page", "node", "markdown", "resolved"}
        stray = [n for n in sorted(payload - allowed) if getattr(self, n) is not None]
        if self.kind != "reaction" and (self.added_reactions or self.removed_reactions):
            stray.append("reactions")
        if stray:
            raise ValueError(f"a queued {self.kind} does not take {', '.join(stray)}")
        return self

    def __repr__(self) -> str:  # bodies stay out of log lines
        return f"OutboxAction(kind={self.kind!r}, space={self.space!r}, comment={self.comment!r})"

    __str__ = __repr__

    @classmethod
    def new_comment(
        cls,
        space: str,
        markdown: str,
        *,
        page: str | None = None,
        node: str | None = None,
        change_request: str | None = None,
        draft: DraftKey | None = None,
        label: str | None = None,
    ) -> OutboxAction:
        return cls(
            kind="comment",
            space=space,
            markdown=markdown,
            page=page,
            node=node,
            change_request=change_request,
            draft=draft,
            label=label,
        )

    @classmethod
    def new_reply(
        cls,
        space: str,
        comment: str,
        markdown: str,
        *,
        change_request: str | None = None,
        draft: DraftKey | None = None,
        label: str | None = None,
    ) -> OutboxAction:
        return cls(
            kind="reply",
            space=space,
            comment=comment,
            markdown=markdown,
            change_request=change_request,
            draft=draft,
            label=label,
        )

    @classmethod
    def new_reaction(
        cls,
        space: str,
        comment: str,
        *,
        reply: str | None = None,
        added: builtins.list[str] | tuple[str, ...] = (),
        removed: builtins.list[str] | tuple[str, ...] = (),
        change_request: str | None = None,
        label: str | None = None,
    ) -> OutboxAction:
        return cls(
            kind="reaction",
            space=space,
            comment=comment,
            reply=reply,
            added_reactions=tuple(added),
            removed_reactions=tuple(removed),
            change_request=change_request,
            label=label,
        )

    @classmethod
    def new_resolve(
        cls,
        space: str,
        comment: str,
        *,
        resolved: bool = True,
        change_request: str | None = None,
        label: str | None = None,
    ) -> OutboxAction:
        return cls(
            kind="resolve",
            space=space,
            comment=comment,
            resolved=resolved,
            change_request=change_request,
            label=label,
        )

    def draft_key(self) -> DraftKey | None:
        """Where the text of a comment or reply goes back to when the server refuses it."""
        if self.markdown is None:
            return None
        if self.draft is not None:
            return self.draft
        cr = self.change_request or ""
        if self.kind == "reply":
            return DraftKey(REPLY, space=self.space, change_request=cr, target=self.comment or "")
        return DraftKey(COMMENT, space=self.space, change_request=cr, target=self.page or "")
