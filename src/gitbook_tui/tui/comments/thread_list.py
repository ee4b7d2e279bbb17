"""ThreadList: one two-line row per thread (page, author, age, first line, replies, reactions)."""

from __future__ import annotations

import math
from datetime import datetime
from typing import ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.message import Message
from textual.widgets.option_list import Option

from ..common.filter_box import matches
from ..common.pager import PagerOptionList, list_motion_bindings
from ..common.text import cell_width, fit, inert
from .mark_colours import mark_colours
from .reaction_summary import reactions_summary
from .thread_data import (
    ThreadState,
    age,
    author_name,
    body_markdown,
    first_line,
)

__all__ = ["AUTHOR_CELLS", "TITLE_CELLS", "WIDE_CELLS", "ThreadList", "thread_matches"]

WIDE_CELLS = 100
"""From this width on the list and the thread are side by side."""
LIST_SHARE = (0.4, 0.6)
"""The share of the screen the thread list takes at least and at most, side by side."""
THREAD_MIN_CELLS = 48
"""The thread pane never gets fewer cells than this (a readable line of a post)."""

TITLE_CELLS = (12, 60)
"""The fewest and most cells a page title takes in a row: between them, what the list's
width leaves once the author, age and marks are placed (cut with "…")."""
AUTHOR_CELLS = 20
PREVIEW_CELLS = 56
"""How much of a thread's first line the list asks room for (the rest is cut)."""


def thread_matches(thread: ThreadState, needle: str) -> bool:
    """Whether the ``/`` filter keeps ``thread``: its page title, the authors and the text
    of its comment and of the replies loaded."""
    if not needle:
        return True
    target = thread.comment.target
    page = target.page if target is not None else None
    fields = [page.title if page is not None else "whole space"]
    for post in thread.posts():
        fields += [author_name(post.postedBy), body_markdown(post)]
    return matches(needle, *fields)


class ThreadList(PagerOptionList):
    """Rows keyed by comment id; :meth:`show` keeps the cursor and scroll on refresh. The
    kit's list motion keys move the cursor a thread at a time (``space``/``b`` are not
    list keys); ``enter``, ``l`` and ``→`` open the thread."""

    DEFAULT_CSS = """
    ThreadList, ThreadList:focus { height: 1fr; border: none; padding: 0;
                                   text-wrap: nowrap; text-overflow: ellipsis; }
    /* the empty state is a sentence to read whole, not a row to cut */
    ThreadList.-empty { text-wrap: wrap; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        *list_motion_bindings("threads"),
        # the footer names enter: the key that reveals the thread (hidden when narrow)
        Binding("enter", "select", "Open thread", id="threads.open"),
        Binding("l,right", "select", "Open thread", show=False, id="threads.drill"),
    ]

    class Measured(Message):
        """The cells the rows need (:attr:`ThreadList.wanted`) changed: the screen sizes
        the panes again."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.me: str | None = None
        self.now: datetime | None = None
        self.ids: list[str] = []
        self._threads: list[ThreadState] = []
        self._all: list[ThreadState] = []  # before the filter
        self.needle = ""  # the ``/`` filter
        self.wanted = 0
        """The cells the longest row of every thread (filtered or not) needs uncut."""
        self._drawn_width = 0  # the width the rows were cut for
        self._colours: tuple[object, tuple[str, str]] | None = None

    def on_mount(self) -> None:
        # a signal, not ``watch(app, "theme")``: the app would keep every list ever made
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self._theme_changed())

    def _theme_changed(self) -> None:
        self._colours = None
        self.call_after_refresh(lambda: self.show(self._all) if self._all else None)

    def _marks(self) -> tuple[str, str]:
        """(warning, accent) styles readable on the list's rows."""
        key = (self.app.theme, self.background_colors[1])
        if self._colours is None or self._colours[0] != key:
            colours = mark_colours(self)
            self._colours = (key, colours or ("$text-warning", "$text-accent"))
        return self._colours[1]

    def _room(self) -> int:
        """The cells a row has (0 before the list is laid out)."""
        return self.scrollable_content_region.width

    def row(self, thread: ThreadState, *, title_cells: int | None = None) -> Content:
        """Two lines; the page title takes ``title_cells`` at most (by default what the
        list's width leaves it, within :data:`TITLE_CELLS`)."""
        comment = thread.comment
        target = comment.target
        page = target.page if target is not None and target.page is not None else None
        where = (page.title if page is not None else None) or "whole space"
        warning, accent = self._marks()
        new = inert("● new " if thread.new else "", style=f"bold {accent}")
        rest: list[Content] = [
            inert(f" · {fit(author_name(comment.postedBy), AUTHOR_CELLS, ellipsis=True).rstrip()}"),
            inert(f" · {age(comment.postedAt, self.now)}", style="$text-muted"),
        ]
        if page is not None and page.outdated:
            rest.append(inert(" · page changed", style=warning))
        if comment.is_resolved:
            rest.append(inert("  ✓ resolved", style="$success"))
        if thread.pending:
            rest.append(inert("  ⧗", style="$text-warning"))
        if thread.drafted:
            rest.append(inert("  ✎ draft", style="italic $text-warning"))
        if title_cells is None:
            room = self._room()
            # before the first layout the list has no width: a title keeps 28 cells
            others = new.cell_length + sum(part.cell_length for part in rest)
            title_cells = room - others if room else 28
        title_cells = max(TITLE_CELLS[0], min(title_cells, TITLE_CELLS[1]))
        title = inert(fit(where, title_cells, ellipsis=True).rstrip(), style="bold")
        second: list[Content] = [Content("  ")]
        replies = comment.replies or 0
        if replies:
            second.append(inert(f"💬{replies} "))
        reactions = reactions_summary(comment.reactions, self.me, f"bold {accent}")
        if reactions.plain:
            second.append(reactions + Content(" "))
        second.append(inert(first_line(comment, 80) or "—", style="$text-muted"))
        first = Content("").join([new, title, *rest])
        return first + Content("\n") + Content("").join(second)

    def _wanted(self, thread: ThreadState) -> int:
        """The cells ``thread``'s row needs: its first line with the title uncut (up to
        :data:`TITLE_CELLS`), its second up to :data:`PREVIEW_CELLS`."""
        first, _, second = self.row(thread, title_cells=TITLE_CELLS[1]).plain.partition("\n")
        return max(cell_width(first), min(cell_width(second), PREVIEW_CELLS))

    def _measure(self, threads: list[ThreadState]) -> None:
        wanted = max((self._wanted(t) for t in threads), default=0)
        if wanted != self.wanted:
            self.wanted = wanted
            self.post_message(self.Measured())

    def fit_to(self, width: int) -> None:
        """Side by side with the thread (a screen ``width`` of :data:`WIDE_CELLS` or more),
        take what the longest rows need, within :data:`LIST_SHARE` of the width and leaving
        the thread :data:`THREAD_MIN_CELLS`; narrower, the stylesheet's (the whole width)."""
        if width < WIDE_CELLS:
            self.styles.width = None
            return
        # the focus marker's column, the border on the right, the scrollbar when rows overflow
        chrome = 2
        if 2 * len(self.ids) > self.scrollable_content_region.height:
            chrome += self.styles.scrollbar_size_vertical
        low = math.ceil(width * LIST_SHARE[0])
        high = max(low, min(int(width * LIST_SHARE[1]), width - THREAD_MIN_CELLS))
        cells = max(low, min(self.wanted + chrome, high))
        if self.styles.width is None or self.styles.width.cells != cells:
            self.styles.width = cells

    def on_resize(self, event: events.Resize) -> None:
        # the titles were cut for the old width: cut them again for this one
        if self._room() != self._drawn_width and self._threads:
            self._drawn_width = self._room()
            for thread in self._threads:
                self.replace_option_prompt(thread.id, self.row(thread))

    def show(self, threads: list[ThreadState], *, selected: str | None = None) -> None:
        """Replace the rows; the cursor stays on ``selected`` (or its row), rows inserted
        above the first visible one shift the scroll so what was on screen stays there."""
        every = list(threads)
        self._measure(every)
        if self.needle:
            threads = [t for t in threads if thread_matches(t, self.needle)]
            if every and not threads:
                self.show_empty(self.no_match_text())
                self._all = every
                return
        self._all = every
        old_ids = self.ids
        top_id = self._top_id()
        keep = selected if selected is not None else self._highlighted_id()
        scroll = self.scroll_y
        self.ids = [t.id for t in threads]
        self._threads = list(threads)
        self._drawn_width = self._room()
        self.set_options(Option(self.row(t), id=t.id) for t in threads)
        self._set_empty(not threads)
        if not threads:
            return
        if keep in self.ids:
            self.highlighted = self.ids.index(keep)
        elif keep in old_ids:
            self.highlighted = min(old_ids.index(keep), len(threads) - 1)
        else:
            self.highlighted = 0
        if top_id is not None and top_id in self.ids and old_ids:
            shift = (self.ids.index(top_id) - old_ids.index(top_id)) * 2
            self.scroll_to(y=scroll + shift, animate=False, immediate=True)

    def no_match_text(self) -> str:
        """What the list says when the ``/`` filter keeps no thread, and what to do."""
        return f"No threads match “{self.needle}” — escape clears the filter, / edits it."

    def show_empty(self, text: str) -> None:
        """No rows: ``text`` (what the list is waiting for, or how to start a thread) in
        their place, so the list is never a blank screen (the thread pane is hidden below
        100 columns)."""
        self.ids, self._threads, self._all = [], [], []
        self.set_options([Option(inert(text, style="italic $text-muted"), disabled=True)])
        self._set_empty(True)

    def _set_empty(self, empty: bool) -> None:
        if empty != self.has_class("-empty"):
            self.set_class(empty, "-empty")
            self.refresh_bindings()  # "⏎ Open thread" only while there is one to open

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "select" and not self.ids:
            return False
        return super().check_action(action, parameters)

    def step(self, delta: int, from_id: str | None) -> None:
        """Move the cursor ``delta`` threads from ``from_id`` (from before the first when it
        is not listed), staying within the list."""
        if self.ids:
            index = self.ids.index(from_id) if from_id in self.ids else -1
            self.highlighted = max(0, min(index + delta, len(self.ids) - 1))

    def refilter(self, needle: str) -> None:
        """Show only the threads matching ``needle`` (all of them when it is empty)."""
        self.needle = needle
        if self._all:
            self.show(self._all)

    @property
    def listed_all(self) -> int:
        """How many threads there are before the filter (:attr:`ids` holds those listed)."""
        return len(self._all)

    def replace_row(self, thread: ThreadState) -> None:
        if thread.id in self.ids:
            self.replace_option_prompt(thread.id, self.row(thread))
            self._measure(self._all)

    def _highlighted_id(self) -> str | None:
        index = self.highlighted
        return self.ids[index] if index is not None and 0 <= index < len(self.ids) else None

    def _top_id(self) -> str | None:
        index = int(self.scroll_y) // 2
        return self.ids[index] if 0 <= index < len(self.ids) else None

    @property
    def selected_id(self) -> str | None:
        return self._highlighted_id()

    # the kit's list motion (common/pager.py), a thread (two lines) at a time
    def _row_count(self) -> int:
        return len(self.ids)  # the empty state's line is no row

    def _visible_rows(self) -> int:
        return max(1, self.scrollable_content_region.height // 2)
