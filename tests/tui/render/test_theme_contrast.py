"""Page colours come from the Textual theme: body text, links and the chosen link read at
WCAG AA (4.5:1) on the page's background in every built-in theme, light and dark."""

from __future__ import annotations

from rich.color import Color as RichColor
from textual.app import App, ComposeResult
from textual.color import Color

from gitbook_tui.markdown import parse
from gitbook_tui.tui.browse.page_viewer import PageViewer
from gitbook_tui.tui.common.contrast import TEXT_CONTRAST, contrast
from support.waits import until

PAGE = "# Title\n\n## Section\n\nBody text with [a link](https://example.com) and `code`.\n"


class Reader(App[None]):
    def compose(self) -> ComposeResult:
        yield PageViewer(id="viewer")


def _c(color: RichColor | None) -> Color:
    assert color is not None and color.triplet is not None, color
    r, g, b = color.triplet
    return Color(r, g, b)


async def test_contrast_in_every_builtin_theme() -> None:
    app = Reader()
    async with app.run_test(size=(80, 20)) as pilot:
        viewer = app.query_one(PageViewer)
        viewer.show(parse(PAGE))
        await until(pilot, lambda: viewer.has_painted)
        # (ANSI themes take the terminal's own colours: nothing to measure)
        themes = [name for name in app.available_themes if "ansi" not in name]
        assert len(themes) > 10 and "textual-light" in themes
        failures = []
        for name in themes:
            app.theme = name
            await pilot.pause()
            base = viewer.rich_style
            background, body = _c(base.bgcolor), _c(base.color)
            palette = viewer.document_layout.palette
            checks = {
                "body": contrast(body, background),
                "link": contrast(_c(palette.link.color), background),
                "chosen link": contrast(
                    _c(palette.link_focus.color), _c(palette.link_focus.bgcolor)
                ),
                "heading": contrast(_c(palette.heading(1).color), background),
                "inline code": contrast(
                    _c(palette.inline_code.color), _c(palette.inline_code.bgcolor)
                ),
            }
            failures += [(name, what, round(v, 2)) for what, v in checks.items() if v < 4.5]
        assert not failures, failures
        assert TEXT_CONTRAST == 4.5


async def test_theme_change_relayouts_the_page_in_place() -> None:
    app = Reader()
    async with app.run_test(size=(60, 10)) as pilot:
        viewer = app.query_one(PageViewer)
        viewer.show(parse("# T\n\n" + "\n\n".join(f"line {n}" for n in range(50))))
        await until(pilot, lambda: viewer.has_painted)
        app.theme = "textual-dark"
        await pilot.pause()
        dark_link = viewer.document_layout.palette.link
        await pilot.press("pagedown")
        top = viewer.viewport.top
        app.theme = "textual-light"
        await pilot.pause()
        assert viewer.document_layout.palette.link != dark_link
        assert viewer.viewport.top == top


async def test_inbox_review_marks_are_readable_in_every_theme() -> None:
    from gitbook_tui.tui.review.inbox_table import review_colors

    app = Reader()
    async with app.run_test(size=(80, 20)) as pilot:
        failures = []
        for name in [n for n in app.available_themes if "ansi" not in n]:
            app.theme = name
            await pilot.pause()
            variables = app.theme_variables
            background = Color.parse(variables["background"])
            for what, mark in zip(("approvals", "changes"), review_colors(variables), strict=True):
                ratio = contrast(Color.parse(mark), background)
                if ratio < TEXT_CONTRAST:
                    failures.append((name, what, round(ratio, 2)))
        assert not failures, failures
