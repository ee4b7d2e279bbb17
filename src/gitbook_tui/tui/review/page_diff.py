"""One changed page's two sides, loaded and diffed: the page at the change request's base
revision and the page in the change request (no widgets here).

Both sides are fetched together; the base (immutable, usually a cached answer) is cut into
its top-level blocks in a thread while the change request's side is still on its way, then
the two are diffed in a thread (:func:`~gitbook_tui.markdown.diff.stage_diff`, as the
history view does: lazily — what they share is parsed only when shown — and a large
page's first changes first, the whole page's diff once they are shown).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from ...api import AsyncGitBook, NotFoundError
from ...markdown.diff import (
    STAGED_FROM_CHARS,
    AttributeChange,
    BlockDiff,
    Side,
    StagedDiff,
    cut_base,
    header_diff,
    stage_diff,
)
from ...models import ChangeRequest, RevisionPage

__all__ = ["PageDiff", "diff_sides", "load_page_diff"]


@dataclass(frozen=True)
class PageDiff:
    old: RevisionPage | None
    new: RevisionPage | None
    staged: StagedDiff
    """What the diff pane shows (a large page's first changes, then the whole page's)."""
    header: tuple[AttributeChange, ...]

    @property
    def diff(self) -> BlockDiff:
        """The diff shown first (the whole page's, unless :attr:`staged` is partial)."""
        return self.staged.first

    @property
    def new_markdown(self) -> str | None:
        return None if self.new is None else self.new.markdown or ""


def diff_sides(old: str | None, new: str | None, base: Side | None = None) -> StagedDiff:
    """The diff of two sides' markdown to show (``base``: the old side's chunks, if cut
    already), with the rows of its first screen made (run it in a worker: the diff is lazy —
    :func:`~gitbook_tui.markdown.diff.lazy_diff` — and the rows around each change would
    otherwise be parsed on the UI thread when first folded); a large page's first changes
    only (the pane reads the rest once they are shown)."""
    return stage_diff(old, new, base=base)


async def _side(fetch: Callable[[], Awaitable[RevisionPage]]) -> RevisionPage | None:
    try:
        return await fetch()
    except NotFoundError:
        return None


async def _base_chunks(
    old_task: asyncio.Task[RevisionPage | None], new_task: asyncio.Task[RevisionPage | None]
) -> Side | None:
    """The base side cut into chunks while the change request's side is still on its way
    (the base, immutable, is usually a cached answer); ``None`` if there is no point — a
    large page's first changes are diffed without it, and the first screen would wait."""
    old = await old_task
    if old is None or new_task.done() or len(old.markdown or "") >= STAGED_FROM_CHARS:
        return None
    return await asyncio.to_thread(cut_base, old.markdown or "")


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

    old_task = asyncio.ensure_future(
        none()
        if kind == "page_created"
        else _side(
            lambda: content.revision_page(
                space_id, base_rev, page_id, format="markdown", read="prefer-cache"
            )
        )
    )
    new_task = asyncio.ensure_future(
        none()
        if kind == "page_deleted"
        else _side(
            lambda: content.get_page(
                space_id, page_id, change_request=cr.id, format="markdown", read="network"
            )
        )
    )
    try:
        old, new, base = await asyncio.gather(old_task, new_task, _base_chunks(old_task, new_task))
    finally:  # one side failed: do not leave the other running
        for task in (old_task, new_task):
            task.cancel()
    diff = await asyncio.to_thread(
        diff_sides,
        None if old is None else old.markdown or "",
        None if new is None else new.markdown or "",
        None if new is None else base,
    )
    return PageDiff(old, new, diff, tuple(header_diff(old, new)))
