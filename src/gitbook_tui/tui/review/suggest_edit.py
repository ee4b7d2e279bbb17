"""Suggest an edit: a page's markdown in ``$EDITOR``, posted as a change request.

API (the browse view's ``e``, the conflict panel's ``e``)::

    start_suggest_edit(screen, nav, space_id, page_id)            # a worker of ``screen``
    cr = await suggest_edit(app, nav, space_id, page_id, into=cr)  # from a worker

The flow: the space is read first — a locked space, or no edit rights, is said before
anything opens; then where the edit goes is chosen (:class:`.edit_target_screen.EditTargetScreen`:
a new change request "Edit <page title>" — the default, always — or one of the reader's
own open change requests of this space, or the one under review), unless ``into`` fixes
it. Whichever way the target came, another author's change request is only edited once the
reader confirmed the effect (:func:`.edit_consent.ask_consent`: whose it is and which
reviews become outdated). The page is read as it is there and opened in the shared
external editor (:mod:`..common.external_editor`). An unchanged file sends nothing. A
changed one is saved as a draft first (kind ``page-edit``; it comes back in the editor on
the next ``e`` of that page), then posted (``update_page`` with the new markdown, in a new
change request when asked) — into an existing change request only if its page is still the
one edited, so the new revision holds the reader's edit and nothing else. The draft is
removed once the server accepted it; a new change request opens in the review pane (in
the Reviews view, through the ``OpenReview`` intent), an
existing one is named in a notice that offers to open it. A failed post also writes the
text to a private file (0600, under the user data dir) and says where it is.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import weakref
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from textual.app import App
from textual.screen import Screen

from ...api import GitBookError, NotFoundError
from ...drafts import DraftKey, DraftStore
from ...drafts.files import atomic_write, check_fingerprint, default_data_dir, private_dir
from ...drafts.keys import PAGE_EDIT
from ...markdown.sanitize import clean_text
from ...models import ChangeRequest, ChangeRequestContentChange, Space
from ..common.edit_rights import edit_denial
from ..common.external_editor import ExternalEditorError, edit_externally
from ..common.intents import OpenReview
from ..common.navigator import Navigator
from ..common.state import account_key
from .edit_consent import ask_consent, offer_to_open, whose
from .edit_target_screen import EditTargetScreen

__all__ = [
    "edit_denial",
    "keep_edit",
    "note_under_review",
    "start_suggest_edit",
    "suggest_edit",
]

_UNDER_REVIEW: weakref.WeakKeyDictionary[App[Any], tuple[str, str]] = weakref.WeakKeyDictionary()


def note_under_review(app: App[Any], space_id: str, change_request_id: str) -> None:
    """The review pane tells which change request it shows (the picker offers it too)."""
    _UNDER_REVIEW[app] = (space_id, change_request_id)


def _same(a: str, b: str) -> bool:
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


def start_suggest_edit(screen: Screen[Any], nav: Navigator, space_id: str, page_id: str) -> None:
    """Run the flow in a worker of ``screen`` (one at a time)."""
    screen.run_worker(
        suggest_edit(screen.app, nav, space_id, page_id),
        group="suggest-edit",
        exclusive=True,
        exit_on_error=False,
    )


def _say(app: App[Any], text: str, *, error: bool = False, timeout: float = 8) -> None:
    app.notify(
        clean_text(text),
        title="Error" if error else "",
        severity="error" if error else "information",
        markup=False,
        timeout=timeout,
    )


async def _candidates(
    app: App[Any], nav: Navigator, space_id: str, me: str
) -> tuple[list[ChangeRequest], str | None]:
    """The reader's open change requests of this space, then the one under review if it is
    another author's (and still open): the picker's rows after "new"."""
    client = nav.client
    found = [
        cr
        async for cr in client.change_requests.list(
            space_id, status=["open", "draft"], creator=me, read="network"
        )
    ]
    under = _UNDER_REVIEW.get(app)
    under_id = under[1] if under is not None and under[0] == space_id else None
    if under_id is not None and all(cr.id != under_id for cr in found):
        try:
            cr = await client.change_requests.get(space_id, under_id, read="network")
        except GitBookError:
            under_id = None
        else:
            if cr.status in ("open", "draft"):
                found.append(cr)
            else:
                under_id = None
    return found, under_id


async def _choose(
    app: App[Any], nav: Navigator, space_id: str, page_id: str, me: str
) -> tuple[bool, ChangeRequest | None]:
    """Whether to go on, and where the edit goes (``None``: a new change request).
    Declining to edit another author's change request shows the picker again."""
    client = nav.client
    candidates, under = await _candidates(app, nav, space_id, me)
    if not candidates:
        return True, None
    main_page = await client.content.get_page(space_id, page_id, read="prefer-cache")
    while True:
        chosen = await app.push_screen_wait(
            EditTargetScreen(main_page.title or page_id, candidates, under, me=me)
        )
        if chosen is None:
            return False, None
        target = next((cr for cr in candidates if cr.id == chosen), None)
        if target is None or await ask_consent(app, client, space_id, target, me):
            return True, target


async def suggest_edit(
    app: App[Any],
    nav: Navigator,
    space_id: str,
    page_id: str,
    *,
    into: ChangeRequest | None = None,
    open_review: bool = True,
) -> ChangeRequest | None:
    """The whole flow (see the module doc); the change request posted to, or ``None``."""
    client = nav.client
    target = into
    try:
        space = await client.spaces.get(space_id, read="network")
        denied = edit_denial(space)
        if denied is not None:
            _say(app, denied, error=True)
            return None
        me = (await client.users.me(read="prefer-cache")).id
        if target is None:
            go_on, target = await _choose(app, nav, space_id, page_id, me)
            if not go_on:
                return None
        elif not await ask_consent(app, client, space_id, target, me):
            _say(app, f"Nothing was sent: {whose(target, me)} is unchanged.")
            return None
        page = await client.content.get_page(
            space_id,
            page_id,
            change_request=target.id if target is not None else None,
            format="markdown",
            read="network",
        )
    except NotFoundError:
        where = f"change request #{target.number}" if target is not None else "this space"
        _say(app, f"The page is not in {where} any more.", error=True)
        return None
    except GitBookError as exc:
        _say(app, f"Could not prepare the edit ({client.base_url}): {exc}", error=True)
        return None
    if page.type not in (None, "document"):
        _say(app, f"Only document pages can be edited; this one is a {page.type}.", error=True)
        return None
    title = page.title or page_id
    return await _edit_and_post(
        app, nav, space, page_id, title, page.markdown or "", target, open_review, me
    )


async def _edit_and_post(
    app: App[Any],
    nav: Navigator,
    space: Space,
    page_id: str,
    title: str,
    original: str,
    target: ChangeRequest | None,
    open_review: bool,
    me: str,
) -> ChangeRequest | None:
    client = nav.client
    account = account_key(client)
    store = DraftStore(account)
    key = DraftKey(
        PAGE_EDIT,
        space=space.id,
        change_request=target.id if target is not None else "",
        target=page_id,
    )
    draft = await asyncio.to_thread(store.load, key)
    if draft is not None:
        _say(app, f"Your unsent edit of {title} is back in the editor.")
    try:
        edited = await edit_externally(app, draft.text if draft is not None else original)
    except ExternalEditorError as exc:
        _say(app, str(exc), error=True)
        return None
    if edited is None:
        _say(app, "The editor exited with an error: nothing was sent.", error=True)
        return None
    if _same(edited, original):
        if draft is not None:
            await asyncio.to_thread(store.delete, key)
        _say(app, f"No changes to {title}: nothing was created or sent.")
        return None
    await asyncio.to_thread(store.save, key, edited, title=f"Edit {title}")
    created: ChangeRequest | None = None
    try:
        if target is not None and await _moved_on(nav, space.id, target, page_id, original):
            kept = await asyncio.to_thread(keep_edit, account, title, edited)
            _say(
                app,
                f"{title} changed in {whose(target, me)} while you edited it: nothing was "
                f"sent, so the newer edit stays as it is. Your text is kept in {kept} and as "
                "a draft (e on the page brings it back; fold the newer edit in first).",
                error=True,
                timeout=30,
            )
            return None
        cr = target
        if cr is None:
            cr = created = await client.change_requests.create(space.id, subject=f"Edit {title}")
        await client.change_requests.edit_content(
            space.id, cr.id, [ChangeRequestContentChange.update_markdown(page_id, edited)]
        )
    except GitBookError as exc:
        kept = await asyncio.to_thread(keep_edit, account, title, edited)
        if created is not None:  # an empty change request would only be noise
            with contextlib.suppress(GitBookError):
                await client.change_requests.update(space.id, created.id, status="archived")
        _say(
            app,
            f"Could not post the edit of {title} ({client.base_url}): {exc}. Your text is "
            f"kept in {kept} and as a draft (e on the page brings it back).",
            error=True,
            timeout=30,
        )
        return None
    await asyncio.to_thread(store.delete_if_text, key, edited)
    subject = clean_text(cr.subject or "(no subject)")
    _say(app, f"Your edit of {title} is in {whose(cr, me)} “{subject}”")
    # a change request made for this edit opens at once; existing work (perhaps another
    # author's) is only named, with the choice to open it
    if open_review and (created is not None or await offer_to_open(app, cr, me, title)):
        # (in the Reviews view: 1 still shows Browse, 2 this review pane)
        nav.navigate(OpenReview(space.id, cr.id, space_title=space.title or "", page_id=page_id))
    return cr


async def _moved_on(
    nav: Navigator, space_id: str, cr: ChangeRequest, page_id: str, original: str
) -> bool:
    """Whether the page in ``cr`` is no longer the one the editor was given (someone
    edited it meanwhile): posting the whole page then would undo their edit."""
    try:
        page = await nav.client.content.get_page(
            space_id, page_id, change_request=cr.id, format="markdown", read="network"
        )
    except NotFoundError:
        return True
    return not _same(page.markdown or "", original)
