"""SearchScreen: full-text search of the open space or of the whole organization.

Push it and wait for a :class:`SearchResult` (``None`` when closed)::

    result = await app.push_screen_wait(SearchScreen())
    if result is not None:
        app.navigate(OpenPage(result.space_id, result.page_id, result.anchor))

Bindings: ``escape`` closes (``search.close``), ``ctrl+o`` switches between this space
and the whole organization (``search.scope``), ``down`` goes from the query to the
results (``search.results``). ``enter`` in the query searches (or, when the results
already answer it, moves to them); ``enter`` on a result picks it.
"""

from __future__ import annotations

from typing import Literal

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.timer import Timer
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from ...api import APIStatusError, GitBookError
from ...models import SearchSection, SpaceSearchItem
from ..common.hint_footer import HintFooter
from ..common.modal import KitModal
from ..common.navigator import Navigator, navigator_of
from ..common.pager import PagerOptionList
from ..common.state import recall_choice, remember_choice
from ..common.text import emoji_slot, inert
from .hanging_indent import HangingIndent
from .search_data import SearchGroup, search_organization, search_space
from .search_results import SearchResult, ellipsis, highlight, one_line, section_anchor

SCOPE_CHOICE = "search.scope"
"""The remembered choice of scope (``ctrl+o``), per account."""

__all__ = ["MAX_QUERY", "SCOPE_CHOICE", "Scope", "SearchResult", "SearchScreen"]

Scope = Literal["space", "org"]

MAX_QUERY = 512
"""Longest query the server accepts (longer ones are refused here, not sent)."""
MIN_LIVE_QUERY = 2
"""Shortest query searched while typing (``enter`` searches any non-empty query)."""
DEBOUNCE = 0.3
"""Seconds of quiet typing before a live search starts."""


class SearchScreen(KitModal[SearchResult | None]):
    """Search the open space (or the organization) and pick a page or section."""

    DEFAULT_CSS = """
    SearchScreen { align: center middle; }
    SearchScreen > #search-dialog {
        width: 90%; max-width: 110; height: 85%;
        border: thick $primary; background: $surface; padding: 0 1;
    }
    SearchScreen #search-scope { text-style: bold; }
    SearchScreen #search-status { color: $text-muted; }
    SearchScreen #search-results { height: 1fr; }
    """

    BINDINGS = [
        Binding("escape", "close", "Close", id="search.close"),
        Binding("ctrl+o", "toggle_scope", "Space/organization", id="search.scope"),
        Binding("down", "focus_results", "Results", show=False, id="search.results"),
        Binding(
            "ctrl+d,ctrl+f,pagedown",
            "results_page(1)",
            "Results: page down",
            show=False,
            id="search.page_down",
        ),
        Binding(
            "ctrl+u,ctrl+b,pageup",
            "results_page(-1)",
            "Results: page up",
            show=False,
            id="search.page_up",
        ),
    ]

    def action_results_page(self, step: int) -> None:
        """Page the results while the query keeps the focus."""
        results = self.query_one("#search-results", PagerOptionList)
        results.action_pager_half(step)

    def __init__(self, query: str = "", *, scope: Scope | None = None) -> None:
        super().__init__()
        self._initial_query = query
        self.scope: Scope = scope or "space"
        self._explicit_scope = scope is not None
        self._timer: Timer | None = None
        self._results: dict[str, SearchResult] = {}
        self._shown: tuple[str, Scope] | None = None
        """The (query, scope) the listed results answer."""

    # -- layout -------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with Vertical(id="search-dialog"):
            yield Static(id="search-scope")
            yield Input(self._initial_query, placeholder="Search…", id="search-input")
            yield Static(id="search-status")
            yield PagerOptionList(id="search-results")
        yield HintFooter(compact=True)  # this screen's keys, not the browser's

    def on_mount(self) -> None:
        nav = self.navigator
        if nav is not None and not self._explicit_scope:
            # the scope chosen last time (per account), where it applies
            default: Scope = "space" if nav.space_id else "org"
            chosen = recall_choice(nav.client, SCOPE_CHOICE, ("space", "org"), default)
            self.scope = "space" if chosen == "space" and nav.space_id else "org"
            if self.scope == "org" and not nav.organization_id and nav.space_id:
                self.scope = "space"
        self._show_scope()
        if nav is None:
            self._status("Search is not available here.")
        else:
            self._status("Type to search; enter searches, ctrl+o switches scope.")
        self.query_one("#search-input", Input).focus()
        if self._initial_query.strip():
            self._start(self._initial_query, live=False)

    @property
    def navigator(self) -> Navigator | None:
        return navigator_of(self.app)

    @property
    def query_text(self) -> str:
        """The query as typed."""
        return self.query_one("#search-input", Input).value

    def _show_scope(self) -> None:
        where = "this space" if self.scope == "space" else "whole organization"
        other = "whole organization" if self.scope == "space" else "this space"
        self.query_one("#search-scope", Static).update(
            Content.assemble(
                ("Search · ", "bold"), (where, "bold"), (f"   ctrl+o: {other}", "$text-muted")
            )
        )

    def _status(self, message: str | Content) -> None:
        self.query_one("#search-status", Static).update(
            message if isinstance(message, Content) else Content(message)
        )

    # -- actions ------------------------------------------------------------------------
    def action_close(self) -> None:
        self._cancel_timer()
        self.dismiss(None)

    def action_toggle_scope(self) -> None:
        nav = self.navigator
        if nav is None:
            return
        target: Scope = "org" if self.scope == "space" else "space"
        if target == "space" and not nav.space_id:
            self.notify("No space is open: searching the whole organization.", markup=False)
            return
        if target == "org" and not nav.organization_id:
            self.notify("No organization is known: searching this space.", markup=False)
            return
        self.scope = target
        remember_choice(nav.client, SCOPE_CHOICE, target)
        self._show_scope()
        self._shown = None
        if self.query_text.strip():
            self._start(self.query_text, live=False, focus=False)

    def action_focus_results(self) -> None:
        results = self.query_one("#search-results", OptionList)
        if results.option_count:
            results.focus()
            if results.highlighted is None:
                results.action_first()

    # -- input --------------------------------------------------------------------------
    @on(Input.Changed, "#search-input")
    def _typed(self, event: Input.Changed) -> None:
        self._cancel_timer()
        if len(event.value.strip()) >= MIN_LIVE_QUERY:
            self._timer = self.set_timer(DEBOUNCE, self._live_search)

    def _live_search(self) -> None:
        self._timer = None
        self._start(self.query_text, live=True)

    @on(Input.Submitted, "#search-input")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._cancel_timer()
        query = event.value.strip()
        if self._shown == (query, self.scope) and self._results:
            self.action_focus_results()
            return
        self._start(event.value, live=False)

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _start(self, query: str, *, live: bool, focus: bool = True) -> None:
        """Check the query locally, then search in a worker."""
        query = query.strip()
        if not query:
            return
        if len(query) > MAX_QUERY:
            message = (
                f"The query is too long ({len(query)} characters; at most {MAX_QUERY}). "
                "Shorten it to search."
            )
            self._status(Content.styled(message, "bold"))
            if not live:
                self.notify(message, title="Search", severity="warning", markup=False)
            return
        nav = self.navigator
        if nav is None:
            self._status("Search is not available here.")
            return
        if live and self._shown == (query, self.scope):
            return
        if self.scope == "space" and not nav.space_id:
            self.scope = "org"
            self._show_scope()
        if self.scope == "org" and not nav.organization_id:
            self._status("No space or organization to search.")
            return
        self._status(Content("Searching…"))
        self.run_search(nav, query, self.scope, focus=focus and not live)

    # -- searching ----------------------------------------------------------------------
    @work(exclusive=True, exit_on_error=False)
    async def run_search(self, nav: Navigator, query: str, scope: Scope, *, focus: bool) -> None:
        """Ask the server, then list the results (errors become a notification)."""
        try:
            if scope == "space":
                assert nav.space_id is not None
                groups = await search_space(nav.client, nav.space_id, query)
            else:
                assert nav.organization_id is not None
                groups = await search_organization(nav.client, nav.organization_id, query)
        except GitBookError as exc:
            self._failed(exc.message if isinstance(exc, APIStatusError) else str(exc))
            return
        except Exception as exc:  # never let a bad answer take the app down
            self._failed(f"{type(exc).__name__}: {exc}")
            return
        self._show(query, scope, groups, focus=focus)

    def _failed(self, message: str) -> None:
        text = inert(message).plain
        self._status(Content.assemble(("Search failed: ", "bold"), inert(ellipsis(text, 200))))
        self.notify(text, title="Search failed", severity="error", markup=False)

    def _show(
        self,
        query: str,
        scope: Scope,
        groups: list[SearchGroup],
        *,
        focus: bool,
    ) -> None:
        results = self.query_one("#search-results", OptionList)
        self._results = {}
        options: list[Option] = []
        pages = 0
        for space_id, space_title, items in groups:
            if not items:
                continue
            if space_title is not None:
                options.append(
                    Option(
                        Content.assemble(
                            ("▸ ", "bold"), inert(space_title or "Untitled space", style="bold")
                        ),
                        id=f"space-{len(options)}",
                        disabled=True,
                    )
                )
            for item in items:
                pages += 1
                options.append(self._page_option(space_id, item, query, len(options)))
                for section in item.sections:
                    options.append(
                        self._section_option(space_id, item, section, query, len(options))
                    )
        results.set_options(options)
        self._shown = (query, scope)
        if not pages:
            self._status(Content.assemble("No results for “", inert(ellipsis(query)), "”"))
            return
        self._status(f"{pages} page{'s' if pages != 1 else ''} · enter opens, escape closes")
        results.highlighted = next(
            (i for i, option in enumerate(options) if not option.disabled), None
        )
        if focus:
            results.focus()

    def _page_option(self, space_id: str, item: SpaceSearchItem, query: str, index: int) -> Option:
        emoji = getattr(item, "emoji", None)
        parts: list[Content] = []
        if isinstance(emoji, str) and emoji:
            parts.append(Content(emoji_slot(emoji) + " "))
        parts.append(highlight(item.title or "Untitled", query, style="bold"))
        if item.path:
            parts.append(inert("  " + item.path, style="$text-muted"))
        option_id = f"r{index}"
        self._results[option_id] = SearchResult(space_id, item.id, None)
        return Option(Content.assemble(*parts), id=option_id)

    def _section_option(
        self,
        space_id: str,
        item: SpaceSearchItem,
        section: SearchSection,
        query: str,
        index: int,
    ) -> Option:
        parts: list[Content] = []
        parts.append(highlight(one_line(section.title) or item.title or "Untitled", query))
        snippet = one_line(section.body)
        if snippet:
            parts.append(Content.styled(" — ", "$text-muted"))
            parts.append(highlight(snippet, query, style="$text-muted"))
        option_id = f"r{index}"
        self._results[option_id] = SearchResult(space_id, item.id, section_anchor(section, item.id))
        return Option(HangingIndent(Content("    ↳ "), Content.assemble(*parts)), id=option_id)

    @on(OptionList.OptionSelected, "#search-results")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        result = self._results.get(event.option.id or "")
        if result is not None:
            self._cancel_timer()
            self.dismiss(result)
