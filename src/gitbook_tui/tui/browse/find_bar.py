"""FindBar (the search prompt docked under the page viewer) and find-in-page behaviour."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from functools import partial
from time import monotonic
from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.message import Message
from textual.message_pump import MessagePump
from textual.widget import Widget
from textual.widgets import Input, Label
from textual.worker import Worker

from ..common.text import inert

if TYPE_CHECKING:  # (the engine is imported once a page is shown: not for the first screen)
    from ..render import DocumentLayout, FindResults, Match
    from ..render.find import Pending
    from ..render.viewport import Viewport

__all__ = ["FindBar", "FindInPage"]

_FIND_SLICE = 0.02
"""Seconds of searching between two turns of the event loop (keeps keys responsive)."""

_FIND_WAIT = 0.05
"""Seconds between two looks for more blocks while the page is still being parsed."""

_FIND_RESYNC = 0.25
"""Seconds between two repaints while a search only changes the page's total height."""


class FindBar(Horizontal):
    """``/`` prompt, an Input and the match counter ("3/17").

    Its messages go to ``target`` (the page viewer, a sibling rather than an ancestor)
    when one is given, and otherwise bubble up from the bar as usual.
    """

    DEFAULT_CSS = """
    FindBar {
        dock: bottom;
        height: 1;
        background: $panel;
    }
    FindBar > #find-prompt {
        width: 2;
        padding: 0 0 0 1;
        color: $text-muted;
    }
    FindBar > #find-input {
        width: 1fr;
        height: 1;
        border: none;
        padding: 0 1;
        background: $panel;
    }
    FindBar > #find-input:focus {
        background: $surface;
    }
    FindBar > #find-status {
        width: auto;
        min-width: 12;
        padding: 0 1;
        color: $text-muted;
        text-align: right;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close find", id="find_bar.close"),
    ]

    class Submitted(Message):
        """The user pressed enter: search for ``query``."""

        def __init__(self, find_bar: FindBar, query: str) -> None:
            super().__init__()
            self.find_bar = find_bar
            self.query = query

        @property
        def control(self) -> FindBar:
            return self.find_bar

    class Closed(Message):
        """The user closed the bar (escape)."""

        def __init__(self, find_bar: FindBar) -> None:
            super().__init__()
            self.find_bar = find_bar

        @property
        def control(self) -> FindBar:
            return self.find_bar

    def __init__(
        self,
        *,
        target: MessagePump | None = None,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._target = target
        self._status = ""

    def compose(self) -> ComposeResult:
        yield Label("/", id="find-prompt")
        yield Input(placeholder="Find in page", id="find-input", select_on_focus=True)
        yield Label("", id="find-status")

    @property
    def input(self) -> Input:
        return self.query_one("#find-input", Input)

    @property
    def value(self) -> str:
        return self.input.value

    @property
    def status(self) -> str:
        """The counter text shown at the right ("3/17", "no matches", …)."""
        return self._status

    def set_status(self, status: str) -> None:
        self._status = status
        if self.is_mounted:
            # The status may echo the query, which is user text: keep it inert.
            self.query_one("#find-status", Label).update(inert(status))

    def on_mount(self) -> None:
        self.set_status(self._status)

    def open(self) -> None:
        """Show the bar and put the cursor in the input."""
        self.display = True
        self.input.focus()

    def _send(self, message: Message) -> None:
        if self._target is not None:
            self._target.post_message(message)
        else:
            self.post_message(message)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._send(self.Submitted(self, event.value))

    def action_close(self) -> None:
        self.display = False
        self._send(self.Closed(self))


class FindInPage(Widget):
    """Find-in-page behaviour of the page viewer (``/``, ``n``/``N``, escape).

    A mixin for a widget with a :class:`Viewport` in ``_view`` and a ``_sync()`` that
    mirrors it to the screen. The bar is mounted next to the widget on first use, since
    a ScrollView draws its own lines and has no children.
    """

    _view: Viewport | None
    _find_results: FindResults | None = None
    _find_bar: FindBar | None
    _find_synced: float = 0.0

    @property
    def _find(self) -> FindResults:
        """The current search; an empty one (made when first asked for) before any."""
        if self._find_results is None:
            from ..render.find import FindResults

            self._find_results = FindResults()
        return self._find_results

    @_find.setter
    def _find(self, results: FindResults) -> None:
        self._find_results = results

    def _sync(self) -> None:
        raise NotImplementedError

    @property
    def find_results(self) -> FindResults:
        return self._find

    @property
    def find_status(self) -> str:
        """``"3/17"`` (current/total), ``"no matches"``, or ``""`` when not searching."""
        return self._find.status

    async def action_find(self) -> None:
        bar = self._find_bar
        if bar is None or not bar.is_attached:
            parent = self.parent
            if not isinstance(parent, Widget):
                return
            bar = self._find_bar = FindBar(target=self)
            await parent.mount(bar, after=self)
        bar.open()
        self.prepare_find()  # (usually done already; else while the query is typed)

    def prepare_find(self, delay: float = 0.0) -> None:
        """Make find's pre-check text of the page (see render/haystack.py) in short slices
        between event-loop turns, starting in ``delay`` seconds: a first search then
        only lays out the blocks that may hold the query."""
        if self._view is not None:
            # a callable, not a coroutine: nothing left unawaited if replaced before it runs
            work = partial(self._prepare_find, self._view.layout, delay)
            _started: Worker[None] = self.run_worker(
                work, group="page_viewer.find_prepare", exclusive=True
            )

    async def _prepare_find(self, layout: DocumentLayout, delay: float) -> None:
        if delay:
            await asyncio.sleep(delay)
        index = 0
        while self._view is not None and self._view.layout is layout:
            index = layout.prepare_find(index, _FIND_SLICE / 2)
            if index >= len(layout) and layout.complete:
                return
            await asyncio.sleep(_FIND_WAIT if index >= len(layout) else 0)

    def action_close_find(self) -> None:
        if self._find_bar is not None:
            self._find_bar.action_close()

    def on_find_bar_submitted(self, message: FindBar.Submitted) -> None:
        message.stop()
        self.focus()
        self.find(message.query)

    def on_find_bar_closed(self, message: FindBar.Closed) -> None:
        message.stop()
        self._reset_find()
        self.focus()
        self.refresh()

    def _reset_find(self, query: str = "") -> FindResults:
        from ..render.find import FindResults, block_resolver

        view = self._view
        resolve = block_resolver(view.layout, query) if query and view is not None else None
        self._find = FindResults(query, resolve)
        self._update_find_status()
        return self._find

    def find(self, query: str, current: int | None = None) -> None:
        """Highlight every case-insensitive match of ``query`` in the rendered text and go
        to the first one at or after the top of the screen (to match number ``current``,
        counted from 0, when given and found). Text wrapped over several
        lines is searched as written (a match may run on past a soft wrap), so the count
        does not depend on the width. Large pages are searched in time slices (the
        counter shows ``+`` meanwhile), so keys stay responsive."""
        results = self._reset_find(query if self._view is not None else "")
        results.wanted = current
        if results.query and self._view is not None:
            from ..render.find import iter_matches

            matches = iter_matches(self._view.layout, query)
            if not self._search_slice(results, matches):
                work = partial(self._search_rest, results, matches)
                _started: Worker[None] = self.run_worker(
                    work, group="page_viewer.find", exclusive=True
                )
        self.refresh()

    def refind(self, *, same_text: bool = False) -> None:
        """Search again after the page was laid out anew: ``same_text`` (a resize, a theme,
        more of the page parsed) stays on the current match; else (a tab or details opened)
        the first match at or after the top of the screen becomes current."""
        if self._find.query:
            self.find(self._find.query, self._find.current if same_text else None)

    def _search_slice(
        self, results: FindResults, matches: Iterator[list[Match] | Pending | None]
    ) -> bool:
        """Search for one time slice; True once the whole document has been searched."""
        view = self._view
        if view is None or results is not self._find:
            return True
        before = (view.top, results.current, len(results.matches))
        done = view.search(results, matches, _FIND_SLICE)
        self._update_find_status()
        now = monotonic()
        # A full repaint costs about as much as a slice. Once the search is past the
        # screen, a slice usually only turns height estimates below it into exact
        # heights, which the scrollbar can pick up a little later.
        if (
            done
            or before != (view.top, results.current, len(results.matches))
            or now - self._find_synced >= _FIND_RESYNC
        ):
            self._find_synced = now
            self._sync()
        return done

    async def _search_rest(
        self, results: FindResults, matches: Iterator[list[Match] | Pending | None]
    ) -> None:
        while results is self._find and not self._search_slice(results, matches):
            # At the end of a page still being parsed: look again in a while.
            await asyncio.sleep(_FIND_WAIT if results.waiting else 0)

    def action_find_step(self, step: int) -> None:
        match = self._find.step(step)
        if match is not None and self._view is not None:
            self._view.show_match(match)
            self._update_find_status()
            self._sync()

    def _update_find_status(self) -> None:
        if self._find_bar is not None and self._find_bar.is_attached:
            self._find_bar.set_status(self._find.status)
