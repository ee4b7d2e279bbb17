"""The screen lines of a block diff laid out for one width, mode and context: :func:`lay_out`.

Free of the widget (it reads no widget or app state: the theme's styles come in with the
settings), so that a large page's whole diff is laid out in a worker thread and the pane
swaps it in at once (:class:`.diff_view.DiffView`); the pane lays out its other diffs with
it on the UI thread.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from rich.style import Style
from rich.text import Text
from textual.strip import Strip

from ...markdown.diff import (
    AttributeChange,
    BlockDiff,
    ChangeIndex,
    InlineLine,
    SplitLine,
    fold,
    inline_lines,
    split_lines,
)
from .core import wrap
from .diff_lines import DiffLines

__all__ = ["DiffLayout", "LayoutSettings", "LayoutStopped", "lay_out"]

NO_DIFFERENCES = "No differences in the page's content."
_STOP_EVERY = 64
"""Lines laid out between two looks at the ``stop`` event (a check costs next to nothing)."""


class LayoutStopped(Exception):
    """The layout was stopped (its ``stop`` event set): a newer one is wanted."""


@dataclass(frozen=True, slots=True)
class LayoutSettings:
    """What a layout depends on besides the diff (equal settings, equal layouts)."""

    width: int
    mode: Literal["inline", "split"]
    context: int | None
    expanded: frozenset[int]
    header: tuple[AttributeChange, ...]
    tail: str
    styles: tuple[tuple[str, Style], ...]
    """The theme's styles (:meth:`.diff_lines.DiffLines._styles`), as items."""


@dataclass(frozen=True, slots=True)
class DiffLayout:
    """The diff's lines (:attr:`lines`: one per shown block or pair, fold…), its change index,
    and its screen lines (:attr:`strips`: wrapped Texts, rendered when first painted), with
    where each of :attr:`lines` starts among them (:attr:`starts`)."""

    lines: Sequence[InlineLine | SplitLine]
    changes: ChangeIndex
    strips: list[Strip | Text]
    starts: list[int]
    settings: LayoutSettings


class _Lines(DiffLines):
    """:class:`DiffLines` with the settings' styles (no app: nothing to read from it)."""

    def __init__(self, settings: LayoutSettings) -> None:
        self._style_cache = dict(settings.styles)
        self.header = settings.header


def lay_out(
    diff: BlockDiff, settings: LayoutSettings, *, stop: threading.Event | None = None
) -> DiffLayout:
    """``diff`` folded, cut into lines and wrapped as ``settings`` say; safe in a worker
    thread as long as nothing else reads ``diff``'s rows meanwhile (lazy rows are made
    as they are read). Raises :class:`LayoutStopped` soon after ``stop`` is set."""
    rows = fold(diff.rows, settings.context, expanded=settings.expanded)
    lines: Sequence[InlineLine | SplitLine] = (
        split_lines(rows) if settings.mode == "split" else inline_lines(rows)
    )
    painter = _Lines(settings)
    width = settings.width
    strips: list[Strip | Text] = list(painter._header_lines(width))
    starts: list[int] = []
    for index, line in enumerate(lines):
        if stop is not None and index % _STOP_EVERY == 0 and stop.is_set():
            raise LayoutStopped
        starts.append(len(strips))
        strips.extend(
            painter._split(line, width)
            if isinstance(line, SplitLine)
            else painter._inline(line, width)
        )
    if settings.tail:
        strips.extend(wrap(Text(settings.tail, style=painter._styles()["dim"]), width))
    elif not lines:
        strips.append(Text(NO_DIFFERENCES))
    return DiffLayout(lines, ChangeIndex.of(lines), strips, starts, settings)
