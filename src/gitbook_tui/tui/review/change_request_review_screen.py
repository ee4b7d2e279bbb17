"""ChangeRequestReviewScreen: one change request — header, description, changed pages and
the rendered block diff of the selected page — and the review actions (:mod:`.review_actions`).

The page diff compares the page at the change request's base revision (immutable, so
cached) with the page in the change request, parsed and aligned in a thread by
:mod:`gitbook_tui.markdown.diff`. While shown, the change request is polled; if it
changed under the reader (new revision, outdated, merged or archived by someone else) a
banner says so and ``R`` reloads — the diff is never swapped under the cursor.
``/`` filters the changed pages by title or path (shown while filtering, even where the list
is hidden): the diff follows the match, ``enter`` keeps it, ``escape`` goes back.
"""

from __future__ import annotations

import asyncio
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.content import Content
from textual.screen import Screen
from textual.widgets import OptionList, Static

from ...api import GitBookError
from ...models import RevisionSemanticChange
from ..common.denial import gated
from ..common.error_banner import ErrorBanner, ErrorPane
from ..common.failure import load_failure
from ..common.filter_box import FilterBox
from ..common.intents import ShowThreads
from ..common.navigator import Navigator
from ..common.pane_group import pane_switch_binding
from ..common.state import account_key, recall_choice, remember_choice
from ..common.status_bar import StatusBar
from ..common.text import inert
from ..render.diff_view import DiffView
from .changed_pages_list import ChangedPagesList, entry_id
from .conflict_marks import load_conflict_marks
from .page_diff import load_page_diff
from .pages_filter import PagesFilter
from .review_actions import ReviewActions
from .review_data import ReviewState, description_markdown, load_review_state
from .review_footer import ReviewFooter
from .review_header import change_title, changed_under_you, header_content
from .reviews_summary import ReviewsSummary
from .suggest_edit import note_under_review
from .thread_quote import Quote, block_quote, quoted_block
from .viewed_marks import ViewedMarks, fingerprint

DIFF_MODE_CHOICE = "diff.mode"
"""The remembered diff layout (``|``: inline or split), per account, for every review."""

__all__ = ["ChangeRequestReviewScreen"]

POLL_SECONDS = 30.0
PAGES_LIST_FROM_WIDTH = 100
"""Narrower than this, the pages list hides (the header names the page: "2/5 ~ Streams")."""


class ChangeRequestReviewScreen(PagesFilter, ReviewActions, Screen[None]):
    """The review pane of one change request (``escape`` goes back to the inbox)."""

    # The hidden filter box must never take the focus while the screen mounts.
    AUTO_FOCUS = "#cr-diff"

    DEFAULT_CSS = """
    ChangeRequestReviewScreen #cr-header { height: auto; padding: 0 1; background: $panel; }
    ChangeRequestReviewScreen #cr-banner {
        display: none; height: auto; padding: 0 1; background: $warning-muted;
    }
    ChangeRequestReviewScreen.-changed #cr-banner { display: block; }
    ChangeRequestReviewScreen #cr-description {
        display: none; height: auto; max-height: 4; padding: 0 1; color: $text-muted;
    }
    ChangeRequestReviewScreen #cr-reviews { padding: 0 1; }
    ChangeRequestReviewScreen #cr-body { height: 1fr; }
    ChangeRequestReviewScreen ChangedPagesList { width: 32; border: round $panel; }
    ChangeRequestReviewScreen.-narrow ChangedPagesList { display: none; }
    ChangeRequestReviewScreen.-narrow.-filtering ChangedPagesList { display: block; }
    ChangeRequestReviewScreen DiffView { width: 1fr; border: round $panel; }
    ChangeRequestReviewScreen DiffView:focus, ChangeRequestReviewScreen ChangedPagesList:focus {
        border-left: thick $accent;
    }
    ChangeRequestReviewScreen #cr-status { height: 1; padding: 0 1; color: $text-muted; }
    ChangeRequestReviewScreen #cr-status.-error { color: $error; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("J", "page(1)", "Next page", id="review.next_page"),
        Binding("K", "page(-1)", "Prev page", id="review.prev_page"),
        Binding("space", "viewed", "Viewed", id="review.viewed"),
        Binding("v", "approve", "Approve", id="review.approve"),
        Binding("V", "request_changes", "Request changes", id="review.request_changes"),
        Binding("a", "add_reviewer", "Add reviewer", id="review.add_reviewer"),
        Binding("A", "remove_reviewer", "Remove reviewer", id="review.remove_reviewer"),
        Binding("u", "update", "Update", id="review.update"),
        Binding("m", "merge", "Merge", id="review.merge"),
        Binding("W", "toggle_draft", "Ready/draft", id="review.toggle_draft"),
        Binding("x", "archive", "Archive/reopen", id="review.archive"),
        Binding("E", "edit_details", "Edit subject", id="review.edit_details"),
        Binding("i", "show_reviews", "Reviews", id="review.reviews"),
        Binding("R", "reload", "Reload", id="review.reload"),
        Binding("C", "threads", "Comments", show=False, id="review.threads"),
        Binding("c", "threads(True)", "Comment on block", show=False, id="review.comment_block"),
        Binding("o", "open_web", "Browser", show=False, id="review.open_web"),
        Binding("Y", "copy_summary", "Copy summary", show=False, id="review.copy_summary"),
        Binding("slash", "filter", "Filter pages", show=False, id="review.filter"),
        pane_switch_binding("review.switch_focus", "Pages/diff", show=False),
        Binding("escape,backspace", "back", "Back", id="review.back"),
    ]

    def __init__(
        self,
        nav: Navigator,
        space_id: str,
        change_request: str,
        *,
        space_title: str = "",
        page_id: str | None = None,
    ) -> None:
        """``page_id``: the changed page to show first (e.g. the one just edited)."""
        super().__init__()
        self.nav = nav
        self.space_id = space_id
        self.change_request = change_request
        self.space_title = space_title
        self.start_page = page_id
        self.state: ReviewState | None = None
        self.marks: ViewedMarks | None = None
        self.me: str | None = None
        self.page_fingerprints: dict[str, str] = {}
        self.diff_ready = asyncio.Event()
        self.conflict: str | None = None
        """The 409 message of the last update/merge tried at this revision (local mark)."""
        self._shown: tuple[str, str] | None = None
        """(entry, revision) the diff shows: a reload after an action keeps the reader's place."""

    def compose(self) -> ComposeResult:
        with ErrorPane(id="cr-pane"):
            yield Static("Loading change request…", id="cr-header")
            yield ErrorBanner(id="cr-error")
            yield Static(id="cr-banner")
            yield Static(id="cr-description")
            yield ReviewsSummary(id="cr-reviews")
            yield FilterBox(placeholder="filter changed pages: title or path", id="cr-filter")
            with Horizontal(id="cr-body"):
                yield ChangedPagesList(id="cr-pages")
                yield DiffView(id="cr-diff")
            yield Static(id="cr-status")
        yield StatusBar(view="reviews", id="status-bar")
        yield ReviewFooter(compact=True)

    def on_mount(self) -> None:
        self.query_one(StatusBar).follow(self.nav.client)
        mode = recall_choice(self.nav.client, DIFF_MODE_CHOICE, ("inline", "split"), "")
        self.diff.mode = "inline" if mode == "inline" else "split" if mode == "split" else None
        self.set_interval(POLL_SECONDS, self._poll)
        self.load()

    @on(DiffView.ModeChosen)
    def _mode_chosen(self, event: DiffView.ModeChosen) -> None:
        remember_choice(self.nav.client, DIFF_MODE_CHOICE, event.mode)

    def on_resize(self) -> None:
        self.set_class(self.size.width < PAGES_LIST_FROM_WIDTH, "-narrow")
        if self.has_class("-narrow") and self.pages.has_focus and not self.filtering:
            self.diff.focus()
        self._render_header()

    @property
    def pages(self) -> ChangedPagesList:
        return self.query_one(ChangedPagesList)

    @property
    def diff(self) -> DiffView:
        return self.query_one(DiffView)

    def denial_reason(self, action: str) -> str | None:
        if self.state is None:
            if self.query_one(ErrorBanner).showing:
                return "The change request could not be loaded: r or R retries."
            return "The change request is still loading."
        return self.state.denial(action)

    # -- loading ---------------------------------------------------------------------------------
    def load(self) -> None:
        self._load_state()

    @work(exclusive=True, group="cr-state", exit_on_error=False)
    async def _load_state(self) -> None:
        client = self.nav.client
        banner = self.query_one(ErrorBanner)
        try:
            if self.me is None:
                self.me = (await client.users.me(read="prefer-cache")).id
            state = await load_review_state(client, self.space_id, self.change_request, self.me)
        except GitBookError as exc:
            banner.show_error(
                "Could not load the change request", exc, server=client.base_url, retry=self.load
            )
            if self.state is None:  # nothing loaded yet: no pane may keep saying "Loading…"
                self.query_one("#cr-header", Static).update(
                    "Change request not loaded (see the error above)"
                )
                self.diff.show_message("Nothing to show: the change request could not be loaded.")
            self.refresh_bindings()
            return
        banner.clear()
        first = self.state is None
        marks = await asyncio.to_thread(load_conflict_marks, client)
        self.conflict = marks.message(state.cr) if marks is not None else None
        self.state = state
        note_under_review(self.app, self.space_id, state.cr.id)
        self.remove_class("-changed")
        if self.marks is None:
            self.marks = ViewedMarks(account_key(client), state.cr.id)
            await asyncio.to_thread(self.marks.load)
        self.pages.set_changes(state.changes, self.marks, state.more_changes)
        self._render_header()
        text = description_markdown(state.cr.description)
        description = self.query_one("#cr-description", Static)
        description.update(inert(text))
        description.display = bool(text.strip())
        self.query_one(ReviewsSummary).show(state)
        if first:
            self.diff.focus()
            ids = [entry_id(c) for c in state.changes]
            if self.start_page in ids:
                self.pages.highlighted = ids.index(self.start_page)
        self._show_selected()
        self.refresh_bindings()

    def _render_header(self) -> None:
        state = self.state
        if state is None:
            return
        page_line = None
        if self.has_class("-narrow") and (change := self.pages.selected) is not None:
            page_line = Content.assemble(
                f"{self.pages.ordinal}/{len(self.pages.changes)} ",
                inert(change_title(change)),
                f" · {self.pages.progress()}",
            )
        header = header_content(state, conflict=self.conflict, page_line=page_line)
        self.query_one("#cr-header", Static).update(header)

    @on(OptionList.OptionHighlighted, "#cr-pages")
    def _page_highlighted(self) -> None:
        self._show_selected()
        self._render_header()

    def _show_selected(self) -> None:
        change = self.pages.selected
        if change is None:
            self.diff.show_message("This change request changes nothing.")
            self._shown = None
            return
        key = (entry_id(change), self.state.cr.revision or "" if self.state else "")
        if key == self._shown:
            return
        self._shown = key
        self._load_page(change)

    @work(exclusive=True, group="cr-page", exit_on_error=False)
    async def _load_page(self, change: RevisionSemanticChange) -> None:
        state, diff_view = self.state, self.diff
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
        try:
            loaded = await load_page_diff(
                self.nav.client, self.space_id, state.cr, change.page.id, str(change.type)
            )
        except GitBookError as exc:
            diff_view.show_message(load_failure("the page", exc, self.nav.client.base_url))
            return
        if self.pages.selected is not change:  # moved on meanwhile
            return
        diff_view.show(loaded.diff, loaded.header)
        new_md = loaded.new_markdown
        self.page_fingerprints[entry_id(change)] = fingerprint(new_md)
        if self.marks is not None and self.marks.check(entry_id(change), fingerprint(new_md)):
            self.pages.refresh_marks()
            await asyncio.to_thread(self.marks.save)
        self._status()
        self.diff_ready.set()

    @on(DiffView.Moved)
    def _moved(self) -> None:
        self._status()

    def _status(self) -> None:
        view = self.diff
        where = ""
        if view.current is not None and view.changes:
            where = f" · change {view.changes.ordinal(view.current)} of {len(view.changes)}"
        elif view.diff is not None:
            where = f" · {len(view.changes)} changes"
        self.query_one("#cr-status", Static).update(
            f"{self.pages.progress()}{where} · {view.effective_mode} (|) · n/N changes · J/K pages"
        )

    # -- live refresh ----------------------------------------------------------------------------
    @work(exclusive=True, group="cr-poll", exit_on_error=False)
    async def _poll(self) -> None:
        state = self.state
        if state is None or not self.is_current:
            return
        try:
            cr = await self.nav.client.change_requests.get(
                self.space_id, state.cr.id, read="network"
            )
        except GitBookError:
            return
        self.changed_under_you(cr)

    def changed_under_you(self, cr: object) -> None:
        """Compare a fresh read with what is shown; say what changed, keep the view."""
        banner = changed_under_you(self.state.cr, cr) if self.state is not None else None
        if banner is not None:
            self.add_class("-changed")
            self.query_one("#cr-banner", Static).update(banner)

    # -- navigation ------------------------------------------------------------------------------
    @gated
    def action_page(self, step: int) -> None:
        if not self.pages.step(step):
            last = len(self.pages.changes) == 1
            where = (
                "the only changed page"
                if last
                else "the last page"
                if step > 0
                else "the first page"
            )
            self.notify(f"This is {where}.", timeout=2, markup=False)

    @gated
    async def action_viewed(self) -> None:
        change = self.pages.selected
        if change is None or self.marks is None:
            return
        key = entry_id(change)
        print_ = self.page_fingerprints.get(key, "unknown")
        viewed = self.marks.toggle(key, print_)
        self.pages.refresh_marks()
        await asyncio.to_thread(self.marks.save)
        self._status()
        if viewed:
            self.pages.step(1)

    def action_reload(self) -> None:
        self.load()

    def action_threads(self, quote: bool = False) -> None:
        """The change request's comment threads (``c``: a new one quoting the diff's block)."""
        state = self.state
        if state is None:
            self.notify("The change request is still loading.", timeout=3)
            return
        start: Quote | None = None
        if quote:
            text = quoted_block(self.diff)
            if text is None or not text.strip():
                self.notify("Move to a block of the diff to quote it (n: next change).", timeout=3)
                return
            change = self.pages.selected
            page = change.page.id if change is not None and change.page is not None else None
            start = (page, block_quote(text))
        cr = state.cr
        label = f"#{cr.number} {cr.subject or ''}".strip()
        self.nav.navigate(ShowThreads(self.space_id, cr.id, label=label, quote=start))

    def action_switch_focus(self) -> None:
        if self.has_class("-narrow"):  # the list is hidden: focus never goes to a hidden pane
            self.diff.focus()
            self.notify(
                "The changed-pages list is hidden at this width: J/K step through the pages.",
                markup=False,
            )
            return
        (self.diff if self.pages.has_focus else self.pages).focus()

    def action_back(self) -> None:
        self.dismiss(None)
