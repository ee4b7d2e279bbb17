"""BlameScreen: a page with, beside each block, the revision that last changed it; blocks are
filled in as the walk back through the page's history settles them (the screen stays
usable meanwhile, and says how far back it has walked). ``enter`` opens the diff of the
revision that changed the block, at that block; ``p`` the page as it was then."""

from __future__ import annotations

from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Static

from ...api import GitBookError
from ..common.hint_footer import HintFooter
from ..common.intents import OpenPage
from ..common.navigator import Navigator
from ..common.status_bar import StatusBar
from ..common.text import count_of, inert
from .blame_data import BLAME_CACHE, BlameWalk, NotInRevision, revision_shown
from .blame_view import BlameView
from .history_data import LogEntry
from .revision_screen import RevisionScreen

__all__ = ["BlameScreen"]

SLICE_S = 0.1
"""The walk runs this long between two repaints of the gutters."""


def _date(entry: LogEntry | None) -> str:
    return entry.created_at.strftime("%Y-%m-%d") if entry and entry.created_at else "?"


class BlameScreen(Screen[None]):
    """The blame of ``page_id`` at ``revision_id`` (None: the space's current revision)."""

    AUTO_FOCUS = "#blame-view"

    DEFAULT_CSS = """
    BlameScreen #blame-title { background: $panel; color: $text; padding: 0 1; }
    BlameScreen #blame-state { padding: 0 1; color: $text-muted; height: auto; }
    BlameScreen #blame-state.-error { color: $error; }
    BlameScreen BlameView { height: 1fr; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("p", "page_at_revision", "Page then", id="blame.page_at"),
        Binding("escape", "back", "Back", id="blame.back"),
    ]

    def __init__(
        self, navigator: Navigator, space_id: str, page_id: str, revision_id: str | None = None
    ) -> None:
        super().__init__()
        self.navigator = navigator
        self.space_id, self.page_id, self.revision_id = space_id, page_id, revision_id
        self.walk: BlameWalk | None = None

    def compose(self) -> ComposeResult:
        yield Static("Blame", id="blame-title", markup=False)
        yield Static("Reading the page…", id="blame-state", markup=False)
        yield BlameView(id="blame-view")
        yield StatusBar(view="history", id="status-bar")
        yield HintFooter(compact=True)

    def on_mount(self) -> None:
        self.query_one(StatusBar).follow(self.navigator.client)
        self._run()

    def _state(self, text: str, *, error: bool = False) -> None:
        state = self.query_one("#blame-state", Static)
        state.update(inert(text))
        state.set_class(error, "-error")

    @work(exclusive=True, group="blame-walk", exit_on_error=False)
    async def _run(self) -> None:
        view = self.query_one(BlameView)
        client = self.navigator.client
        try:
            revision = self.revision_id
            if revision is None:
                revision = await revision_shown(client, self.space_id)
            walk = BLAME_CACHE.walk(client, self.space_id, self.page_id, revision)
            await walk.start()
        except (GitBookError, NotInRevision) as error:
            self._state(f"The page could not be blamed: {error}", error=True)
            view.show_message("Nothing to show.")
            return
        self.walk = walk
        entry = walk.holder if not walk.entries else walk.entries[0]
        self.query_one("#blame-title", Static).update(
            inert(f"Blame of “{walk.title}” at {_date(entry)} ({revision[:8]})")
        )
        await view.show(walk)
        self._progress()
        while not walk.done:
            try:
                settled = await walk.advance(SLICE_S)
            except GitBookError as error:
                self._state(f"The history could not be read: {error}", error=True)
                view.settled()
                return
            view.settled(settled)
            self._progress()

    def _progress(self) -> None:
        walk = self.walk
        if walk is None or walk.blame is None:
            return
        blame = walk.blame
        blocks = count_of(len(blame.blocks), "block")
        if not walk.done:
            self._state(
                f"Walking back: {count_of(walk.walked, 'revision')} read, to "
                f"{_date(walk.reached)} · {blame.open} of {blocks} still to date"
            )
            return
        changed = len({id(walk.entry_of(b)) for b in range(len(blame.blocks))})
        text = f"{blocks} last changed by {count_of(changed, 'revision')}"
        oldest = walk.entries[-1] if walk.entries else None
        if walk.ending == "created":
            text += f" · the page was created on {_date(oldest)}"
        elif walk.ending in ("missing", "unreadable"):
            why = "is not on the server" if walk.ending == "missing" else "cannot be read"
            text += f" · history before {_date(oldest)} {why}: ≤ marks blocks from then or before"
        text += " · enter: the change"
        self._state(text)

    def _entry_here(self) -> LogEntry | None:
        walk, view = self.walk, self.query_one(BlameView)
        if walk is None or walk.blame is None or not walk.blame.blocks:
            return None
        entry = walk.entry_of(view.cursor)
        if entry is None:
            self.notify(f"Not dated yet: the walk is at {_date(walk.reached)}.", timeout=3)
        return entry

    @on(BlameView.Chosen)
    def _chosen(self, event: BlameView.Chosen) -> None:
        event.stop()
        entry = self._entry_here()
        walk = self.walk
        if entry is None or walk is None or walk.blame is None:
            return
        start, end = walk.blame.blocks[event.block]
        near = "\n".join(walk.blame.lines[start:end])
        self.app.push_screen(
            RevisionScreen(self.navigator, self.space_id, entry, page_id=self.page_id, near=near)
        )

    def action_page_at_revision(self) -> None:
        """``p``: the page as it was at the revision that last changed the block."""
        entry = self._entry_here()
        if entry is not None:
            self.navigator.navigate(
                OpenPage(self.space_id, self.page_id, revision_id=entry.revision_id)
            )

    def action_back(self) -> None:
        self.dismiss(None)
