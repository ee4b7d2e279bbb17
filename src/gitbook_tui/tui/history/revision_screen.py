"""RevisionScreen: what a revision changed against its parent (or everything between two
marked revisions): the changed pages on the left, the word-level diff of the highlighted
one on the right, with the review pane's diff view (inline/split ``|``, folds, ``n``/``N``)."""

from __future__ import annotations

from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import OptionList, Static

from ...api import GitBookError
from ..common.hint_footer import HintFooter
from ..common.intents import OpenPage, OpenReview, ShowBlame
from ..common.navigator import Navigator
from ..common.status_bar import StatusBar
from ..common.text import count_of, inert
from ..render.diff_view import DiffView
from .changed_pages import ChangedPages
from .history_data import LogEntry
from .revision_diff import (
    ChangedPage,
    PageChange,
    changed_between,
    load_page_change,
    load_revisions,
    nearest_change,
)

__all__ = ["RevisionScreen"]


def _when(entry: LogEntry) -> str:
    return entry.created_at.strftime("%Y-%m-%d %H:%M") if entry.created_at else ""


class RevisionScreen(Screen[None]):
    """The pages ``newer`` changed since ``older`` (``older`` None: since its first parent)."""

    AUTO_FOCUS = "#revision-pages"

    DEFAULT_CSS = """
    RevisionScreen #revision-title { background: $panel; color: $text; padding: 0 1; }
    RevisionScreen #revision-state { padding: 0 1; color: $text-muted; height: auto; }
    RevisionScreen #revision-state.-error { color: $error; }
    RevisionScreen #revision-body { height: 1fr; }
    RevisionScreen ChangedPages { width: 32%; min-width: 24; max-width: 48; }
    RevisionScreen DiffView { width: 1fr; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back to the log", id="revision.back"),
        Binding("tab,shift+tab,w,ctrl+w,f6", "switch_pane", "Pages/diff", id="revision.switch"),
        Binding("J", "page(1)", "Next page", id="revision.next_page"),
        Binding("K", "page(-1)", "Prev page", id="revision.prev_page"),
        Binding("c", "open_change_request", "Change request", id="revision.change_request"),
        Binding("b", "blame", "Blame page", id="revision.blame"),
        Binding("p", "page_at_revision", "Page then", id="revision.page_at"),
    ]

    def __init__(
        self,
        navigator: Navigator,
        space_id: str,
        newer: LogEntry,
        older: LogEntry | None = None,
        *,
        page_id: str | None = None,
        near: str = "",
    ) -> None:
        """``page_id``: the page shown first; ``near``: text of a block of it (a blame's)
        whose change the diff opens at."""
        super().__init__()
        self.focus_page, self.near = page_id, near
        self.navigator = navigator
        self.space_id = space_id
        self.newer, self.older = newer, older
        self.old_id = older.revision_id if older else (newer.parents[0] if newer.parents else None)
        self.pages: list[ChangedPage] = []
        self.change: PageChange | None = None
        self.loaded = False

    def compose(self) -> ComposeResult:
        yield Static(self._title(), id="revision-title", markup=False)
        yield Static("Loading the changed pages…", id="revision-state", markup=False)
        with Horizontal(id="revision-body"):
            yield ChangedPages(id="revision-pages")
            yield DiffView(id="revision-diff")
        yield StatusBar(view="history", id="status-bar")
        yield HintFooter(compact=True)

    def _title(self) -> str:
        new = self.newer
        if self.older is not None:
            return f"Compare {_when(self.older)} → {_when(new)}"
        return f"{_when(new)} · {new.kind} · {new.what}"

    def on_mount(self) -> None:
        self.query_one(StatusBar).follow(self.navigator.client)
        self.query_one(DiffView).show_message("Choose a page on the left.")
        self._load()

    def _state(self, text: str, *, error: bool = False) -> None:
        state = self.query_one("#revision-state", Static)
        state.update(inert(text))
        state.set_class(error, "-error")

    @work(exclusive=True, group="revision-pages")
    async def _load(self) -> None:
        client = self.navigator.client
        try:
            old, new = await load_revisions(
                client, self.space_id, self.old_id, self.newer.revision_id
            )
        except GitBookError as error:
            self._state(f"The revision could not be read: {error}", error=True)
            return
        self.pages = changed_between(old, new)
        self.loaded = True
        note = ""
        if self.old_id is not None and old is None:
            note = " · its parent cannot be read: every page shows as new"
        if not self.pages:
            self._state("No page changed" + note)
            self.query_one(DiffView).show_message("No page content changed here.")
        else:
            self._state(count_of(len(self.pages), "page") + " changed" + note)
        pages = self.query_one(ChangedPages)
        pages.show_pages(self.pages)
        index = next((i for i, p in enumerate(self.pages) if p.page_id == self.focus_page), None)
        if index is not None:
            pages.highlighted = index

    @on(OptionList.OptionHighlighted, "#revision-pages")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        index = event.option_index
        if 0 <= index < len(self.pages):
            self.query_one(DiffView).show_message("Loading the diff…")
            self._load_page(self.pages[index])

    @on(OptionList.OptionSelected, "#revision-pages")
    def _selected(self) -> None:
        self.query_one(DiffView).focus()

    @work(exclusive=True, group="revision-diff")
    async def _load_page(self, page: ChangedPage) -> None:
        try:
            change = await load_page_change(
                self.navigator.client, self.space_id, self.old_id, self.newer.revision_id, page
            )
        except GitBookError as error:
            self.query_one(DiffView).show_message(f"The page could not be read: {error}")
            return
        self.change = change
        view = self.query_one(DiffView)
        view.show(change.staged, change.header)
        if not view.partial:
            self._go_near(page)

    @on(DiffView.Completed)
    def _completed(self) -> None:
        if self.change is not None:
            self._go_near(self.change.page)

    def _go_near(self, page: ChangedPage) -> None:
        """Open the diff at the change of the block asked for (a blame's), once: the
        reader moves on from there. A large page's: once its whole diff is shown."""
        if self.near and page.page_id == self.focus_page:
            view = self.query_one(DiffView)
            position = nearest_change(view.lines, self.near)
            self.near = ""
            if position is not None:
                view.go_to(position)
                view.focus()

    def action_switch_pane(self) -> None:
        pages, diff = self.query_one(ChangedPages), self.query_one(DiffView)
        (pages if diff.has_focus else diff).focus()

    def action_page(self, step: int) -> None:
        pages = self.query_one(ChangedPages)
        if pages.option_count:
            here = pages.highlighted or 0
            pages.highlighted = max(0, min(pages.option_count - 1, here + step))

    def action_open_change_request(self) -> None:
        entry = self.newer
        if entry.cr_id is None:
            self.notify("This revision merged no change request.", timeout=3)
            return
        self.navigator.navigate(OpenReview(self.space_id, entry.cr_id))

    def _page_here(self) -> ChangedPage | None:
        index = self.query_one(ChangedPages).highlighted
        if index is None or not 0 <= index < len(self.pages):
            self.notify("Choose a page first.", timeout=3)
            return None
        return self.pages[index]

    def action_blame(self) -> None:
        """``b``: who last changed each block of the highlighted page, as of this revision
        (over the page's log: ``escape`` goes there)."""
        page = self._page_here()
        if page is None:
            return
        if page.kind == "deleted":
            self.notify("The page is not in this revision (deleted here).", timeout=3)
            return
        # (an intent: the blame screen opens this screen, it must not import it back)
        self.navigator.navigate(ShowBlame(self.space_id, page.page_id, self.newer.revision_id))

    def action_page_at_revision(self) -> None:
        """``p``: the highlighted page in the reader, as it was at this revision (before it,
        for a page this revision deleted)."""
        page = self._page_here()
        if page is None:
            return
        revision = self.newer.revision_id if page.kind != "deleted" else self.old_id
        if revision is None:
            return
        self.navigator.navigate(OpenPage(self.space_id, page.page_id, revision_id=revision))

    def action_back(self) -> None:
        self.dismiss(None)
