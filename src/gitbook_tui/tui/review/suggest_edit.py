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

import weakref
from typing import Any

from textual.app import App
from textual.screen import Screen

from ...api import GitBookError, NotFoundError
from ...markdown.sanitize import clean_text
from ...models import ChangeRequest, Space
from ..common.edit_rights import edit_denial
from ..common.external_editor import ExternalEditorError, edit_externally
from ..common.intents import OpenReview
from ..common.navigator import Navigator
from ..common.state import account_key
from .edit_consent import ask_consent, offer_to_open, whose
from .edit_target_screen import EditTargetScreen
from .review_ops import whoami
from .suggest_edit_data import (
    PageEditDraft,
    edit_targets,
    keep_edit,
    keep_private_copy,
    moved_on,
    page_as_in,
    page_title,
    post_edit,
    read_space,
    same_text,
)

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


async def _choose(
    app: App[Any], nav: Navigator, space_id: str, page_id: str, me: str
) -> tuple[bool, ChangeRequest | None]:
    """Whether to go on, and where the edit goes (``None``: a new change request).
    Declining to edit another author's change request shows the picker again."""
    client = nav.client
    under = _UNDER_REVIEW.get(app)
    candidates, under_id = await edit_targets(
        client, space_id, me, under[1] if under is not None and under[0] == space_id else None
    )
    if not candidates:
        return True, None
    title = await page_title(client, space_id, page_id)
    while True:
        chosen = await app.push_screen_wait(EditTargetScreen(title, candidates, under_id, me=me))
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
        space = await read_space(client, space_id)
        denied = edit_denial(space)
        if denied is not None:
            _say(app, denied, error=True)
            return None
        me = await whoami(client)
        if target is None:
            go_on, target = await _choose(app, nav, space_id, page_id, me)
            if not go_on:
                return None
        elif not await ask_consent(app, client, space_id, target, me):
            _say(app, f"Nothing was sent: {whose(target, me)} is unchanged.")
            return None
        page = await page_as_in(client, space_id, page_id, target)
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
    draft = PageEditDraft(account, space.id, target.id if target is not None else "", page_id)
    kept_text = await draft.text()
    if kept_text is not None:
        _say(app, f"Your unsent edit of {title} is back in the editor.")
    try:
        edited = await edit_externally(app, kept_text if kept_text is not None else original)
    except ExternalEditorError as exc:
        _say(app, str(exc), error=True)
        return None
    if edited is None:
        _say(app, "The editor exited with an error: nothing was sent.", error=True)
        return None
    if same_text(edited, original):
        if kept_text is not None:
            await draft.delete()
        _say(app, f"No changes to {title}: nothing was created or sent.")
        return None
    await draft.save(edited, title=f"Edit {title}")
    try:
        if target is not None and await moved_on(client, space.id, target, page_id, original):
            kept = await keep_private_copy(account, title, edited)
            _say(
                app,
                f"{title} changed in {whose(target, me)} while you edited it: nothing was "
                f"sent, so the newer edit stays as it is. Your text is kept in {kept} and as "
                "a draft (e on the page brings it back; fold the newer edit in first).",
                error=True,
                timeout=30,
            )
            return None
        cr, created = await post_edit(client, space.id, target, page_id, title, edited)
    except GitBookError as exc:
        kept = await keep_private_copy(account, title, edited)
        _say(
            app,
            f"Could not post the edit of {title} ({client.base_url}): {exc}. Your text is "
            f"kept in {kept} and as a draft (e on the page brings it back).",
            error=True,
            timeout=30,
        )
        return None
    await draft.delete_if_text(edited)
    subject = clean_text(cr.subject or "(no subject)")
    _say(app, f"Your edit of {title} is in {whose(cr, me)} “{subject}”")
    # a change request made for this edit opens at once; existing work (perhaps another
    # author's) is only named, with the choice to open it
    if open_review and (created or await offer_to_open(app, cr, me, title)):
        # (in the Reviews view: 1 still shows Browse, 2 this review pane)
        nav.navigate(OpenReview(space.id, cr.id, space_title=space.title or "", page_id=page_id))
    return cr
