"""Whose change request an edit goes into: consent before another author's, notice after."""

from __future__ import annotations

from typing import Any

from textual.app import App

from ...api import AsyncGitBook, GitBookError
from ...markdown.sanitize import clean_text
from ...models import ChangeRequest
from ..common.confirm_screen import ConfirmScreen
from ..common.text import count_of
from .suggest_edit_data import current_reviews

__all__ = [
    "ask_consent",
    "author_of",
    "consent_effect",
    "current_reviews",
    "is_own",
    "offer_to_open",
    "whose",
]


def is_own(cr: ChangeRequest, me: str) -> bool:
    """Whether ``me`` opened ``cr`` (an author the server did not name is someone else:
    asking once too often is cheaper than editing another's work unasked)."""
    return cr.createdBy is not None and cr.createdBy.id == me


def author_of(cr: ChangeRequest) -> str:
    """The author's display name, control-free ("someone" when the server names nobody)."""
    user = cr.createdBy
    if user is None:
        return "someone"
    return clean_text(user.displayName or user.email or user.id)


def whose(cr: ChangeRequest, me: str) -> str:
    """``your #2`` or ``Ravi's #6``: the change request named with its owner."""
    owner = "your" if is_own(cr, me) else f"{author_of(cr)}'s"
    return f"{owner} #{cr.number}"


def consent_effect(cr: ChangeRequest, reviews: tuple[int, int] | None) -> str:
    """What adding an edit to another author's ``cr`` does, e.g. "Adds your edit to Ravi's
    #6 “Sizing”; its 1 approval becomes outdated." (``reviews``: see :func:`current_reviews`;
    ``None`` when they could not be read)."""
    head = (
        f"Adds your edit to {author_of(cr)}'s #{cr.number} "
        f"“{clean_text(cr.subject or '(no subject)')}” as a new revision of it"
    )
    if reviews is None:
        return f"{head}; its reviews of the current revision become outdated."
    approvals, changes = reviews
    named = [count_of(n, noun) for n, noun in ((approvals, "approval"), (changes, "request"))]
    if changes:
        named[1] += " for changes"
    shown = [text for text, n in zip(named, reviews, strict=True) if n]
    if not shown:
        return f"{head}; it has no reviews of its current revision to make outdated."
    verb = "becomes" if approvals + changes == 1 else "become"
    return f"{head}; its {' and '.join(shown)} {verb} outdated."


async def ask_consent(
    app: App[Any], client: AsyncGitBook, space_id: str, cr: ChangeRequest, me: str
) -> bool:
    """``True`` for the caller's own change request; for another author's, whether the
    caller confirmed the effect (:func:`consent_effect`) after reading it."""
    if is_own(cr, me):
        return True
    try:
        reviews: tuple[int, int] | None = await current_reviews(client, space_id, cr)
    except GitBookError:
        reviews = None
    confirmed: bool = await app.push_screen_wait(
        ConfirmScreen(
            f"Edit {author_of(cr)}'s change request #{cr.number}?",
            consent_effect(cr, reviews),
            confirm_label=f"Add my edit to #{cr.number}",
        )
    )
    return confirmed


async def offer_to_open(app: App[Any], cr: ChangeRequest, me: str, title: str) -> bool:
    """Name the existing change request an edit of ``title`` went into; ``True`` when the
    caller asked to open its review."""
    subject = clean_text(cr.subject or "(no subject)")
    opened: bool = await app.push_screen_wait(
        ConfirmScreen(
            f"Your edit is in #{cr.number}",
            f"Your edit of “{clean_text(title)}” is now in {whose(cr, me)} “{subject}”, "
            "as its newest revision. enter opens its review; escape stays here.",
            confirm_label=f"Open #{cr.number}",
        )
    )
    return opened
