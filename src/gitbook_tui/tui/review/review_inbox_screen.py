"""ReviewInboxScreen (view 2): change requests that need the reader, gh-dash style.

Sections on ``h``/``l`` (Review requested · Mine · Outdated or conflicting — a 409 of
an update or merge is remembered locally, :mod:`.conflict_marks`, and marked ⚠ · Drafts · All
open) across the organization, or one table for the space open in the browser (``a``
switches between the two); ``p`` previews the selected change request, ``enter`` opens its
review, ``f`` cycles the status filter, ``r`` reloads. While shown, the list revalidates in
the background every :data:`REFRESH_SECONDS`.
"""

from __future__ import annotations

from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import DataTable, Static

from ...api import GitBookError
from ..common.failure import load_failure
from ..common.filter_box import FilterBox, matches
from ..common.navigator import Navigator
from ..common.pager import PagerDataTable
from ..common.status_bar import StatusBar
from ..common.text import count_of, inert
from .change_request_review_screen import ChangeRequestReviewScreen
from .inbox_data import (
    SECTIONS,
    STATUS_FILTERS,
    STATUS_SHORT,
    STATUS_TITLES,
    InboxRow,
    load_inbox_rows,
    preview_changes,
    rows_in,
)
from .inbox_table import empty_text, fit_columns, review_colors, row_cells
from .review_data import description_markdown
from .review_footer import ReviewFooter
from .review_ops import whoami
from .section_bar import SectionBar, Tab

__all__ = ["ReviewInboxScreen"]

REFRESH_SECONDS = 60.0
PREVIEW_SIDE_BY_SIDE = 110
"""From this width the preview is a sidebar; narrower, it takes the whole pane."""


class ReviewInboxScreen(Screen[None]):
    """The review inbox; built once by :data:`..views.VIEWS` and kept."""

    # The hidden filter input comes first in the layout: without this it takes the focus
    # while the screen mounts and eats the first key typed (``1`` became filter text).
    AUTO_FOCUS = "#inbox-table"

    DEFAULT_CSS = """
    ReviewInboxScreen #inbox-tabs { height: 1; padding: 0 1; background: $panel; }
    ReviewInboxScreen #inbox-state { height: auto; padding: 0 1; color: $text-muted; }
    ReviewInboxScreen #inbox-state.-error { color: $error; }
    ReviewInboxScreen #inbox-body { height: 1fr; }
    ReviewInboxScreen DataTable { height: 1fr; width: 1fr; }
    ReviewInboxScreen #inbox-preview {
        display: none; width: 50; border-left: solid $primary; padding: 0 1;
    }
    ReviewInboxScreen.-preview #inbox-preview { display: block; }
    ReviewInboxScreen.-preview.-narrow DataTable { display: none; }
    ReviewInboxScreen.-preview.-narrow #inbox-preview { width: 1fr; border-left: none; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("l,right", "section(1)", "Next section", id="inbox.next_section"),
        Binding("h,left", "section(-1)", "Prev section", id="inbox.prev_section"),
        Binding("enter", "open", "Review", id="inbox.open"),
        Binding("p", "preview", "Preview", id="inbox.preview"),
        Binding("f", "status_filter", "Status", id="inbox.status"),
        Binding("a", "scope", "All/space", id="inbox.scope"),
        Binding("r", "reload", "Reload", id="inbox.reload"),
        Binding("slash", "filter", "Filter", id="inbox.filter"),
        Binding("escape", "clear_filter", "Clear filter", show=False, id="inbox.clear_filter"),
    ]

    def __init__(self, nav: Navigator) -> None:
        super().__init__()
        self.nav = nav
        self.section = 0
        self.status_index = 0
        self.space_only = False
        self.rows: list[InboxRow] = []
        self.shown: list[InboxRow] = []
        self.me: str | None = None
        self.loaded = False
        self.org_wide: bool | None = None
        self._space_seen: str | None = None
        self._column_widths: tuple[int, int] | None = None
        self.filter_text = ""
        self.selected_id: str | None = None
        """The change request under the cursor, kept across reloads and sections."""

    def compose(self) -> ComposeResult:
        yield SectionBar(id="inbox-tabs")
        yield Static("Loading change requests…", id="inbox-state")
        yield FilterBox(placeholder="filter: subject, space, author, #number", id="inbox-filter")
        with Horizontal(id="inbox-body"):
            yield PagerDataTable(id="inbox-table", cursor_type="row", zebra_stripes=True)
            with VerticalScroll(id="inbox-preview"):
                yield Static(id="inbox-preview-text")
        yield StatusBar(view="reviews", id="status-bar")
        yield ReviewFooter(compact=True)

    def on_mount(self) -> None:
        self.query_one(StatusBar).follow(self.nav.client)
        self.set_interval(REFRESH_SECONDS, self._background_refresh)
        self._render_tabs()
        # the marks' colours come from the theme: a new theme draws the rows again
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self._show())

    def _columns(self) -> None:
        width = self.size.width
        if self.has_class("-preview") and width >= PREVIEW_SIDE_BY_SIDE:
            width -= 51
        if self._column_widths is None or self._column_widths[0] != width:
            self._column_widths = fit_columns(self.query_one(DataTable), width)

    def on_screen_resume(self) -> None:
        space = self.nav.space_id
        if space != self._space_seen:  # the browser's space changed: follow it
            self._space_seen = space
            self.space_only = space is not None
            self.reload()
        elif not self.loaded:
            self.reload()
        self.query_one(DataTable).focus()

    def on_resize(self) -> None:
        self.set_class(self.size.width < PREVIEW_SIDE_BY_SIDE, "-narrow")
        self._columns()
        if self.loaded:
            self._show()

    # -- loading ---------------------------------------------------------------------------------
    def reload(self) -> None:
        self._load()

    def _background_refresh(self) -> None:
        if self.is_current:
            self._load(quiet=True)

    @work(exclusive=True, group="inbox-load", exit_on_error=False)
    async def _load(self, quiet: bool = False) -> None:
        client, org = self.nav.client, self.nav.organization_id
        state = self.query_one("#inbox-state", Static)
        if org is None:
            state.update("Choose an organization in the browser (1) first.")
            return
        if not quiet:
            state.remove_class("-error")
            state.update("Loading change requests…")
        try:
            if self.me is None:
                self.me = await whoami(client)
            space = self.nav.space_id if self.space_only else None
            rows, org_wide = await load_inbox_rows(
                client, org, self.me, space_id=space, status_filter=self.status_filter
            )
        except GitBookError as exc:
            state.add_class("-error")
            state.update(
                inert(f"{load_failure('change requests', exc, client.base_url)}  (r retries)")
            )
            return
        self.rows, self.org_wide, self.loaded = rows, org_wide, True
        self._show()

    # -- showing ---------------------------------------------------------------------------------
    @property
    def status_filter(self) -> tuple[str, ...]:
        return STATUS_FILTERS[self.status_index]

    def _render_tabs(self) -> None:
        tabs = self.query_one(SectionBar)
        if self.space_only:
            tabs.show_text(
                Content.assemble(
                    ("Change requests of this space", "bold"),
                    f"  · status {'+'.join(self.status_filter)} (f)  · a: all spaces",
                )
            )
            return
        shown = []
        for section in SECTIONS:
            count = (
                len(rows_in(self.rows, section.key, self.status_filter)) if self.loaded else None
            )
            labels = section.labels
            if section.key == "open":  # names the status f chose
                title = self._status_title()
                labels = (title, title, STATUS_SHORT.get(title, title))
            shown.append(Tab(labels, count))
        tabs.show_tabs(shown, self.section)

    def _status_title(self) -> str:
        """The "All …" section's title names the status ``f`` chose."""
        return STATUS_TITLES.get(self.status_filter, "All " + "+".join(self.status_filter))

    def _show(self) -> None:
        key = "open" if self.space_only else SECTIONS[self.section].key
        self.shown = [r for r in rows_in(self.rows, key, self.status_filter) if self._matches(r)]
        table = self.query_one(DataTable)
        keep = self.selected_id
        table.clear()
        good, bad = review_colors(self.app.theme_variables)
        for row in self.shown:
            table.add_row(*row_cells(row, good, bad), key=row.cr.id)
        ids = [r.cr.id for r in self.shown]
        if keep in ids:
            table.move_cursor(row=ids.index(keep))
        state = self.query_one("#inbox-state", Static)
        state.remove_class("-error")
        if not self.shown:
            state.update(self._empty_text())
        else:
            fallback = (
                "" if self.org_wide else "  (per-space lists: the server has no organization list)"
            )
            listed = count_of(len(self.shown), "change request")
            if self.filter_text:
                every = len(rows_in(self.rows, key, self.status_filter))
                listed = f"{len(self.shown)} of {count_of(every, 'change request')}"
            state.update(f"{listed} · enter review · p preview{fallback}")
        self._render_tabs()
        if self.has_class("-preview"):
            self._preview()

    def _matches(self, row: InboxRow) -> bool:
        author = row.cr.createdBy.displayName if row.cr.createdBy else ""
        return matches(self.filter_text, f"#{row.number}", row.cr.subject, row.space_title, author)

    def action_filter(self) -> None:
        self.query_one(FilterBox).open()

    @on(FilterBox.Changed, "#inbox-filter")
    def _filter_changed(self, event: FilterBox.Changed) -> None:
        self.filter_text = event.value
        self._show()

    @on(FilterBox.Done, "#inbox-filter")
    def _filter_done(self, event: FilterBox.Done) -> None:
        """``enter`` opens the highlighted match and leaves the filter applied (the box stays,
        showing it); ``escape`` cleared it."""
        event.stop()
        self.query_one(DataTable).focus()
        if not isinstance(event, FilterBox.Cleared):
            self.action_open()

    @on(FilterBox.Move, "#inbox-filter")
    def _filter_move(self, event: FilterBox.Move) -> None:
        self.query_one(PagerDataTable).action_pager_lines(event.step)

    def action_clear_filter(self) -> None:
        box = self.query_one(FilterBox)
        if box.is_open or self.filter_text:
            box.close()  # posts Changed(""): the list shows everything again
            self.filter_text = ""
            self._show()
            self.query_one(DataTable).focus()

    def _empty_text(self) -> str:
        return empty_text(
            SECTIONS[self.section].key,
            filtered=bool(self.filter_text.strip()),
            space_only=self.space_only,
        )

    def _selected(self) -> InboxRow | None:
        table = self.query_one(DataTable)
        if not self.shown or table.cursor_row < 0 or table.cursor_row >= len(self.shown):
            return None
        return self.shown[table.cursor_row]

    # -- actions ---------------------------------------------------------------------------------
    def action_section(self, step: int) -> None:
        if self.space_only:
            return
        self.section = (self.section + step) % len(SECTIONS)
        self._show()

    def action_status_filter(self) -> None:
        if not self.space_only and SECTIONS[self.section].key != "open":
            self.notify(
                f"f chooses the status in the last section ({self._status_title()}); "
                f"“{SECTIONS[self.section].title}” lists fixed statuses.",
                markup=False,
            )
            return
        self.status_index = (self.status_index + 1) % len(STATUS_FILTERS)
        if any(s not in ("open", "draft") for s in self.status_filter):
            self._load()
        else:
            self._show()

    def action_scope(self) -> None:
        if self.nav.space_id is None and not self.space_only:
            self.notify("Select a space in the browser (1) to list only its change requests.")
            return
        self.space_only = not self.space_only
        self._load()

    def action_reload(self) -> None:
        self._load()

    def action_preview(self) -> None:
        self.toggle_class("-preview")
        self._columns()
        self._show()

    @on(DataTable.RowHighlighted)
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        # An empty table highlights "no row" (cursor_row -1, row_key None) on up/home/pgup.
        row_key = event.row_key
        if row_key is not None and row_key.value is not None:
            self.selected_id = row_key.value
        if self.has_class("-preview"):
            self._preview()

    @work(exclusive=True, group="inbox-preview", exit_on_error=False)
    async def _preview(self) -> None:
        row = self._selected()
        text = self.query_one("#inbox-preview-text", Static)
        if row is None:
            text.update("Nothing selected.")
            return
        cr = row.cr
        head = Content.assemble(
            (f"#{row.number} ", "bold"),
            inert(cr.subject or "(no subject)", style="bold"),
            "\n",
            inert(
                f"{cr.status} · {cr.createdBy.displayName if cr.createdBy else ''} · {row.space_title}"
            ),
            "\n\n",
            inert(description_markdown(cr.description) or "No description."),
            "\n\nChanged pages:\n",
        )
        text.update(head + Content("loading…"))
        try:
            lines = await preview_changes(self.nav.client, row.space_id, cr.id)
        except GitBookError as exc:
            text.update(head + inert(f"could not load: {exc}"))
            return
        text.update(head + inert("\n".join(lines)))

    @on(DataTable.RowSelected)
    def _row_selected(self) -> None:
        self.action_open()

    def action_open(self) -> None:
        row = self._selected()
        if row is None:
            return
        self.app.push_screen(
            ChangeRequestReviewScreen(
                self.nav, row.space_id, row.cr.id, space_title=row.space_title
            ),
            self._review_closed,
        )

    def _review_closed(self, _: None) -> None:
        self._load(quiet=True)
