"""CommentsTitle: the Comments view's title line, cut to its width so the count stays shown.

"Comments · Guide · open · page “Welcome” · Alice · 2 threads": the space title, the
named scope (a page title or a change request's label) and the author are server text;
when the line is too wide for the terminal the longest of them are cut first (ending with
``…``), down to a few cells each, then the space title goes. The words the view writes
itself (status, "page", the count, "offline") are never cut.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.content import Content
from textual.widget import Widget

from ..common.status_bar import format_age
from ..common.text import cell_width, count_of, fit, inert, plain
from .comments_state import CommentsState

__all__ = ["MIN_CELLS", "CommentsTitle", "TitleParts", "one_line", "title_line", "title_parts"]

MIN_CELLS = 6
"""The fewest cells a cut name keeps (five characters and ``…``)."""

SEP = " · "


def one_line(text: str | None) -> str:
    """Server text for a one-line label: control-free, line breaks and tabs as spaces."""
    return " ".join(plain(text).split())


@dataclass(frozen=True)
class TitleParts:
    """What the title says. ``space``, ``named`` and ``author`` are cut when needed."""

    space: str = ""
    status: str = "open"
    where: str = "whole space"  # "whole space", "page", "change request", "this page"
    named: str = ""  # the page's title or the change request's label ("" when unknown)
    quoted: bool = False  # ``named`` shown in quotes (a page title)
    author: str = "anyone"
    count: str = ""  # " · 2 threads", " · loading…"
    offline: str = ""  # " · offline, cached 5m"
    needle: str = ""  # the ``/`` filter, shown as " · /word"


def title_parts(state: CommentsState, *, needle: str, listed: int) -> TitleParts:
    """What the title says of ``state`` (``listed``: the threads the ``/`` filter keeps)."""
    where, named = "whole space", ""
    if state.change_request is not None:
        where, named = "change request", state.label
    elif state.page_scope is not None:
        named = state.page_titles.get(state.page_scope, "")
        where = "page" if named else "this page"
    offline = ""
    if state.offline:
        cached = f", cached {format_age(state.cached_age)}" if state.cached_age else ""
        offline = f" · offline{cached}"
    if state.space_id is None:
        count = " · no space open (1: Browse)"
    elif not state.loaded:
        count = " · loading…"
    else:  # "3 of 10 threads" while the filter hides some
        every = count_of(len(state.order), "thread")
        count = f" · {listed} of {every}" if needle and state.order else f" · {every}"
    return TitleParts(
        space=(state.space.title or "") if state.space is not None else "",
        status=state.status,
        where=where,
        named=named,
        quoted=where == "page",
        author=state.author_label(),
        count=count,
        offline=offline,
        needle=needle,
    )


def _caps(widths: list[int], room: int) -> int | None:
    """The largest cap ≥ :data:`MIN_CELLS` such that the widths, each cut to it, fit in
    ``room``; ``None`` when even the smallest cap does not fit."""
    cap = min(max(widths, default=0), room)
    while cap >= MIN_CELLS:
        if sum(min(w, cap) for w in widths) <= room:
            return cap
        cap -= 1
    return None


def title_line(parts: TitleParts, width: int) -> Content:
    """The title for ``width`` cells (see the module doc)."""
    space, named, author = one_line(parts.space), one_line(parts.named), one_line(parts.author)
    left, right = ("“", "”") if parts.quoted and named else ("", "")
    where_gap = " " if named else ""
    fixed = (
        cell_width("Comments")
        + cell_width(f"{SEP}{parts.status}{SEP}{parts.where}{where_gap}{left}{right}{SEP}")
        + cell_width(parts.count)
        + cell_width(parts.offline)
    )
    needle = (
        f"{SEP}/{fit(one_line(parts.needle), 16, ellipsis=True).rstrip()}" if parts.needle else ""
    )
    fixed += cell_width(needle)
    names = [space, named, author]
    widths = [cell_width(n) for n in names]
    space_cost = cell_width(SEP) if space else 0
    if width > 0 and fixed + space_cost + sum(widths) > width:
        cap = _caps(widths, width - fixed - space_cost)
        if cap is None and space:  # no room for the space title: drop it
            space, space_cost = "", 0
            names[0], widths[0] = "", 0
            cap = _caps(widths, width - fixed)
        cap = MIN_CELLS if cap is None else cap
        space, named, author = (fit(n, cap, ellipsis=True).rstrip() for n in names)
    accent = f"{SEP}{parts.status}{SEP}{parts.where}{where_gap}{left}{named}{right}{SEP}{author}"
    pieces = [
        inert("Comments", style="bold"),
        inert(f"{SEP}{space}" if space else ""),
        inert(accent, style="$text-accent"),
        inert(parts.count, style="$text-muted"),
        inert(needle, style="bold"),
    ]
    if parts.offline:
        pieces.append(inert(parts.offline, style="$warning"))
    return Content("").join(pieces)


class CommentsTitle(Widget):
    """One line: :func:`title_line` at the widget's width (redrawn when it changes)."""

    DEFAULT_CSS = "CommentsTitle { height: 1; }"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.parts = TitleParts()

    def show(self, parts: TitleParts) -> None:
        if parts != self.parts:
            self.parts = parts
            self.refresh()

    def render(self) -> Content:
        return title_line(self.parts, self.content_size.width)
