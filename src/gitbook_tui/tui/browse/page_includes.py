"""Reusable contents of a page: ``{% include %}`` blocks filled from the space's revision."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from ...api import AsyncGitBook, GitBookError

if TYPE_CHECKING:  # (the block model: imported with the first page, not at the app's start)
    from ...markdown import Block, Document
    from ...markdown.includes import IncludedContent
    from ...models import ReusableContent

__all__ = ["load_includes"]


async def load_includes(client: AsyncGitBook, space_id: str, document: Document) -> Document:
    """``document`` with its includes expanded (as the real API has them: the revision lists
    its reusable contents with their Git Sync path; each body is its own document). An
    include no reusable content matches shows as missing; one that could not be fetched
    (offline) keeps its path."""
    from ...markdown.includes import expand_includes, include_key, include_paths

    keys = include_paths(document)
    if not keys:
        return document
    try:
        revision = await client.content.revision(space_id, read="prefer-cache")
    except GitBookError:
        return document
    known: dict[str, ReusableContent] = {}
    for item in revision.reusableContents:
        path = item.git.path if item.git is not None else None
        if path:
            known.setdefault(include_key(path), item)
            known.setdefault(include_key(path).rsplit("/", 1)[-1], item)
    contents: dict[str, IncludedContent | None] = {}
    for key in keys:
        found = known.get(key) or known.get(key.rsplit("/", 1)[-1])
        if found is None:
            contents[key] = None
            continue
        try:
            body = await client.content.reusable_content_document(
                space_id, revision.id, found.id, read="prefer-cache"
            )
        except GitBookError:
            continue
        included = await asyncio.to_thread(_included, body)
        contents[key] = (found.title or key, included)
    return expand_includes(document, contents)


def _included(body: object) -> Document:
    """A reusable content's document: its blocks, each one that does not convert shown as
    unreadable in its place (the rest of the page, and of the include, still reads)."""
    # (imported with the first include, not at the app's start: markdown-it, the content API)
    from ...api.content import Unreadable, document_parts
    from ...markdown import parse
    from ...markdown.model import Document, Notice

    blocks: list[Block] = []
    run: list[str] = []
    for part in [*document_parts(body), None]:
        if isinstance(part, str):
            run.append(part)
            continue
        if run:
            blocks.extend(parse("\n\n".join(run)).blocks)
            run = []
        if isinstance(part, Unreadable):
            blocks.append(Notice(f"Unreadable {part.kind} block", part.reason))
    return Document(tuple(blocks))
