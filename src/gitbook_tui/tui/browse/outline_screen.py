"""OutlineScreen: the headings of the page, indented by level, filtered as you type.

``OutlineScreen(headings)`` with ``headings`` as ``(level, title, anchor)``; it dismisses
with the chosen heading's anchor (``None`` when closed). Typing filters (every word must
appear in the title); ``up``/``down`` move in the list while typing (``outline.up``,
``outline.down``); ``enter`` picks; ``escape`` closes (``outline.close``).
"""

from __future__ import annotations

from collections.abc import Sequence

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from ..common.hint_footer import HintFooter
from ..common.modal import KitModal
from ..common.pager import PagerOptionList
from ..common.text import inert

__all__ = ["OutlineScreen"]


class OutlineScreen(KitModal[str | None]):
    """Jump to a heading of the page."""

    DEFAULT_CSS = """
    OutlineScreen { align: center middle; }
    OutlineScreen > #outline-dialog {
        width: 80%; max-width: 90; height: 80%;
        border: thick $primary; background: $surface; padding: 0 1;
    }
    OutlineScreen #outline-list { height: 1fr; }
    OutlineScreen #outline-status { color: $text-muted; }
    """

    BINDINGS = [
        Binding("escape", "close", "Close", id="outline.close"),
        Binding("down", "move(1)", "Next heading", show=False, id="outline.down"),
        Binding("up", "move(-1)", "Previous heading", show=False, id="outline.up"),
        Binding(
            "ctrl+d,ctrl+f,pagedown", "page(1)", "Page down", show=False, id="outline.page_down"
        ),
        Binding("ctrl+u,ctrl+b,pageup", "page(-1)", "Page up", show=False, id="outline.page_up"),
    ]

    def __init__(
        self,
        headings: Sequence[tuple[int, str, str]],
        *,
        title: str = "Outline",
        current: str | None = None,
    ) -> None:
        """``current``: the anchor of the heading the reader is under (preselected)."""
        super().__init__()
        self._current = current
        self.headings = [(int(level), title or "", anchor) for level, title, anchor in headings]
        self._title = title
        self._top = min((level for level, _, _ in self.headings), default=1)
        self._shown: list[int] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="outline-dialog") as dialog:
            dialog.border_title = inert(self._title)
            yield Input(placeholder="Filter headings…", id="outline-filter")
            yield Static(id="outline-status")
            yield PagerOptionList(id="outline-list")
        yield HintFooter(compact=True)  # this screen's keys, not the browser's

    def on_mount(self) -> None:
        self._filter("")
        self.query_one("#outline-filter", Input).focus()

    def _filter(self, text: str) -> None:
        words = text.lower().split()
        self._shown = [
            index
            for index, (_, title, _) in enumerate(self.headings)
            if all(word in inert(title).plain.lower() for word in words)
        ]
        options = []
        for index in self._shown:
            level, title, _ = self.headings[index]
            indent = "  " * max(0, level - self._top)
            options.append(
                Option(
                    Content.assemble(
                        indent,
                        inert(title or "(untitled)", style="bold" if level == self._top else ""),
                    ),
                    id=str(index),
                )
            )
        listing = self.query_one("#outline-list", OptionList)
        listing.set_options(options)
        chosen = 0
        if self._current is not None and not words:
            anchors = [self.headings[index][2] for index in self._shown]
            chosen = anchors.index(self._current) if self._current in anchors else 0
        listing.highlighted = chosen if options else None
        status = self.query_one("#outline-status", Static)
        if not self.headings:
            status.update(Content("This page has no headings."))
        elif not options:
            status.update(Content.assemble("No headings match “", inert(text), "”"))
        else:
            status.update(Content(f"{len(options)} of {len(self.headings)} headings"))

    @on(Input.Changed, "#outline-filter")
    def _changed(self, event: Input.Changed) -> None:
        self._filter(event.value)

    @on(Input.Submitted, "#outline-filter")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        option = self.query_one("#outline-list", OptionList).highlighted_option
        if option is not None and option.id is not None:
            self._choose(option.id)

    @on(OptionList.OptionSelected, "#outline-list")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            self._choose(event.option.id)

    def _choose(self, option_id: str) -> None:
        self.dismiss(self.headings[int(option_id)][2])

    def action_move(self, step: int) -> None:
        listing = self.query_one("#outline-list", OptionList)
        if step > 0:
            listing.action_cursor_down()
        else:
            listing.action_cursor_up()

    def action_page(self, step: int) -> None:
        self.query_one("#outline-list", PagerOptionList).action_pager_half(step)

    def action_close(self) -> None:
        self.dismiss(None)
