"""What suggest-edit asks of the server and the disk: where an edit may go, the page as it
is there, posting it, the page-edit draft and the private copy of a failed post (no
Textual here: plain async functions of the client and the draft store)."""

from __future__ import annotations

import asyncio
import contextlib
import re
from datetime import UTC, datetime
from pathlib import Path

from ...api import AsyncGitBook, GitBookError, NotFoundError
from ...drafts import DraftKey, DraftStore
from ...drafts.files import atomic_write, check_fingerprint, default_data_dir, private_dir
from ...drafts.keys import PAGE_EDIT
from ...models import ChangeRequest, ChangeRequestContentChange, RevisionPage, Space

__all__ = [
    "PageEditDraft",
    "current_reviews",
    "edit_targets",
    "keep_edit",
    "keep_private_copy",
    "moved_on",
    "page_as_in",
    "page_title",
    "post_edit",
    "read_space",
    "same_text",
]


def same_text(a: str, b: str) -> bool:
    """Equal but for trailing whitespace (editors add a final newline)."""
    return a.rstrip() == b.rstrip()


def keep_edit(account: str, title: str, text: str, root: Path | None = None) -> Path:
    """Write ``text`` to a private file of its own (dir 0700, file 0600) and return it."""
    base = (root or default_data_dir() / "kept-edits") / check_fingerprint(account)
    private_dir(base.parent)
    private_dir(base)
    slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:40] or "page"
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    path = base / f"edit-{slug}-{stamp}.md"
    atomic_write(path, text.encode("utf-8"))
    return path


async def keep_private_copy(account: str, title: str, text: str) -> Path:
    """:func:`keep_edit` in a thread (the text of a post that did not go through)."""
    return await asyncio.to_thread(keep_edit, account, title, text)


async def read_space(client: AsyncGitBook, space_id: str) -> Space:
    """The space as it is now (its lock and the reader's rights decide before anything)."""
    return await client.spaces.get(space_id, read="network")


async def edit_targets(
    client: AsyncGitBook, space_id: str, me: str, under_review: str | None
) -> tuple[list[ChangeRequest], str | None]:
    """The reader's open change requests of this space, then ``under_review`` (the one the
    review pane shows) if it is another author's and still open: the picker's rows after
    "new", and the id of the one under review when it is offered."""
    found = [
        cr
        async for cr in client.change_requests.list(
            space_id, status=["open", "draft"], creator=me, read="network"
        )
    ]
    if under_review is not None and all(cr.id != under_review for cr in found):
        try:
            cr = await client.change_requests.get(space_id, under_review, read="network")
        except GitBookError:
            return found, None
        if cr.status not in ("open", "draft"):
            return found, None
        found.append(cr)
    return found, under_review


async def page_title(client: AsyncGitBook, space_id: str, page_id: str) -> str:
    """The page's title on main (its id when it has none)."""
    page = await client.content.get_page(space_id, page_id, read="prefer-cache")
    return page.title or page_id


async def page_as_in(
    client: AsyncGitBook, space_id: str, page_id: str, target: ChangeRequest | None
) -> RevisionPage:
    """The page as markdown, as it is in ``target`` (on main when ``None``)."""
    return await client.content.get_page(
        space_id,
        page_id,
        change_request=target.id if target is not None else None,
        format="markdown",
        read="network",
    )


async def moved_on(
    client: AsyncGitBook, space_id: str, cr: ChangeRequest, page_id: str, original: str
) -> bool:
    """Whether the page in ``cr`` is no longer the one the editor was given (someone
    edited it meanwhile): posting the whole page then would undo their edit."""
    try:
        page = await page_as_in(client, space_id, page_id, cr)
    except NotFoundError:
        return True
    return not same_text(page.markdown or "", original)


async def post_edit(
    client: AsyncGitBook,
    space_id: str,
    target: ChangeRequest | None,
    page_id: str,
    title: str,
    markdown: str,
) -> tuple[ChangeRequest, bool]:
    """Post the page's new markdown into ``target`` (a new change request "Edit <title>"
    when ``None``); the change request and whether it was made for this edit. When the
    post fails, a change request made for it is archived (an empty one would only be
    noise) and the error raised."""
    created: ChangeRequest | None = None
    try:
        cr = target
        if cr is None:
            cr = created = await client.change_requests.create(space_id, subject=f"Edit {title}")
        await client.change_requests.edit_content(
            space_id, cr.id, [ChangeRequestContentChange.update_markdown(page_id, markdown)]
        )
    except GitBookError:
        if created is not None:
            with contextlib.suppress(GitBookError):
                await client.change_requests.update(space_id, created.id, status="archived")
        raise
    return cr, created is not None


async def current_reviews(
    client: AsyncGitBook, space_id: str, cr: ChangeRequest
) -> tuple[int, int]:
    """Approvals and change requests of ``cr``'s current revision (each reviewer's latest),
    the reviews a new revision makes outdated."""
    latest: dict[str, str] = {}
    async for review in client.change_requests.reviews(
        space_id, cr.id, outdated=False, read="network"
    ):  # newest first
        who = review.reviewer.id if review.reviewer else review.id
        latest.setdefault(who, str(review.status or ""))
    statuses = list(latest.values())
    return statuses.count("approved"), statuses.count("changes-requested")


class PageEditDraft:
    """The unsent edit of one page into one change request (``""``: a new one), kept in
    the account's draft store (kind ``page-edit``); every method does its file work in a
    thread."""

    def __init__(self, account: str, space_id: str, cr_id: str, page_id: str) -> None:
        self.store = DraftStore(account)
        self.key = DraftKey(PAGE_EDIT, space=space_id, change_request=cr_id, target=page_id)

    async def text(self) -> str | None:
        """The draft's text (``None``: no draft)."""
        draft = await asyncio.to_thread(self.store.load, self.key)
        return draft.text if draft is not None else None

    async def save(self, text: str, title: str) -> None:
        await asyncio.to_thread(self.store.save, self.key, text, title=title)

    async def delete(self) -> None:
        await asyncio.to_thread(self.store.delete, self.key)

    async def delete_if_text(self, text: str) -> None:
        """Delete it unless it changed since ``text`` was posted (another edit kept)."""
        await asyncio.to_thread(self.store.delete_if_text, self.key, text)
