"""reactions_summary: a post's reactions as one line of Content (mine marked)."""

from __future__ import annotations

from textual.content import Content

from ...models import Reaction
from ..common.text import inert
from .thread_data import reacted, reaction_count

__all__ = ["reactions_summary"]


def reactions_summary(reactions: list[Reaction], me: str | None, mine_style: str) -> Content:
    """``👍3 🔥1`` with my reactions in ``mine_style``."""
    parts: list[Content] = []
    for reaction in reactions:
        count = reaction_count(reaction)
        if count <= 0:
            continue
        style = mine_style if reacted(reaction, me) else ""
        parts.append(inert(f"{reaction.emoji}{count}", style=style))
    return Content(" ").join(parts)
