"""edit_denial: why the reader may not suggest edits in a space (shared by Browse and Reviews)."""

from __future__ import annotations

from ...markdown.sanitize import clean_text
from ...models import Space

__all__ = ["edit_denial"]


def edit_denial(space: Space) -> str | None:
    """Why the reader may not suggest edits in ``space`` (``None``: they may)."""
    name = clean_text(space.title or space.id)
    if space.editMode == "locked":
        return f"“{name}” is locked: its content can't be changed, so no edit can be suggested."
    if space.permissions is None or not space.permissions.edit:
        return f"Suggesting an edit needs edit rights on “{name}”; you may only read it."
    return None
