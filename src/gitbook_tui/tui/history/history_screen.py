"""HistoryScreen: view 6, a space's revisions newest first (or those that changed one page),
fetched as the list is scrolled; ``/`` filters, ``enter`` shows a revision's changes (with
one marked by ``space``: everything between the two), ``c`` its change request in Reviews."""

from __future__ import annotations

from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Static

from ...api import GitBookError
from ..common.filter_box import FilterBox, matches
from ..common.hint_footer import HintFooter
from ..common.intents import BROWSE, OpenPage, OpenReview, ShowView
from ..common.navigator import Navigator
from ..common.status_bar import StatusBar
from ..common.text import count_of, inert
from .blame_screen import BlameScreen
from .history_data import HistoryWalk, LogEntry
from .log_table import LogTable, entry_cells
from .revision_screen import RevisionScreen

__all__ = ["HistoryScreen"]

FIRST_BATCH = 8
"""Revisions fetched before the first rows show (the rest of the screen follows)."""
BATCH = 25
AHEAD = 10
"""More are fetched when the cursor comes this close to the last row."""


class HistoryScreen(Screen[None]):
    """The log of one space (or page); the space open in Browse when none was asked for."""

    AUTO_FOCUS = "#history-log"

    DEFAULT_CSS = """
    HistoryScreen #history-title { background: $panel; color: $text; padding: 0 1; }
    HistoryScreen #history-state { padding: 0 1; color: $text-muted; height: auto; }
    HistoryScreen #history-state.-error { color: $error; }
    HistoryScreen LogTable { height: 1fr; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open_revision", "Changes", id="history.open"),
        Binding("space", "mark", "Mark/compare", id="history.mark"),
        Binding("c", "open_change_request", "Change request", id="history.change_request"),
        Binding("b", "blame", "Blame page", id="history.blame"),
        Binding("p", "page_at_revision", "Page then", id="history.page_at"),
        Binding("slash", "filter", "Filter", id="history.filter"),
        Binding("r", "reload", "Reload", id="history.reload"),
        Binding("escape", "back", "Browse", id="history.back"),
    ]

    def __init__(self, navigator: Navigator) -> None:
        super().__init__()
        self.navigator = navigator
        self.space_id: str | None = None
        self.page_id: str | None = None
        self.walk: HistoryWalk | None = None
        self.shown: list[LogEntry] = []
        """The entries the table lists (the filter's matches), in order."""
        self.marked: str | None = None
        """The revision marked to compare (``space``)."""
        self.loading = False
        self.failed: str | None = None

    def compose(self) -> ComposeResult:
        yield Static("History", id="history-title", markup=False)
        yield Static("", id="history-state", markup=False)
        yield FilterBox(placeholder="filter: subject, author, page, commit", id="history-filter")
        yield LogTable(cursor_type="row", zebra_stripes=True, id="history-log")
        yield StatusBar(view="history", id="status-bar")
        yield HintFooter(compact=True)

    def on_mount(self) -> None:
        self.query_one(StatusBar).follow(self.navigator.client)
        self.query_one(LogTable).set_columns()
        if self.space_id is None:
            # after the first layout: rows added (a layout asked for) before it left the
            # screen's widgets without their size — blank status bar and footer
            self.call_after_refresh(self._follow_browse, "")

    # -- what is shown ------------------------------------------------------------------------
    def set_scope(self, scope: str) -> None:
        """``6`` (or ``ShowView``): the space open in Browse, when no log was asked for."""
        if self.is_mounted:
            self._follow_browse(scope)

    def _follow_browse(self, scope: str) -> None:
        space = self.navigator.space_id
        if space is None:
            if self.space_id is None:
                self._state("Open a space in Browse (1), then press H for its history.")
            return
        if self.space_id is None or scope == "page":
            self.show_log(space, self.navigator.page_id if scope == "page" else None)

    def show_log(self, space_id: str, page_id: str | None = None) -> None:
        """The log of ``space_id`` (only the revisions that changed ``page_id``)."""
        if (space_id, page_id) == (self.space_id, self.page_id) and self.walk is not None:
            return
        self.space_id, self.page_id = space_id, page_id
        self.walk = HistoryWalk(self.navigator.client, space_id, page_id)
        self.shown, self.marked, self.failed = [], None, None
        self.query_one(LogTable).set_columns()
        self.query_one(FilterBox).close()
        self._title()
        self._state("Loading the history…")
        self._fetch(FIRST_BATCH, fill=True)

    def _title(self) -> None:
        walk = self.walk
        head = "History of the space"
        if self.page_id:
            titles = walk.entries[0].page_titles() if walk is not None and walk.entries else []
            head = f"History of the page “{titles[0]}”" if titles else "History of a page"
        self.query_one("#history-title", Static).update(inert(head))

    def _state(self, text: str, *, error: bool = False) -> None:
        state = self.query_one("#history-state", Static)
        state.update(inert(text))
        state.set_class(error, "-error")

    # -- fetching -----------------------------------------------------------------------------
    @work(exclusive=True, group="history-walk")
    async def _fetch(self, count: int, *, fill: bool = False) -> None:
        walk = self.walk
        if walk is None:
            return
        self.loading = True
        try:
            while True:
                try:
                    found = await walk.more(count)
                except GitBookError as error:
                    self.failed = str(error)
                    break
                if walk is not self.walk:
                    return  # another log was asked for meanwhile
                self._add(found)
                table = self.query_one(LogTable)
                room = table.size.height or 20
                if not fill or walk.done or table.row_count >= room + AHEAD:
                    break
                count = BATCH
        finally:
            self.loading = False
        self._title()
        self._count()

    def _add(self, entries: list[LogEntry]) -> None:
        table = self.query_one(LogTable)
        needle = self.query_one(FilterBox).needle
        for entry in entries:
            if needle and not matches(needle, *entry.haystack()):
                continue
            self.shown.append(entry)
            table.add_row(
                *entry_cells(entry, table.fitted_width, entry.revision_id == self.marked),
                key=entry.revision_id,
            )
        self._count()

    def _count(self) -> None:
        walk = self.walk
        if walk is None:
            return
        if self.failed:
            self._state(f"The history could not be read: {self.failed} · r retry", error=True)
            return
        total = len(walk.entries)
        listed = len(self.shown)
        needle = self.query_one(FilterBox).needle
        scope = " that changed this page" if self.page_id else ""
        more = "" if walk.done else " · more as you scroll"
        if needle and not listed:
            text = f"No loaded revision matches “{needle}”{more} · escape clears"
        elif needle:
            text = f"{listed} of {count_of(total, 'revision')}{scope} match “{needle}”{more}"
        elif not total and walk.done:
            text = "No revision changed this page." if self.page_id else "No revisions."
        else:
            text = f"{count_of(total, 'revision')}{scope}{more}"
        if self.marked:
            text += " · ◆ marked: enter on another compares"
        self._state(text)

    @on(DataTable.RowHighlighted, "#history-log")
    def _near_end(self, event: DataTable.RowHighlighted) -> None:
        walk = self.walk
        table = self.query_one(LogTable)
        if walk is None or walk.done or self.loading or self.failed:
            return
        if event.cursor_row >= table.row_count - AHEAD:
            self._fetch(BATCH)

    def on_resize(self) -> None:
        if self.walk is not None:
            self._relist()

    def _relist(self) -> None:
        table = self.query_one(LogTable)
        cursor = table.cursor_row
        table.set_columns()
        self.shown = []
        self._add(list(self.walk.entries) if self.walk else [])
        if table.row_count:
            table.move_cursor(row=min(cursor, table.row_count - 1), animate=False)

    # -- filter -------------------------------------------------------------------------------
    def action_filter(self) -> None:
        self.query_one(FilterBox).open()

    @on(FilterBox.Changed, "#history-filter")
    def _filter_changed(self) -> None:
        self._relist()
        self.query_one(LogTable).move_cursor(row=0)

    @on(FilterBox.Done, "#history-filter")
    @on(FilterBox.Cleared, "#history-filter")
    def _filter_left(self) -> None:
        self.query_one(LogTable).focus()

    # -- actions ------------------------------------------------------------------------------
    def entry_here(self) -> LogEntry | None:
        row = self.query_one(LogTable).cursor_row
        return self.shown[row] if 0 <= row < len(self.shown) else None

    def action_reload(self) -> None:
        space, page = self.space_id, self.page_id
        if space is not None:
            self.walk = None
            self.show_log(space, page)

    async def action_back(self) -> None:
        """``escape``: clears the filter first, then goes back to Browse."""
        box = self.query_one(FilterBox)
        if box.is_open or box.needle:
            box.action_clear()
            return
        self.navigator.navigate(ShowView(BROWSE))

    def action_mark(self) -> None:
        entry = self.entry_here()
        if entry is None or entry.state != "ok":
            return
        self.marked = None if self.marked == entry.revision_id else entry.revision_id
        self._relist()
        self._count()

    def action_open_change_request(self) -> None:
        entry = self.entry_here()
        if entry is None or entry.cr_id is None or self.space_id is None:
            self.notify("This revision merged no change request.", timeout=3)
            return
        self.navigator.navigate(OpenReview(self.space_id, entry.cr_id))

    def _page_entry(self) -> LogEntry | None:
        """The highlighted revision of a page's log (a space's log names no one page)."""
        entry = self.entry_here()
        if self.page_id is None:
            self.notify(
                "b and p need a page: H on a page in Browse, or enter on a revision.", timeout=4
            )
            return None
        return entry if entry is not None and entry.state == "ok" else None

    def action_blame(self) -> None:
        """``b``: who last changed each block of the log's page, as of the highlighted
        revision."""
        entry = self._page_entry()
        if entry is not None and self.space_id and self.page_id:
            screen = BlameScreen(self.navigator, self.space_id, self.page_id, entry.revision_id)
            self.app.push_screen(screen)

    def action_page_at_revision(self) -> None:
        """``p``: the log's page in the reader as it was at the highlighted revision."""
        entry = self._page_entry()
        if entry is not None and self.space_id and self.page_id:
            page = OpenPage(self.space_id, self.page_id, revision_id=entry.revision_id)
            self.navigator.navigate(page)

    @on(DataTable.RowSelected, "#history-log")
    def _selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_open_revision()

    def action_open_revision(self) -> None:
        entry = self.entry_here()
        if entry is None or self.space_id is None:
            return
        if entry.state != "ok":
            self.notify(entry.what, timeout=4, markup=False)
            return
        marked = self._marked_entry()
        if marked is None or marked is entry:
            self.app.push_screen(RevisionScreen(self.navigator, self.space_id, entry))
            return
        # compare: from the older of the two (later in the log) to the newer
        entries = self.walk.entries if self.walk else []
        older, newer = sorted((marked, entry), key=lambda e: -entries.index(e))
        self.app.push_screen(RevisionScreen(self.navigator, self.space_id, newer, older))

    def _marked_entry(self) -> LogEntry | None:
        entries = self.walk.entries if self.walk else []
        return next((e for e in entries if e.revision_id == self.marked), None)
