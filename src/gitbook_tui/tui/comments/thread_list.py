"""ThreadList: one two-line row per thread (page, author, age, first line, replies, reactions)."""

from __future__ import annotations

from datetime import datetime
from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.content import Content
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from ..common.filter_box import matches
from ..common.text import fit, inert
from .mark_colours import mark_colours
from .thread_data import (
    ThreadState,
    age,
    author_name,
    body_markdown,
    first_line,
    reactions_summary,
)

__all__ = ["ThreadList", "thread_matches"]


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


class ThreadList(OptionList):
    """Rows keyed by comment id; :meth:`show` keeps the cursor and scroll on refresh."""

    DEFAULT_CSS = """
    ThreadList, ThreadList:focus { height: 1fr; border: none; padding: 0;
                                   text-wrap: nowrap; text-overflow: ellipsis; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "cursor_down", "Down", show=False, id="threads.down"),
        Binding("k", "cursor_up", "Up", show=False, id="threads.up"),
        Binding("g", "first", "First", show=False, id="threads.first"),
        Binding("G", "last", "Last", show=False, id="threads.last"),
        # the pager keys (common/pager.py) that the Comments view leaves free (d is delete)
        Binding("space,ctrl+f", "pager_pages(1)", "Page down", show=False, id="threads.page_down"),
        Binding("b,ctrl+b", "pager_pages(-1)", "Page up", show=False, id="threads.page_up"),
        Binding("ctrl+d", "pager_half(1)", "Half page down", show=False, id="threads.half_down"),
        Binding("ctrl+u", "pager_half(-1)", "Half page up", show=False, id="threads.half_up"),
    ]

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.me: str | None = None
        self.now: datetime | None = None
        self.ids: list[str] = []
        self._threads: list[ThreadState] = []
        self._all: list[ThreadState] = []  # before the filter
        self.needle = ""  # the ``/`` filter
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

    def row(self, thread: ThreadState) -> Content:
        comment = thread.comment
        target = comment.target
        page = target.page if target is not None and target.page is not None else None
        where = (page.title if page is not None else None) or "whole space"
        warning, accent = self._marks()
        first: list[Content] = [
            inert("● new " if thread.new else "", style=f"bold {accent}"),
            inert(fit(where, 28, ellipsis=True).rstrip(), style="bold"),
            inert(f" · {fit(author_name(comment.postedBy), 20, ellipsis=True).rstrip()}"),
            inert(f" · {age(comment.postedAt, self.now)}", style="dim"),
        ]
        if page is not None and page.outdated:
            first.append(inert(" · page changed", style=warning))
        if comment.is_resolved:
            first.append(inert("  ✓ resolved", style="$success"))
        if thread.pending:
            first.append(inert("  ⧗", style="$text-warning"))
        if thread.drafted:
            first.append(inert("  ✎ draft", style="italic $text-warning"))
        second: list[Content] = [Content("  ")]
        replies = comment.replies or 0
        if replies:
            second.append(inert(f"💬{replies} "))
        reactions = reactions_summary(comment.reactions, self.me, f"bold {accent}")
        if reactions.plain:
            second.append(reactions + Content(" "))
        second.append(inert(first_line(comment, 80) or "—", style="dim"))
        return Content("").join(first) + Content("\n") + Content("").join(second)

    def show(self, threads: list[ThreadState], *, selected: str | None = None) -> None:
        """Replace the rows; the cursor stays on ``selected`` (or its row), rows inserted
        above the first visible one shift the scroll so what was on screen stays there."""
        every = list(threads)
        if self.needle:
            threads = [t for t in threads if thread_matches(t, self.needle)]
            if every and not threads:
                self.show_empty(f"No thread matches “{self.needle}” (escape: clear the filter).")
                self._all = every
                return
        self._all = every
        old_ids = self.ids
        top_id = self._top_id()
        keep = selected if selected is not None else self._highlighted_id()
        scroll = self.scroll_y
        self.ids = [t.id for t in threads]
        self._threads = list(threads)
        self.set_options(Option(self.row(t), id=t.id) for t in threads)
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

    def show_empty(self, text: str) -> None:
        """No rows: ``text`` (what the list is waiting for, or how to start a thread) in
        their place, so the list is never a blank screen (the thread pane is hidden below
        100 columns)."""
        self.ids, self._threads, self._all = [], [], []
        self.set_options([Option(inert(text, style="italic $text-muted"), disabled=True)])

    def refilter(self, needle: str) -> None:
        """Show only the threads matching ``needle`` (all of them when it is empty)."""
        self.needle = needle
        if self._all:
            self.show(self._all)

    def replace_row(self, thread: ThreadState) -> None:
        if thread.id in self.ids:
            self.replace_option_prompt(thread.id, self.row(thread))

    def _highlighted_id(self) -> str | None:
        index = self.highlighted
        return self.ids[index] if index is not None and 0 <= index < len(self.ids) else None

    def _top_id(self) -> str | None:
        index = int(self.scroll_y) // 2
        return self.ids[index] if 0 <= index < len(self.ids) else None

    @property
    def selected_id(self) -> str | None:
        return self._highlighted_id()

    def action_first(self) -> None:
        if self.ids:
            self.highlighted = 0

    def _rows_per_page(self) -> int:
        return max(1, self.scrollable_content_region.height // 2)  # two lines a thread

    def _move(self, delta: int) -> None:
        if not self.ids:
            return
        current = self.highlighted if self.highlighted is not None else 0
        self.highlighted = max(0, min(len(self.ids) - 1, current + delta))

    def action_pager_pages(self, step: int) -> None:
        self._move(step * self._rows_per_page())

    def action_pager_half(self, step: int) -> None:
        self._move(step * max(1, self._rows_per_page() // 2))

    def action_last(self) -> None:
        if self.ids:
            self.highlighted = len(self.ids) - 1
