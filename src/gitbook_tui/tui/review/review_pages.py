"""ReviewPages: the review pane's page at a time — the diff of the selected changed page,
its viewed mark, ``J``/``K`` through the pages, the status line under the diff, the focus
between the list and the diff, and the comment threads (``c`` quotes the diff's block).

Held by :class:`.change_request_review_screen.ChangeRequestReviewScreen` (its handlers
delegate here). The page diff compares the page at the change request's base revision with
the page in the change request (:func:`.page_diff.load_page_diff`); a page whose content
changed since it was marked viewed loses the mark.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Protocol

from ...api import GitBookError
from ...models import RevisionSemanticChange
from ..common.failure import load_failure
from ..common.intents import ShowThreads
from ..common.screen_host import ScreenHost
from . import review_ops
from .changed_pages_list import entry_id
from .page_diff import load_page_diff
from .thread_quote import Quote, block_quote, quoted_block
from .viewed_marks import ViewedMarks, fingerprint

if TYPE_CHECKING:
    from ..common.navigator import Navigator
    from ..render.diff_view import DiffView
    from .changed_pages_list import ChangedPagesList
    from .review_data import ReviewState

__all__ = ["PagesHost", "ReviewPages"]


class PagesHost(ScreenHost, Protocol):
    """What the page-at-a-time part needs from the review pane."""

    nav: Navigator
    space_id: str
    state: ReviewState | None

    @property
    def pages(self) -> ChangedPagesList: ...
    @property
    def diff(self) -> DiffView: ...
    def show_status(self, text: str) -> None: ...


class ReviewPages:
    """The selected page's diff and the reader's viewed marks of one change request."""

    def __init__(self, host: PagesHost) -> None:
        self.host = host
        self.marks: ViewedMarks | None = None
        self.fingerprints: dict[str, str] = {}
        """Entry id → fingerprint of the page's content as last shown (``space`` marks it)."""
        self.diff_ready = asyncio.Event()
        """Set once the selected page's diff is shown (tests and benchmarks wait on it)."""
        self.shown: tuple[str, str] | None = None
        """(entry, revision) the diff shows: a reload after an action keeps the reader's place."""

    async def open_marks(self, cr_id: str) -> None:
        """Read the viewed marks of the change request (once)."""
        if self.marks is None:
            self.marks = await review_ops.open_viewed_marks(self.host.nav.client, cr_id)

    def show_selected(self) -> None:
        """Show the selected page's diff, unless it is shown already at this revision."""
        host = self.host
        change = host.pages.selected
        if change is None:
            host.diff.show_message("This change request changes nothing.")
            self.shown = None
            return
        key = (entry_id(change), host.state.cr.revision or "" if host.state else "")
        if key == self.shown:
            return
        self.shown = key
        host.run_worker(self._load(change), group="cr-page", exclusive=True, exit_on_error=False)

    async def _load(self, change: RevisionSemanticChange) -> None:
        host = self.host
        state, diff_view = host.state, host.diff
        assert state is not None
        self.diff_ready.clear()
        if change.page is None:
            what = change.file.name if change.file else str(change.type)
            diff_view.show_message(
                f"{str(change.type).replace('_', ' ')}: {what} (no page content to compare)"
            )
            self.diff_ready.set()
            return
        diff_view.show_message("Loading both sides of the page…")
        client = host.nav.client
        try:
            loaded = await load_page_diff(
                client, host.space_id, state.cr, change.page.id, str(change.type)
            )
        except GitBookError as exc:
            diff_view.show_message(load_failure("the page", exc, client.base_url))
            return
        if host.pages.selected is not change:  # moved on meanwhile
            return
        diff_view.show(loaded.staged, loaded.header)
        print_ = fingerprint(loaded.new_markdown)
        self.fingerprints[entry_id(change)] = print_
        if self.marks is not None and self.marks.check(entry_id(change), print_):
            host.pages.refresh_marks()
            await review_ops.save_viewed_marks(self.marks)
        self.status()
        self.diff_ready.set()

    def status(self) -> None:
        """The line under the diff: pages viewed, where the cursor is, the keys."""
        view = self.host.diff
        where = ""
        if view.current is not None and view.changes:
            total = "…" if view.partial else str(len(view.changes))
            where = f" · change {view.changes.ordinal(view.current)} of {total}"
        elif view.diff is not None:
            where = f" · {len(view.changes)} changes"
        self.host.show_status(
            f"{self.host.pages.progress()}{where} · {view.effective_mode} (|) · n/N changes · "
            "J/K pages"
        )

    def step(self, step: int) -> None:
        """``J``/``K``: the next or previous changed page (says so at either end)."""
        pages = self.host.pages
        if not pages.step(step):
            last = len(pages.changes) == 1
            where = (
                "the only changed page"
                if last
                else "the last page"
                if step > 0
                else "the first page"
            )
            self.host.notify(f"This is {where}.", timeout=2, markup=False)

    async def toggle_viewed(self) -> None:
        """``space``: mark the page viewed (then go to the next) or not viewed."""
        pages = self.host.pages
        change = pages.selected
        if change is None or self.marks is None:
            return
        key = entry_id(change)
        viewed = self.marks.toggle(key, self.fingerprints.get(key, "unknown"))
        pages.refresh_marks()
        await review_ops.save_viewed_marks(self.marks)
        self.status()
        if viewed:
            pages.step(1)

    def open_threads(self, quote: bool) -> None:
        """The change request's comment threads (``quote``: a new one quoting the diff's
        block under the cursor)."""
        host = self.host
        state = host.state
        if state is None:
            host.notify("The change request is still loading.", timeout=3)
            return
        start: Quote | None = None
        if quote:
            text = quoted_block(host.diff)
            if text is None or not text.strip():
                host.notify("Move to a block of the diff to quote it (n: next change).", timeout=3)
                return
            change = host.pages.selected
            page = change.page.id if change is not None and change.page is not None else None
            start = (page, block_quote(text))
        cr = state.cr
        label = f"#{cr.number} {cr.subject or ''}".strip()
        host.nav.navigate(ShowThreads(host.space_id, cr.id, label=label, quote=start))

    def switch_focus(self, *, narrow: bool) -> None:
        """Pages ↔ diff; where the list is hidden (``narrow``) focus never goes to it."""
        host = self.host
        if narrow:
            host.diff.focus()
            host.notify(
                "The changed-pages list is hidden at this width: J/K step through the pages.",
                markup=False,
            )
            return
        (host.diff if host.pages.has_focus else host.pages).focus()
