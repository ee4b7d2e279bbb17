"""SitesScreen: view 4, the organization's sites (title, visibility, published, URL);
``enter`` opens a site's editor, ``/`` filters the list (``enter`` there opens the match)."""

from __future__ import annotations

from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Static

from ...api import AsyncGitBook
from ...drafts import Debouncer, DraftStore
from ...markdown.sanitize import clean_text
from ...models import Site
from ..common.filter_box import FilterBox, matches
from ..common.hint_footer import HintFooter
from ..common.intents import BROWSE, ShowView
from ..common.link_targets import external_url, open_in_browser, open_in_web_page
from ..common.navigator import Navigator
from ..common.state import account_key
from ..common.status_bar import StatusBar
from ..common.text import cell_width, count_of, inert
from .match_filter import MatchFilter, no_matches
from .site_data import load_sites
from .site_editor_screen import SiteEditorScreen
from .site_text import cell, clip_url, error_text, share_widths, table_room
from .sites_table import SitesTable

__all__ = ["SitesScreen", "SitesTable"]


class SitesScreen(Screen[None]):
    """The sites of the organization."""

    # The hidden filter box comes before the table: without this it takes the focus first.
    AUTO_FOCUS = "#sites-table"

    DEFAULT_CSS = """
    SitesScreen #sites-title { background: $panel; color: $text; padding: 0 1; }
    SitesScreen #sites-state { padding: 0 1; color: $text-muted; height: auto; }
    SitesScreen #sites-state.-error { color: $error; }
    SitesScreen SitesTable { height: 1fr; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open_site", "Open editor", id="sites.open"),
        Binding("r", "reload", "Reload", id="sites.reload"),
        Binding("o", "open_url", "Open in browser", id="sites.open_url"),
        Binding("y", "copy_url", "Copy URL", id="sites.copy_url"),
        Binding("slash", "filter", "Filter", id="sites.filter"),
        Binding("escape", "back", "Browse", id="sites.back"),
    ]

    def __init__(self, navigator: Navigator) -> None:
        super().__init__()
        self.navigator = navigator
        self.sites: list[Site] = []
        self.shown: list[Site] = []
        """The sites matching the filter, as the table lists them."""
        self.loaded = False
        self._drafts: Debouncer | None = None

    @property
    def client(self) -> AsyncGitBook:
        return self.navigator.client

    @property
    def drafts(self) -> Debouncer:
        """Form drafts of this account (kept across restarts)."""
        if self._drafts is None:
            self._drafts = Debouncer(DraftStore(account_key(self.client)))
        return self._drafts

    def compose(self) -> ComposeResult:
        yield Static("Sites", id="sites-title")
        yield Static("Loading sites…", id="sites-state")
        yield MatchFilter(placeholder="filter: title, visibility, state, URL", id="sites-filter")
        yield SitesTable(cursor_type="row", zebra_stripes=True, id="sites-table")
        yield StatusBar(view="sites", id="status-bar")
        yield HintFooter(compact=True)

    def on_mount(self) -> None:
        self.query_one(StatusBar).follow(self.client)
        table = self.query_one(SitesTable)
        table.focus()
        self.load()

    @work(exclusive=True, group="sites-load")
    async def load(self) -> None:
        state = self.query_one("#sites-state", Static)
        org = self.navigator.organization_id
        if org is None:
            state.update("Choose an organization first (1 Browse).")
            return
        try:
            sites = await load_sites(self.client, org)
        except Exception as error:
            state.update(inert(error_text(error, self.client.base_url) + " · r retry"))
            state.add_class("-error")
            return
        state.remove_class("-error")
        self.sites = sites
        self.loaded = True
        self.show_sites()

    def on_resize(self) -> None:
        if self.loaded:
            self.show_sites()

    def show_sites(self) -> None:
        """The rows, every column cut with "…" to fit the table's width (the title and the
        URL share what the short columns leave)."""
        state = self.query_one("#sites-state", Static)
        table = self.query_one(SitesTable)
        needle = self.filter_text
        rows = []
        self.shown = []
        for site in self.sites:
            published = bool(site.published)
            url = site.urls.published if site.urls and site.urls.published else ""
            row = (
                (clean_text(site.title or site.id), "bold"),
                (clean_text(str(site.visibility or "")), ""),
                ("published" if published else "unpublished", "" if published else "$text-muted"),
                (clean_text(url) or "—", "" if url else "$text-muted"),
            )
            if needle and not matches(needle, *(text for text, _ in row)):
                continue
            self.shown.append(site)
            rows.append(row)
        heads = ("Title", "Visibility", "State", "URL")
        needs = [
            max([len(head), *(cell_width(row[i][0]) for row in rows)])
            for i, head in enumerate(heads)
        ]
        widths = share_widths(needs, table_room(table.size.width or 80, len(heads)))
        cursor = table.cursor_row
        table.clear(columns=True)
        for head, width in zip(heads, widths, strict=True):
            table.add_column(head, width=width)
        for site, row in zip(self.shown, rows, strict=True):
            url, url_style = row[3]
            row = (*row[:3], (clip_url(url, widths[3]), url_style))
            table.add_row(
                *(
                    cell(text, style, width)
                    for (text, style), width in zip(row, widths, strict=True)
                ),
                key=site.id,
            )
        if rows:
            table.move_cursor(row=min(cursor, len(rows) - 1))
        count = len(self.sites)
        if not count:
            state.update("No sites in this organization yet (create one in the web app).")
        elif not needle:
            state.update(f"{count_of(count, 'site')} · enter opens the editor")
        elif not rows:
            state.update(inert(no_matches(needle)))
        else:  # the count is the count listed
            state.update(
                inert(
                    f"{len(rows)} of {count_of(count, 'site')} match “{needle}” · "
                    "enter opens · escape clears"
                )
            )

    # -- filter ---------------------------------------------------------------------------------
    @property
    def filter_text(self) -> str:
        return self.query_one(FilterBox).needle

    def action_filter(self) -> None:
        self.query_one(FilterBox).open()

    @on(FilterBox.Changed, "#sites-filter")
    def _filter_changed(self) -> None:
        if self.loaded:
            self.show_sites()
            self.query_one(SitesTable).move_cursor(row=0)

    @on(MatchFilter.Step, "#sites-filter")
    def _filter_step(self, event: MatchFilter.Step) -> None:
        self.query_one(SitesTable).action_pager_lines(event.delta)

    @on(FilterBox.Done, "#sites-filter")
    def _filter_done(self, event: FilterBox.Done) -> None:
        """``enter``: the list gets the focus (the filter stays applied) and the
        highlighted match opens; ``escape`` (:class:`FilterBox.Cleared`, a ``Done``) only
        leaves the box, cleared."""
        self.query_one(SitesTable).focus()
        if not isinstance(event, FilterBox.Cleared):
            self.action_open_site()

    async def action_back(self) -> None:
        """``escape``: clears the filter first, then goes back to Browse."""
        box = self.query_one(FilterBox)
        if box.has_class("-open") or box.needle:
            box.action_clear()
            return
        self.navigator.navigate(ShowView(BROWSE))

    def _url(self) -> str | None:
        """The published http(s) URL of the site under the cursor (None: none to open)."""
        site = self._site_here()
        if site is None:
            return None
        url = site.urls.published if site.urls else None
        safe = external_url(url) if url else None
        if safe is None:
            self.notify("This site is not published: it has no URL yet.", timeout=3)
        return safe

    def _site_here(self) -> Site | None:
        """The site under the cursor (None: the list is empty)."""
        row = self.query_one(SitesTable).cursor_row
        return self.shown[row] if 0 <= row < len(self.shown) else None

    def action_open_url(self) -> None:
        url = self._url()
        if url is None:
            return
        if open_in_web_page(self.app, url) or open_in_browser(url):
            self.notify("Opened " + clean_text(url), timeout=3, markup=False)
        else:
            self.app.copy_to_clipboard(url)
            self.notify("No browser here; copied " + clean_text(url), timeout=5, markup=False)

    def action_copy_url(self) -> None:
        url = self._url()
        if url is not None:
            self.app.copy_to_clipboard(url)
            self.notify("Copied " + clean_text(url), timeout=3, markup=False)

    def action_reload(self) -> None:
        self.load()

    @on(DataTable.RowSelected)
    def _selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_open_site()

    def action_open_site(self) -> None:
        site = self._site_here()
        if site is None:
            return
        self.app.push_screen(
            SiteEditorScreen(self.navigator, site, self.drafts), self._editor_closed
        )

    def _editor_closed(self, _: None) -> None:
        self.load()  # titles, visibility and published state may have changed

    async def on_unmount(self) -> None:
        if self._drafts is not None:
            await self._drafts.close()
