"""The review pane's diff view (History's revision diff too) on a large page: the keys and
the resize that lay the whole diff out again keep the screen answering — the old layout
shown until the new one is swapped in, on the same block — and the newest key wins."""

from __future__ import annotations

import re
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from rich.text import Text
from textual.app import App, ComposeResult

from gitbook_tui.markdown.diff import BlockDiff, diff_markdown, shown_blocks
from gitbook_tui.tui.render import diff_layout
from gitbook_tui.tui.render.diff_layout import DiffLayout, LayoutSettings, lay_out
from gitbook_tui.tui.render.diff_view import DiffView
from support.diff_pages import scattered_edits
from support.waits import resize, until


def _large_diff() -> BlockDiff:
    """A 300 KB page 20 edits apart, diffed whole (a new diff each time: rows are lazy)."""
    old, new = scattered_edits(300_000, 20)
    return diff_markdown(old, new)


class Pane(App[None]):
    def compose(self) -> ComposeResult:
        yield DiffView(id="cr-diff")


@asynccontextmanager
async def _large_diff_shown() -> AsyncIterator[tuple[Any, DiffView]]:
    """The pane at 120x40 with the large page's diff shown and focused: (pilot, view)."""
    app = Pane()
    async with app.run_test(size=(120, 40)) as pilot:
        view = app.query_one(DiffView)
        view.show(_large_diff())
        view.focus()
        await pilot.pause()
        yield pilot, view


def _current_block(view: DiffView) -> tuple[object, ...]:
    assert view.diff is not None and view.current is not None
    old, new = shown_blocks(view.lines[view.current], view.diff.rows)
    return (old[:1], new[:1])


def _same_block(view: DiffView, before: tuple[object, ...]) -> bool:
    """The current line shows the block it showed before (on either side), and is on screen."""
    old, new = _current_block(view)
    top, height = view.scroll_offset.y, view.scrollable_content_region.height
    shown = top <= view._starts[view.current] < top + height
    return shown and ((bool(old) and old == before[0]) or (bool(new) and new == before[1]))


def _folded(view: DiffView) -> list[int]:
    """The hidden blocks' count of each fold line ("·· 42 unchanged ··")."""
    return [int(m[1]) for line in view.all_text() if (m := re.search(r"·· (\d+) unchanged", line))]


def _is_split(view: DiffView) -> bool:
    half = max(10, (view.scrollable_content_region.width - 1) // 2)
    rows = [line for line in view.visible_text() if "unchanged" not in line and line.strip()]
    return bool(rows) and all(len(line) > half and line[half] == "│" for line in rows)


async def _settled(pilot, view: DiffView) -> None:
    await pilot.pause()
    await until(pilot, lambda: not view.laying_out, timeout=60)
    await pilot.pause()


async def test_each_relayout_key_shows_its_layout_on_the_same_block(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``|``, ``}``, ``{``, ``enter`` on a fold and a resize: each shows its layout with the
    current change on the same block, laid out off the event loop (the whole page's fold
    and lines are never made on the UI thread)."""
    on_the_loop: list[str] = []
    real_fold = diff_layout.fold

    def fold(*args: Any, **kwargs: Any) -> Any:
        if threading.current_thread() is threading.main_thread():
            on_the_loop.append("fold")
        return real_fold(*args, **kwargs)

    monkeypatch.setattr(diff_layout, "fold", fold)
    async with _large_diff_shown() as (pilot, view):
        await pilot.press("n", "n", "n")
        assert _is_split(view)  # 120 columns: split by default
        on_the_loop.clear()  # the first layout, made by show(): what follows are the keys'
        before, folded = _current_block(view), _folded(view)

        await pilot.press("vertical_line")
        await _settled(pilot, view)
        assert view.mode == "inline" and not _is_split(view)
        assert _same_block(view, before)

        await pilot.press("vertical_line")
        await _settled(pilot, view)
        assert _is_split(view) and _same_block(view, before)

        await pilot.press("right_curly_bracket")
        await _settled(pilot, view)
        assert sum(_folded(view)) < sum(folded) and _same_block(view, before)

        await pilot.press("left_curly_bracket")
        await _settled(pilot, view)
        assert _folded(view) == folded and _same_block(view, before)

        await pilot.press("enter")  # the first fold from the top of the screen opens
        await _settled(pilot, view)
        assert len(_folded(view)) == len(folded) - 1 and _same_block(view, before)

        await resize(pilot, 100, 40)
        await _settled(pilot, view)
        width = view.scrollable_content_region.width
        assert width < 100 and max(len(line) for line in view.all_text()) <= width
        assert _is_split(view) and _same_block(view, before)
        assert on_the_loop == []


async def test_a_key_during_a_relayout_wins_and_keys_are_answered_meanwhile(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``|`` then ``}`` while the first relayout is held in its thread: the screen answers
    ``n`` on the old layout, and only the layout of both keys is ever swapped in."""
    from gitbook_tui.tui.render import diff_relayout

    held, release = threading.Event(), threading.Event()
    real = diff_relayout.lay_out

    def held_lay_out(
        diff: BlockDiff, settings: LayoutSettings, *, stop: threading.Event | None = None
    ) -> DiffLayout:
        if not held.is_set():
            held.set()
            assert release.wait(timeout=60)
        return real(diff, settings, stop=stop)

    monkeypatch.setattr(diff_relayout, "lay_out", held_lay_out)
    async with _large_diff_shown() as (pilot, view):
        shown = view.all_text()
        swapped: list[LayoutSettings] = []
        swap_in = view.swap_in
        monkeypatch.setattr(
            view, "swap_in", lambda layout: (swapped.append(layout.settings), swap_in(layout))
        )
        await pilot.press("vertical_line")  # to inline: held in the thread
        await until(pilot, held.is_set)
        assert view.laying_out and view.all_text() == shown  # the old layout, still shown
        await pilot.press("n")
        assert view.changes.ordinal(view.current) == 2  # answered meanwhile
        before = _current_block(view)
        await pilot.press("right_curly_bracket")
        release.set()
        await _settled(pilot, view)
        assert [(s.mode, s.context) for s in swapped] == [("inline", view.context)]
        assert not _is_split(view) and _same_block(view, before)
        assert view.diff is not None
        expected = lay_out(view.diff, view.layout_settings())
        assert [line.rstrip() for line in view.all_text()] == [
            (line.plain if isinstance(line, Text) else line.text).rstrip()
            for line in expected.strips
        ]
