"""DiffView on its own: folds and context, n/N across hunks, inline/split, current marker."""

from __future__ import annotations

import threading

import pytest
from textual.app import App, ComposeResult

from gitbook_tui.markdown import parse
from gitbook_tui.markdown.diff import (
    BlockDiff,
    LazyRows,
    diff_documents,
    diff_markdown,
    shown_blocks,
    stage_diff,
)
from gitbook_tui.server.demo.generated import large_reference_page
from gitbook_tui.tui.render import diff_view
from gitbook_tui.tui.render.diff_layout import DiffLayout, LayoutSettings
from gitbook_tui.tui.render.diff_view import DiffView
from support.diff_pages import edit, scattered_edits
from support.waits import until

OLD = "\n\n".join(f"Paragraph number {i} says something." for i in range(40)) + "\n"
NEW = OLD.replace("number 5 says", "number 5 now says").replace(
    "number 30 says", "number 30 firmly says"
)


class Host(App[None]):
    def compose(self) -> ComposeResult:
        yield DiffView(id="diff")


async def test_folds_context_and_changes() -> None:
    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        view = app.query_one(DiffView)
        view.show(diff_markdown(OLD, NEW))
        await pilot.pause()
        text = view.all_text()
        folds = [line for line in text if "unchanged" in line]
        assert len(folds) == 3  # before, between and after the two changes
        assert len(view.changes) == 2
        first = view.current
        assert first == view.changes.positions[0]
        await pilot.press("n")
        assert view.current == view.changes.positions[1]
        await pilot.press("n")  # past the last: stays, says so
        assert view.current == view.changes.positions[1]
        await pilot.press("N")
        assert view.current == first
        view.focus()
        for _ in range(10):
            await pilot.press("right_curly_bracket")
        assert view.context is None
        assert not any("unchanged" in line for line in view.all_text())
        await pilot.press(*["left_curly_bracket"] * 4)
        assert view.context == 3
        assert len([x for x in view.all_text() if "unchanged" in x]) == 3
        await pilot.press("g", "enter")  # opens the first fold on screen
        assert len([x for x in view.all_text() if "unchanged" in x]) == 2


async def test_inline_and_split_markers() -> None:
    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        view = app.query_one(DiffView)
        view.mode = "inline"
        view.show(diff_markdown(OLD, NEW))
        await pilot.pause()
        changed = [line for line in view.all_text() if "number 5" in line]
        assert [line[1] for line in changed] == ["−", "+"]
        await pilot.press("vertical_line")
        assert view.effective_mode == "split"
        (line,) = [line for line in view.all_text() if "number 5" in line]
        assert "−" in line and "+" in line and "│" in line
        await until(pilot, lambda: view.visible_text())


def _large_slice_and_edit() -> tuple[str, str]:
    """~150 KB of the 1 MB demo page and a copy with words, a row and paragraphs edited."""
    text = large_reference_page()
    old = text[: text.index("\n\n", 150_000) + 1]
    lines = old.split("\n")
    for i in range(len(lines) // 7, len(lines), len(lines) // 7):
        if lines[i].startswith("| ") and not lines[i].startswith("| -"):
            lines[i] = lines[i].replace(" |", " (edited) |", 1)
        elif lines[i][:1].isalpha():
            lines[i] += " Reworded in review."
        else:
            lines.insert(i, "\nA paragraph added in review.\n")
    return old, "\n".join(lines)


async def test_lazy_diff_renders_the_same_lines_as_whole_parses() -> None:
    """The review's lazy diff draws the same lines as a whole parse, folds opened. Slow: a large
    page's diff drawn both ways."""
    old, new = _large_slice_and_edit()
    lazy = diff_markdown(old, new)
    assert isinstance(lazy.rows, LazyRows)
    whole = diff_documents(parse(old), parse(new))

    class Two(App[None]):
        def compose(self) -> ComposeResult:
            yield DiffView(id="lazy")
            yield DiffView(id="whole")

    app = Two()
    async with app.run_test(size=(120, 40)) as pilot:
        views = app.query_one("#lazy", DiffView), app.query_one("#whole", DiffView)
        for view, diff in zip(views, (lazy, whole), strict=True):
            view.show(diff)
        await pilot.pause()
        a, b = views
        assert len(a.changes) >= 5
        for mode in ("inline", "split"):
            for context in (0, 3, 25):
                for view in views:
                    view.mode, view.context = mode, context  # type: ignore[assignment]
                    view._relayout_keeping_place()
                assert a.all_text() == b.all_text()
                assert a.changes.positions == b.changes.positions
            for view in views:  # open the first fold on screen in both
                view.action_edge(0)
                view.action_open_fold()
            assert a.all_text() == b.all_text()
        for view in views:  # everything shown
            view.context = None
            view._relayout_keeping_place()
        assert a.all_text() == b.all_text()


class Moves(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.totals: list[int | None] = []

    def compose(self) -> ComposeResult:
        yield DiffView(id="diff")

    def on_diff_view_moved(self, event: DiffView.Moved) -> None:
        self.totals.append(event.total)


async def test_a_large_diff_shows_its_first_changes_before_the_whole_page_is_aligned(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The first screen of a large page's diff comes from its first part: the whole page's
    alignment (held here) has not run when it is painted; the change total is "…" until it
    has, then the whole diff takes over where the reader is."""
    old, new = scattered_edits(400_000, 30)
    staged = stage_diff(old, new)
    assert staged.partial
    started, release = threading.Event(), threading.Event()
    whole_rest = staged.rest

    def held_rest() -> tuple[BlockDiff, bool]:
        started.set()
        assert release.wait(timeout=60)
        return whole_rest()

    monkeypatch.setattr(staged, "rest", held_rest)
    app = Moves()
    async with app.run_test(size=(120, 40)) as pilot:
        view = app.query_one(DiffView)
        view.show(staged)
        await until(pilot, started.is_set)  # painted: the pane has started on the rest
        screen = "\n".join(view.visible_text())
        assert "revised0" in screen and "unchanged" in screen
        assert "Reading the rest of the page" in "\n".join(view.all_text())
        assert view.partial and app.totals[-1] is None  # "change 1 of …"
        known = len(view.changes)
        assert 1 <= known < 30
        for _ in range(known + 2):  # past the last change known: stays there, says so
            await pilot.press("n")
        assert view.changes.ordinal(view.current) == known
        place = view.scroll_offset.y
        assert not any("revised29" in line for line in view.all_text())
        release.set()
        await until(pilot, lambda: not view.partial)
        await until(pilot, lambda: app.totals[-1] == 30)  # "change n of 30"
        assert len(view.changes) == 30
        assert view.changes.ordinal(view.current) == known  # the same change, the same line
        assert view.scroll_offset.y == place
        assert not any("Reading the rest" in line for line in view.all_text())
        assert any("revised29" in line for line in view.all_text())
        await pilot.press("n")
        assert view.changes.ordinal(view.current) == known + 1


def _repetitive_page(paragraphs: int = 9_000) -> str:
    """A page of a few paragraphs repeated over and over (~230 KB)."""
    texts = ("The same short paragraph.", "Another line that repeats.")
    texts += (texts[0], "A third, rarer one.")
    return "\n\n".join(texts[i % len(texts)] for i in range(paragraphs)) + "\n"


async def test_on_a_repetitive_page_the_whole_diff_keeps_the_reader_on_the_same_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where the whole page's diff pairs and orders the rows otherwise than its first part
    (much repeated text), the reader stays on the lines showing the same blocks of the page,
    on the same change, rather than being taken to the start of the change by its number."""
    old = _repetitive_page()
    new = edit(old, 10, 12)
    staged = stage_diff(old, new)
    assert staged.partial
    started, release = threading.Event(), threading.Event()
    whole_rest, continued = staged.rest, []

    def held_rest() -> tuple[BlockDiff, bool]:
        started.set()
        assert release.wait(timeout=60)
        whole, same = whole_rest()
        continued.append(same)
        return whole, same

    monkeypatch.setattr(staged, "rest", held_rest)
    app = Moves()
    async with app.run_test(size=(120, 40)) as pilot:
        view = app.query_one(DiffView)
        view.show(staged)
        await until(pilot, started.is_set)
        await pilot.press("n", "j", "j", "j", "j", "j")  # the second change, then read on
        assert view.current is not None and view.top_line is not None
        assert view.diff is not None
        first_rows, lines = view.diff.rows, view.lines
        top_blocks = shown_blocks(lines[view.top_line], first_rows)
        change_blocks = shown_blocks(lines[view.current], first_rows)
        place = view.scroll_offset.y - view.top_line  # less the header's lines: none here
        top_text = view.visible_text()[0]
        release.set()
        await until(pilot, lambda: not view.partial)
        assert continued == [False]  # the whole diff's rows do not start as the part's
        assert view.diff is not None and view.top_line is not None and view.current is not None
        shown = shown_blocks(view.lines[view.top_line], view.diff.rows)
        assert top_blocks[0][0] in shown[0]  # the same block of the page at the top
        assert view.visible_text()[0] == top_text and view.scroll_offset.y - view.top_line == place
        current = shown_blocks(view.lines[view.current], view.diff.rows)
        assert change_blocks[0][:1] == current[0][:1] and change_blocks[1][:1] == current[1][:1]


async def test_keys_are_answered_while_the_whole_diff_is_laid_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The whole page's lines are laid out off the UI thread: while that runs (held here),
    keys move and change the view; a context changed meanwhile is the whole diff's too."""
    old, new = scattered_edits(400_000, 30)
    staged = stage_diff(old, new)
    assert staged.partial
    held, release = threading.Event(), threading.Event()
    real = diff_view.lay_out

    def held_lay_out(diff: BlockDiff, settings: LayoutSettings) -> DiffLayout:
        if threading.current_thread() is not threading.main_thread() and not held.is_set():
            held.set()
            assert release.wait(timeout=60)
        return real(diff, settings)

    monkeypatch.setattr(diff_view, "lay_out", held_lay_out)
    app = Moves()
    async with app.run_test(size=(120, 40)) as pilot:
        view = app.query_one(DiffView)
        view.show(staged)
        await until(pilot, held.is_set)  # the whole diff is made; its lines being laid out
        assert view.partial
        await pilot.press("n")
        assert view.changes.ordinal(view.current) == 2
        await pilot.press("right_curly_bracket")  # more context, on the first part
        context = view.context
        release.set()
        await until(pilot, lambda: not view.partial)
        assert view.context == context and len(view.changes) == 30
        assert view.changes.ordinal(view.current) == 2
        shown = view.all_text()
        view._relayout_keeping_place()  # laid out here, as the reader left it
        assert view.all_text() == shown
