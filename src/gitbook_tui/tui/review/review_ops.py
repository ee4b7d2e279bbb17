"""What the review pane asks of the server and the disk: the reader, fresh reads, reviews,
reviewers, update, merge, status, subject, local conflict and viewed marks, and the three
sides of a conflicting page (no Textual here: each is a plain async function of the client).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from ...api import AsyncGitBook, GitBookError, NotFoundError
from ...models import ChangeRequest, RevisionPage, User
from ..common.state import account_key
from .conflict_marks import load_conflict_marks
from .review_data import ReviewState
from .viewed_marks import ViewedMarks

__all__ = [
    "ConflictSides",
    "conflict_message",
    "conflict_sides",
    "fresh_change_request",
    "merge",
    "open_viewed_marks",
    "record_conflict",
    "remove_reviewer",
    "request_reviewer",
    "save_details",
    "save_viewed_marks",
    "set_status",
    "space_roles",
    "submit_review",
    "update_from_main",
    "whoami",
]


async def whoami(client: AsyncGitBook) -> str:
    """The signed-in reader's user id (cached after the first read)."""
    return (await client.users.me(read="prefer-cache")).id


async def fresh_change_request(client: AsyncGitBook, space_id: str, cr_id: str) -> ChangeRequest:
    """The change request as the server has it now (never the cache)."""
    return await client.change_requests.get(space_id, cr_id, read="network")


async def submit_review(
    client: AsyncGitBook, space_id: str, cr_id: str, status: str, message: str
) -> None:
    """Approve (``approved``) or request changes (``changes-requested``), with a message
    when one was typed."""
    await client.change_requests.submit_review(
        space_id, cr_id, status, comment=message.strip() or None
    )


async def space_roles(
    client: AsyncGitBook, space_id: str, org_id: str
) -> list[tuple[User, str | None]]:
    """Everyone with their effective role on the space (who may review), or the
    organization's members with their organization role where that list is refused
    (raises :class:`GitBookError` when both are)."""
    try:
        entries = await client.permissions.aggregate(space_id=space_id).to_list()
        return [(e.user, str(e.permission) if e.permission else None) for e in entries if e.user]
    except GitBookError:
        pass
    members = await client.orgs.members(org_id, read="prefer-cache").to_list()
    return [
        (m.user, str(m.role) if m.role else None)
        for m in members
        if m.user is not None and not m.disabled
    ]


async def request_reviewer(client: AsyncGitBook, space_id: str, cr_id: str, user_id: str) -> None:
    await client.change_requests.request_reviewers(space_id, cr_id, [user_id])


async def remove_reviewer(client: AsyncGitBook, space_id: str, cr_id: str, reviewer: str) -> None:
    """``reviewer``: a user id, or ``team:<id>``."""
    await client.change_requests.remove_requested_reviewer(space_id, cr_id, reviewer)


async def update_from_main(client: AsyncGitBook, space_id: str, cr_id: str) -> None:
    """Bring main's newer edits in (a :class:`ConflictError` when they clash)."""
    await client.change_requests.update_from_main(space_id, cr_id)


async def merge(client: AsyncGitBook, space_id: str, cr_id: str) -> None:
    """Merge into main (a :class:`ConflictError` when main clashes)."""
    await client.change_requests.merge(space_id, cr_id)


async def set_status(client: AsyncGitBook, space_id: str, cr_id: str, status: str) -> None:
    """``open`` (ready for review), ``draft`` or ``archived``."""
    await client.change_requests.update(space_id, cr_id, status=status)


async def save_details(
    client: AsyncGitBook, space_id: str, cr_id: str, subject: str, description: str
) -> None:
    """The subject and the description (markdown)."""
    await client.change_requests.update(
        space_id, cr_id, subject=subject, description={"markdown": description}
    )


async def conflict_message(client: AsyncGitBook, cr: ChangeRequest) -> str | None:
    """The 409 message remembered for ``cr`` at its current revision (``None``: no mark)."""
    marks = await asyncio.to_thread(load_conflict_marks, client)
    return marks.message(cr) if marks is not None else None


async def record_conflict(
    client: AsyncGitBook, space_id: str, cr_id: str, message: str | None
) -> None:
    """Mark the change request as conflicting at its current revision (read fresh), or
    clear the mark (``message`` ``None``). Nothing is written when nothing changed or the
    revision can't be read."""
    marks = await asyncio.to_thread(load_conflict_marks, client)
    if marks is None:
        return
    if message is None:
        if not marks.clear(cr_id):
            return
    else:
        try:
            fresh = await fresh_change_request(client, space_id, cr_id)
        except GitBookError:
            return
        marks.mark(fresh, message)
    await asyncio.to_thread(marks.save)


async def open_viewed_marks(client: AsyncGitBook, cr_id: str) -> ViewedMarks:
    """The reader's viewed marks of one change request, read from disk."""
    marks = ViewedMarks(account_key(client), cr_id)
    await asyncio.to_thread(marks.load)
    return marks


async def save_viewed_marks(marks: ViewedMarks) -> None:
    await asyncio.to_thread(marks.save)


@dataclass(frozen=True)
class ConflictSides:
    """A conflicting page's markdown at the base, on main and in the change request
    (``None``: the page does not exist on that side)."""

    base: str | None
    main: str | None
    mine: str | None


async def _markdown(read: Callable[[], Awaitable[RevisionPage]]) -> str | None:
    """The page's markdown (``None`` when the page does not exist on that side); ``read``
    makes the request only when awaited (a cancelled load leaves no stray coroutine)."""
    try:
        page = await read()
    except NotFoundError:
        return None
    return page.markdown or ""


async def conflict_sides(
    client: AsyncGitBook,
    state: ReviewState,
    page_id: str,
    on_url: Callable[[str], None] = lambda url: None,
) -> ConflictSides:
    """The three sides of one page, read together; ``on_url`` hears the page's web address
    in the change request as soon as that side is read (even if another side fails)."""
    cr, space = state.cr, state.space.id
    base_rev = cr.revisionMergedAncestor or cr.revisionInitial or ""
    content = client.content

    async def in_cr() -> RevisionPage:
        page = await content.get_page(
            space, page_id, change_request=cr.id, format="markdown", read="network"
        )
        if page.urls is not None and page.urls.app:
            on_url(page.urls.app)
        return page

    base, main, mine = await asyncio.gather(
        _markdown(lambda: content.revision_page(space, base_rev, page_id, format="markdown")),
        _markdown(lambda: content.get_page(space, page_id, format="markdown", read="network")),
        _markdown(in_cr),
    )
    return ConflictSides(base, main, mine)
