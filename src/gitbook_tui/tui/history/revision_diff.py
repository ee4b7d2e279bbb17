"""The data of a revision's diff (or of any two): the pages that differ between two revisions
and each page's block diff (no widgets here: testable without Textual)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz

from ...api import AsyncGitBook, GitBookError, NotFoundError
from ...markdown.diff import (
    AttributeChange,
    BlockDiff,
    InlineLine,
    SplitLine,
    StagedDiff,
    header_diff,
    stage_diff,
)
from ...models import Revision, RevisionPage

__all__ = [
    "ChangedPage",
    "PageChange",
    "changed_between",
    "load_page_change",
    "load_revisions",
    "nearest_change",
]

_DOCUMENT = "document"


@dataclass(frozen=True)
class ChangedPage:
    """A page that differs between the two revisions: "created", "edited", "moved" or
    "deleted" (from the older to the newer)."""

    page_id: str
    title: str
    kind: str
    path: str = ""


@dataclass(frozen=True)
class PageChange:
    """One changed page's two sides and their block diff."""

    page: ChangedPage
    old: RevisionPage | None
    new: RevisionPage | None
    staged: StagedDiff
    """What the diff pane shows (a large page's first changes, then the whole page's)."""
    header: tuple[AttributeChange, ...]

    @property
    def diff(self) -> BlockDiff:
        """The diff shown first (the whole page's, unless :attr:`staged` is partial)."""
        return self.staged.first


def _documents(revision: Revision | None) -> dict[str, RevisionPage]:
    if revision is None:
        return {}
    return {p.id: p for p in revision.walk_pages() if str(p.type or _DOCUMENT) == _DOCUMENT}


def changed_between(old: Revision | None, new: Revision) -> list[ChangedPage]:
    """The document pages that differ from ``old`` (None: nothing before) to ``new``, in
    ``new``'s page order, then those deleted."""
    before, after = _documents(old), _documents(new)
    out: list[ChangedPage] = []
    for page_id, page in after.items():
        prior = before.get(page_id)
        title = page.title or "Untitled"
        if prior is None:
            out.append(ChangedPage(page_id, title, "created", page.path or ""))
        elif (prior.documentId, prior.title, prior.description) != (
            page.documentId,
            page.title,
            page.description,
        ):
            out.append(ChangedPage(page_id, title, "edited", page.path or ""))
        elif prior.path != page.path:
            out.append(ChangedPage(page_id, title, "moved", page.path or ""))
    out += [
        ChangedPage(page_id, page.title or "Untitled", "deleted", page.path or "")
        for page_id, page in before.items()
        if page_id not in after
    ]
    return out


async def load_revisions(
    client: AsyncGitBook, space_id: str, old_id: str | None, new_id: str
) -> tuple[Revision | None, Revision]:
    """Both revisions (immutable: from the cache when there). An older side that cannot be
    read (gone, or not for this reader) is ``None``: everything in the newer is then new."""

    async def older() -> Revision | None:
        if old_id is None:
            return None
        try:
            return await client.revisions.get(space_id, old_id, read="prefer-cache")
        except GitBookError:
            return None

    old, new = await asyncio.gather(
        older(), client.revisions.get(space_id, new_id, read="prefer-cache")
    )
    return old, new


def diff_sides(old: str | None, new: str | None) -> StagedDiff:
    """The block diff of two sides' markdown to show, its first screen's rows made (run it
    in a worker: the rows around each change would otherwise be parsed on the UI thread); a
    large page's first changes only (the pane reads the rest once they are shown)."""
    return stage_diff(old, new)


async def load_page_change(
    client: AsyncGitBook, space_id: str, old_id: str | None, new_id: str, page: ChangedPage
) -> PageChange:
    """Both sides of ``page`` (a created page has no older side, a deleted one no newer) and
    their diff."""

    async def side(revision_id: str | None, wanted: bool) -> RevisionPage | None:
        if revision_id is None or not wanted:
            return None
        try:
            return await client.content.revision_page(
                space_id, revision_id, page.page_id, format="markdown", read="prefer-cache"
            )
        except NotFoundError:
            return None

    old, new = await asyncio.gather(
        side(old_id, page.kind != "created"), side(new_id, page.kind != "deleted")
    )
    diff = await asyncio.to_thread(
        diff_sides,
        None if old is None else old.markdown or "",
        None if new is None else new.markdown or "",
    )
    return PageChange(page, old, new, diff, tuple(header_diff(old, new)))


def nearest_change(lines: Sequence[InlineLine | SplitLine], near: str) -> int | None:
    """The changed line whose newer block reads most like ``near`` (a block's source, from
    a blame): where the diff opens when asked for "the change of that block"."""
    best, best_score = None, 0.0
    for position, line in enumerate(lines):
        if not line.is_change:
            continue
        if isinstance(line, SplitLine):
            block = line.right
        else:
            block = line.block if line.side != "old" else None
        if block is None or not block.text.strip():
            continue
        score = fuzz.partial_ratio(block.text, near)
        if score > best_score:
            best, best_score = position, score
    return best
