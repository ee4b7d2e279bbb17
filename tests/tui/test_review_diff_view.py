"""DiffView on its own: folds and context, n/N across hunks, inline/split, current marker."""

from __future__ import annotations

from textual.app import App, ComposeResult

from conftest import until
from gitbook_tui.markdown.diff import diff_markdown
from gitbook_tui.tui.review.diff_view import DiffView

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
