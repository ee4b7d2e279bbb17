"""What the review pane's header and its "changed under you" banner say (pure, testable)."""

from __future__ import annotations

from textual.content import Content

from ...models import ChangeRequest, RevisionSemanticChange
from ..common.text import inert
from .review_data import ReviewState

__all__ = ["change_title", "changed_under_you", "header_content"]


def change_title(change: RevisionSemanticChange) -> str:
    """The changed page's (or file's) name, as the pages list and the narrow header show it."""
    if change.page is not None:
        return change.page.title or change.page.id
    if change.file is not None:
        return change.file.name or change.file.id
    return str(change.type)


def header_content(
    state: ReviewState, *, conflict: str | None, page_line: Content | None = None
) -> Content:
    """``#12 Subject · open · Ann · ✓1 ✗0 · reviewers`` and its badges (outdated, a
    conflict with main); ``page_line`` (narrow layouts: the pages list is hidden) below."""
    cr = state.cr
    parts: list[tuple[str, str] | str | Content] = [
        (f"#{cr.number} ", "bold"),
        inert(cr.subject or "(no subject)", style="bold"),
        f" · {cr.status} · ",
        inert(cr.createdBy.displayName if cr.createdBy else ""),
        (f" · ✓{state.approvals}", "$text-success"),
        (f" ✗{state.changes_requested}", "$text-error"),
    ]
    names = state.reviewer_names()
    if names:
        parts.append(" · ")
        parts.append(inert(" ".join(names)))
    if cr.outdated:
        parts.append(("  ⟳ outdated", "bold $text-warning"))
    if conflict is not None:
        parts.append(("  ⚠ conflicts with main", "bold $text-error"))
    if page_line is not None:
        parts.append(Content.assemble("\n", page_line))
    return Content.assemble(*parts)


def changed_under_you(shown: ChangeRequest, fresh: object) -> str | None:
    """The banner for a fresh read of the change request shown, when it differs in what a
    reviewer must know before acting (new commits, status, outdated); None when not."""
    what = []
    if getattr(fresh, "revision", None) != shown.revision:
        what.append("new commits")
    if getattr(fresh, "status", None) != shown.status:
        what.append(f"now {getattr(fresh, 'status', '')}")
    if getattr(fresh, "outdated", None) and not shown.outdated:
        what.append("became outdated")
    if not what:
        return None
    return f"This change request changed under you ({', '.join(what)}). R reloads."
