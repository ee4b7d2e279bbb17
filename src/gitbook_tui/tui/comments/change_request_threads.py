"""The comment threads of a change request, from its review pane: ``C`` shows them (the
Comments view with change-request scope: same keys), ``c`` starts a thread quoting the
block under the diff's cursor, anchored to the page the diff shows."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...markdown.diff.align import DiffRow
from ...markdown.diff.blocks import DisplayBlock
from ...markdown.diff.view import InlineLine, SplitLine
from ...markdown.sanitize import clean_text
from .comments_screen import CommentsScreen

if TYPE_CHECKING:
    from ..review.change_request_review_screen import ChangeRequestReviewScreen

__all__ = ["Quote", "block_quote", "quoted_block", "show_change_request_threads"]

MAX_QUOTE = 2000
"""Characters of a block quoted at most (a huge table row or code line is cut with "…")."""

Quote = tuple[str | None, str]
"""(page id or ``None``, the markdown to start the composer with)."""


def block_quote(text: str) -> str:
    """``text`` as a markdown blockquote, followed by an empty line to write under it."""
    text = clean_text(text).strip()
    if len(text) > MAX_QUOTE:
        text = text[:MAX_QUOTE].rstrip() + "…"
    lines = text.splitlines() or [""]
    return "\n".join(f"> {line}".rstrip() for line in lines) + "\n\n"


def quoted_block(review: ChangeRequestReviewScreen) -> str | None:
    """The text of the block at the diff's cursor (its current change, else the first line
    shown), the new side when it has one; ``None`` when no diff is shown."""
    diff = review.diff
    lines = diff.lines
    if not lines:
        return None
    position = diff.current
    if position is None or position >= len(lines):
        top = diff.scroll_offset.y
        position = next(
            (i for i, line in enumerate(lines) if _block(line) is not None and i >= top), 0
        )
    block = _block(lines[position])
    return block.text if block is not None else None


def _block(line: InlineLine | SplitLine) -> DisplayBlock | None:
    """The block a line shows, its new side when it has one (what the thread discusses)."""
    if isinstance(line, SplitLine):
        return line.right or line.left
    if isinstance(line.row, DiffRow) and line.row.new is not None:
        return line.row.new  # the removed line of a changed pair: quote what replaces it
    return line.block


def show_change_request_threads(review: ChangeRequestReviewScreen, *, quote: bool = False) -> None:
    """Push the change request's threads over its review pane; with ``quote``, a new thread
    quoting the block under the diff's cursor is started (the composer prefilled)."""
    state = review.state
    if state is None:
        review.notify("The change request is still loading.", timeout=3)
        return
    start: Quote | None = None
    if quote:
        text = quoted_block(review)
        if text is None or not text.strip():
            review.notify("Move to a block of the diff to quote it (n: next change).", timeout=3)
            return
        change = review.pages.selected
        page = change.page.id if change is not None and change.page is not None else None
        start = (page, block_quote(text))
    cr = state.cr
    label = f"#{cr.number} {cr.subject or ''}".strip()
    screen = CommentsScreen(
        review.nav,
        space_id=review.space_id,
        change_request=cr.id,
        label=label,
        quote=start,
    )
    review.app.push_screen(screen)
