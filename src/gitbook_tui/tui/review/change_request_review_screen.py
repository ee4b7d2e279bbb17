"""ChangeRequestReviewScreen: one change request — header, description, changed pages and
the rendered block diff of the selected page — and the review actions.

Built by composition: the screen lays out the widgets and holds plain helpers its key and
message handlers delegate to — :class:`.review_loader.ReviewLoader` (reading and polling),
:class:`.review_pages.ReviewPages` (the selected page's diff, viewed marks),
:class:`.pages_filter.PagesFilter` (``/``) and :class:`.review_actions.ReviewActions`.

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

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.content import Content
from textual.screen import Screen
from textual.widgets import OptionList, Static

from ...api import GitBookError
from ...models import ChangeRequest
from ..common.denial import gated
from ..common.error_banner import ErrorBanner, ErrorPane
from ..common.filter_box import FilterBox
from ..common.navigator import Navigator
from ..common.pane_group import pane_switch_binding
from ..common.state import recall_choice, remember_choice
from ..common.status_bar import StatusBar
from ..common.text import inert
from ..render.diff_view import DiffView
from .changed_pages_list import ChangedPagesList, entry_id
from .pages_filter import PagesFilter
from .review_actions import ReviewActions
from .review_data import ReviewState, description_markdown
from .review_footer import ReviewFooter
from .review_header import change_title, changed_under_you, header_content
from .review_loader import ReviewLoader
from .review_pages import ReviewPages
from .reviews_summary import ReviewsSummary
from .suggest_edit import note_under_review

DIFF_MODE_CHOICE = "diff.mode"
"""The remembered diff layout (``|``: inline or split), per account, for every review."""

__all__ = ["ChangeRequestReviewScreen"]

POLL_SECONDS = 30.0
PAGES_LIST_FROM_WIDTH = 100
"""Narrower than this, the pages list hides (the header names the page: "2/5 ~ Streams")."""


class ChangeRequestReviewScreen(Screen[None]):
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
        self.conflict: str | None = None
        """The 409 message of the last update/merge tried at this revision (local mark)."""
        self.loader = ReviewLoader(self)
        self.review_pages = ReviewPages(self)
        self.pages_filter = PagesFilter(self)
        self.actions = ReviewActions(self)

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
        self.render_header()

    @property
    def pages(self) -> ChangedPagesList:
        return self.query_one(ChangedPagesList)

    @property
    def diff(self) -> DiffView:
        return self.query_one(DiffView)

    @property
    def filter_box(self) -> FilterBox:
        return self.query_one("#cr-filter", FilterBox)

    @property
    def filtering(self) -> bool:
        return self.pages_filter.filtering

    @property
    def diff_ready(self) -> asyncio.Event:
        """Set once the selected page's diff is shown."""
        return self.review_pages.diff_ready

    def denial_reason(self, action: str) -> str | None:
        if self.state is None:
            if self.query_one(ErrorBanner).showing:
                return "The change request could not be loaded: r or R retries."
            return "The change request is still loading."
        return self.state.denial(action)

    # -- loading (ReviewLoader reads; these show) ------------------------------------------------
    def load(self) -> None:
        self.loader.load()

    def _poll(self) -> None:
        self.loader.poll()

    def show_load_error(self, exc: GitBookError) -> None:
        client = self.nav.client
        self.query_one(ErrorBanner).show_error(
            "Could not load the change request", exc, server=client.base_url, retry=self.load
        )
        if self.state is None:  # nothing loaded yet: no pane may keep saying "Loading…"
            self.query_one("#cr-header", Static).update(
                "Change request not loaded (see the error above)"
            )
            self.diff.show_message("Nothing to show: the change request could not be loaded.")
        self.refresh_bindings()

    async def show_state(self, state: ReviewState, conflict: str | None) -> None:
        self.query_one(ErrorBanner).clear()
        first = self.state is None
        self.conflict = conflict
        self.state = state
        note_under_review(self.app, self.space_id, state.cr.id)
        self.remove_class("-changed")
        await self.review_pages.open_marks(state.cr.id)
        self.pages.set_changes(state.changes, self.review_pages.marks, state.more_changes)
        self.render_header()
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
        self.review_pages.show_selected()
        self.refresh_bindings()

    def render_header(self) -> None:
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

    def show_status(self, text: str) -> None:
        self.query_one("#cr-status", Static).update(text)

    def changed_under_you(self, cr: ChangeRequest) -> None:
        """Compare a fresh read with what is shown; say what changed, keep the view."""
        banner = changed_under_you(self.state.cr, cr) if self.state is not None else None
        if banner is not None:
            self.add_class("-changed")
            self.query_one("#cr-banner", Static).update(banner)

    # -- the selected page (ReviewPages) ---------------------------------------------------------
    @on(OptionList.OptionHighlighted, "#cr-pages")
    def _page_highlighted(self) -> None:
        self.review_pages.show_selected()
        self.render_header()

    @on(DiffView.Moved)
    def _moved(self) -> None:
        self.review_pages.status()

    @gated
    def action_page(self, step: int) -> None:
        self.review_pages.step(step)

    @gated
    async def action_viewed(self) -> None:
        await self.review_pages.toggle_viewed()

    # -- the pages filter (PagesFilter) ----------------------------------------------------------
    def action_filter(self) -> None:
        self.pages_filter.open()

    def on_input_changed(self, event: FilterBox.Changed) -> None:
        self.pages_filter.changed(event)

    def on_filter_box_done(self, event: FilterBox.Done) -> None:
        self.pages_filter.done(event)

    def on_filter_box_cleared(self, event: FilterBox.Cleared) -> None:
        self.pages_filter.cleared(event)

    # -- review actions (ReviewActions) ----------------------------------------------------------
    @gated
    def action_approve(self) -> None:
        self.actions.approve()

    @gated
    def action_request_changes(self) -> None:
        self.actions.request_changes()

    @gated
    def action_show_reviews(self) -> None:
        self.actions.show_reviews()

    @gated
    def action_add_reviewer(self) -> None:
        self.actions.add_reviewer()

    @gated
    def action_remove_reviewer(self) -> None:
        self.actions.remove_reviewer()

    @gated
    def action_update(self) -> None:
        self.actions.update()

    @gated
    def action_merge(self) -> None:
        self.actions.merge()

    @gated
    def action_toggle_draft(self) -> None:
        self.actions.toggle_draft()

    @gated
    def action_archive(self) -> None:
        self.actions.archive()

    @gated
    def action_edit_details(self) -> None:
        self.actions.edit_details()

    def action_copy_summary(self) -> None:
        self.actions.copy_summary()

    def action_open_web(self) -> None:
        self.actions.open_web()

    # -- navigation ------------------------------------------------------------------------------
    def action_reload(self) -> None:
        self.load()

    def action_threads(self, quote: bool = False) -> None:
        self.review_pages.open_threads(quote)

    def action_switch_focus(self) -> None:
        self.review_pages.switch_focus(narrow=self.has_class("-narrow"))

    def action_back(self) -> None:
        self.dismiss(None)
