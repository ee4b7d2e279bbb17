"""DiffView on its own: folds and context, n/N across hunks, inline/split, current marker."""

from __future__ import annotations

from textual.app import App, ComposeResult

from gitbook_tui.markdown import parse
from gitbook_tui.markdown.diff import LazyRows, diff_documents, diff_markdown
from gitbook_tui.server.demo.generated import large_reference_page
from gitbook_tui.tui.render.diff_view import DiffView
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
