"""One changed page's two sides, loaded and diffed: the page at the change request's base
revision and the page in the change request (no widgets here).

Both sides are fetched together, then parsed together in a thread
(:func:`~gitbook_tui.markdown.diff.diff_markdown`: the blocks they share are parsed once).
Parsed documents are not kept: a 1 MB page's is tens of MB (the RSS budget is 250 MB).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from ...api import AsyncGitBook, NotFoundError
from ...markdown.diff import (
    DEFAULT_CONTEXT,
    AttributeChange,
    BlockDiff,
    diff_markdown,
    fold,
    header_diff,
)
from ...models import ChangeRequest, RevisionPage

__all__ = ["PageDiff", "diff_sides", "load_page_diff"]


@dataclass(frozen=True)
class PageDiff:
    old: RevisionPage | None
    new: RevisionPage | None
    diff: BlockDiff
    header: tuple[AttributeChange, ...]

    @property
    def new_markdown(self) -> str | None:
        return None if self.new is None else self.new.markdown or ""


def diff_sides(old: str | None, new: str | None) -> BlockDiff:
    """The diff of two sides' markdown, with the rows of its first screen made (run it in a
    worker: the diff is lazy — :func:`~gitbook_tui.markdown.diff.lazy_diff` — and the rows
    around each change would otherwise be parsed on the UI thread when first folded)."""
    diff = diff_markdown(old, new)
    fold(diff.rows, DEFAULT_CONTEXT)
    return diff


async def _side(fetch: Callable[[], Awaitable[RevisionPage]]) -> RevisionPage | None:
    try:
        return await fetch()
    except NotFoundError:
        return None


async def load_page_diff(
    client: AsyncGitBook,
    space_id: str,
    cr: ChangeRequest,
    page_id: str,
    kind: str,
) -> PageDiff:
    """Both sides of ``page_id`` (``kind``: the semantic change type; a created page has no
    base, a deleted one no new side) and their block diff."""
    content = client.content
    base_rev = cr.revisionMergedAncestor or cr.revisionInitial or ""

    async def none() -> None:
        return None

    old_task = (
        none()
        if kind == "page_created"
        else _side(
            lambda: content.revision_page(
                space_id, base_rev, page_id, format="markdown", read="prefer-cache"
            )
        )
    )
    new_task = (
        none()
        if kind == "page_deleted"
        else _side(
            lambda: content.get_page(
                space_id, page_id, change_request=cr.id, format="markdown", read="network"
            )
        )
    )
    old, new = await asyncio.gather(old_task, new_task)
    diff = await asyncio.to_thread(
        diff_sides,
        None if old is None else old.markdown or "",
        None if new is None else new.markdown or "",
    )
    return PageDiff(old, new, diff, tuple(header_diff(old, new)))
