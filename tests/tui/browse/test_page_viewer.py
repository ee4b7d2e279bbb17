"""PageViewer and its layout engine: every block type, keys, find, resize, hostile text."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from textual.app import App, ComposeResult
from textual.pilot import Pilot

import gitbook_tui
from gitbook_tui.markdown import model as m
from gitbook_tui.markdown import parse
from gitbook_tui.server.demo.generated import large_reference_page
from gitbook_tui.tui.browse.find_bar import FindBar
from gitbook_tui.tui.browse.page_loader import parse_page
from gitbook_tui.tui.browse.page_viewer import PageViewer
from gitbook_tui.tui.render import (
    DocumentLayout,
    FileInfo,
    FindResults,
    LayoutState,
    Match,
    classify_href,
    render_plain,
)
from gitbook_tui.tui.render.viewport import Viewport
from support.waits import resize, until

EVERY_BLOCK = (
    Path(gitbook_tui.__file__).parent / "server/demo/spaces/user-guide/reference/every-block.md"
)


def span(text: str, *styles: str, href: str | None = None) -> m.Span:
    return m.Span(text, frozenset(styles), href)


def para(*spans: m.Span | str) -> m.Paragraph:
    return m.Paragraph(tuple(span(s) if isinstance(s, str) else s for s in spans))


def doc(*blocks: m.Block) -> m.Document:
    return m.Document(tuple(blocks))


def lines(*blocks: m.Block, width: int = 40, **kwargs: object) -> list[str]:
    return render_plain(doc(*blocks), width, **kwargs)  # type: ignore[arg-type]


@cache
def every_block() -> m.Document:
    return parse(EVERY_BLOCK.read_text(encoding="utf-8"))


@cache
def large_document() -> m.Document:
    return parse(large_reference_page())


# -- layout: one test per block type ----------------------------------------------------


@pytest.mark.parametrize("width", [40, 100])
def test_every_block_page_lays_out_at_both_widths(width: int) -> None:
    out = render_plain(every_block(), width)
    assert all(len(line) <= width for line in out)
    text = "\n".join(out)
    for expected in ("Every block, once", "‹tidewater-widget›", "[bench]", "☑ Write the page"):
        assert expected in text
    assert "{%" not in text  # no raw GitBook tag noise


def test_heading_levels_and_anchors() -> None:
    layout = DocumentLayout(doc(para("intro"), m.Heading(2, (span("Setup"),), "setup")), 40)
    assert layout.anchor_line("setup") == layout.start(1)
    out = lines(m.Heading(1, (span("Title"),), "title"), m.Heading(3, (span("Small"),), "small"))
    assert out[:2] == ["Title", "━━━━━"]
    assert "Small" in out


def test_paragraph_wraps_and_styles_spans() -> None:
    words = " ".join(["word"] * 30)
    out = lines(para(words), width=40)
    assert len(out) > 2 and all(len(line) <= 40 for line in out)
    layout = DocumentLayout(doc(para("a ", span("bold", "bold"), " ", span("code", "code"))), 40)
    segments = layout.get(0).segments[0]
    styles = {segment.text: segment.style for segment in segments}
    assert styles["bold"] is not None and styles["bold"].bold
    assert styles["code"] is not None and styles["code"].bgcolor is not None


def test_hint_has_coloured_bar_and_icon() -> None:
    out = lines(m.Hint("warning", (para("Careful with this."),)))
    assert out[0].startswith("┃ ⚠ Careful")
    out = lines(m.Hint("danger", (para(" ".join(["long"] * 20)),)))
    assert len([line for line in out if line]) > 1
    assert all(line.startswith("┃") for line in out if line)
    layout = DocumentLayout(doc(m.Hint("success", (para("ok"),))), 40)
    bar = layout.get(0).segments[0][0]
    assert bar.text.startswith("┃") and bar.style is not None and bar.style.color is not None


def tabs_block() -> m.Tabs:
    return m.Tabs(
        (
            m.Tab("Python", (para("python body"),)),
            m.Tab("Go", (para("go body"),)),
        )
    )


def test_tabs_header_and_active_tab_switch() -> None:
    out = lines(tabs_block())
    assert "Python" in out[0] and "Go" in out[0]
    assert out[1].startswith("━━━━━━━━")  # the active title is underlined heavily
    assert "python body" in out and "go body" not in out
    state = LayoutState(active_tabs={(0,): 1})
    out = lines(tabs_block(), state=state)
    assert "go body" in out and "python body" not in out
    assert out[1].startswith("─" * 9 + "━" * 4 + "─")


def test_stepper_numbers_steps_and_uses_heading_as_title() -> None:
    block = m.Stepper(
        (
            m.Step(None, (m.Heading(3, (span("Install"),), "install"), para("brew it"))),
            m.Step("Run", (para("run it"),)),
        )
    )
    out = lines(block)
    assert out[0] == "1 ▸ Install"
    assert "2 ▸ Run" in out
    assert any("brew it" in line and line.startswith("│") for line in out)
    assert DocumentLayout(doc(block), 40).anchor_line("install") == 0


def test_columns_side_by_side_when_wide_and_stacked_when_narrow() -> None:
    block = m.Columns(((para("LEFT"),), (para("RIGHT"),)))
    wide = lines(block, width=100)
    assert "LEFT" in wide[0] and "RIGHT" in wide[0]
    narrow = lines(block, width=60)
    assert narrow.index("RIGHT") > narrow.index("LEFT")


def test_table_borders_alignment_and_wrapping() -> None:
    table = m.Table(
        header=((span("Key"),), (span("Value"),)),
        rows=(
            ((span("a"),), (span("1"),)),
            ((span("long"),), (span(" ".join(["wrapped"] * 10)),)),
        ),
        aligns=(None, "right"),
    )
    out = [line for line in lines(table, width=40) if line]
    assert out[0].startswith("┌") and out[0].endswith("┐")
    assert out[2].startswith("╞") and out[-1].startswith("└")
    assert all(len(line) <= 40 for line in out)
    assert sum("wrapped" in line for line in out) > 1  # the long cell wrapped
    assert "├" in "".join(out)  # row separators once a row wraps
    row_a = next(line for line in out if "│ a" in line)
    assert row_a.rstrip().endswith("1 │")  # right-aligned
    assert len({len(line) for line in out}) == 1  # a rectangle


def test_details_collapsed_by_default_and_expanded_by_state() -> None:
    block = m.Details((span("More"),), (para("hidden body"),))
    out = lines(block)
    assert out[0] == "▸ More" and "hidden body" not in "\n".join(out)
    out = lines(block, state=LayoutState(toggled={(0,)}))
    assert out[0] == "▾ More" and any("hidden body" in line for line in out)


def test_code_block_title_bar_line_numbers_and_folding() -> None:
    code = m.CodeBlock("a = 1\nb = 2\n" + "x" * 60, "python", "demo.py", line_numbers=True)
    out = lines(code, width=40)
    assert out[0].strip().startswith("demo.py") and out[0].rstrip().endswith("python")
    assert out[1].startswith("1 │") and out[2].startswith("2 │") and out[3].startswith("3 │")
    assert out[4].startswith("  ┆")  # the folded part of line 3
    layout = DocumentLayout(doc(code), 40)
    colours = {segment.style.color for segment in layout.get(0).segments[1] if segment.style}
    assert len(colours) > 2  # highlighted


def test_lists_tasks_quotes_rules() -> None:
    block = m.ListBlock(
        True,
        9,
        (
            m.ListItem((para("nine"),)),
            m.ListItem((para("ten"), m.ListBlock(False, 1, (m.ListItem((para("inner"),)),)))),
        ),
    )
    out = lines(block)
    assert out[:3] == [" 9. nine", "10. ten", "    ◦ inner"]  # nested lists change bullet
    tasks = m.ListBlock(
        False, 1, (m.ListItem((para("done"),), True), m.ListItem((para("todo"),), False))
    )
    assert lines(tasks)[:2] == ["☑ done", "☐ todo"]
    assert lines(m.Quote((para("quoted"),)))[0] == "▎ quoted"
    assert lines(m.Rule(), width=10)[0] == "─" * 10


def test_unknown_tag_shows_content_in_a_box_with_its_attributes() -> None:
    out = lines(m.UnknownBlock("custom-widget", {"a": "b"}, (para("inner text"),)))
    assert [line.strip("│╭╮╰╯─ ") for line in out[:6]] == [
        "",
        "‹custom-widget›",
        "a: b",
        "",
        "inner text",
        "",
    ]


def test_placeholders_for_figures_images_files_and_cards() -> None:
    files = {"shot.png": FileInfo(size=2048, width=1280, height=720)}
    out = "\n".join(
        lines(
            m.Figure("../assets/shot.png", "alt text", (span("A caption"),)),
            m.Image("pic.svg", "diagram"),
            m.FileBlock("sheet.csv", (span("Worksheet"),)),
            m.EmbedCard("https://video.example/watch", (span("Watch me"),)),
            m.ContentRef("../other.md", "Other page"),
            m.Include("../includes/footer.md"),
            m.OpenAPICard("https://api/spec.yaml", "/streams", "get", ()),
            m.Updates((m.Update("2026-01-02", (para("Release notes"),)),)),
            m.Footnotes((("1", (para("a note"),)),)),
            width=60,
            files=files,
        )
    )
    assert "🖼 shot.png — A caption" in out and "1280×720 · 2.0 KB" in out and "alt: alt text" in out
    assert "🖼 pic.svg — diagram" in out
    assert "📄 sheet.csv — Worksheet" in out
    assert "▶ Embed · video.example" in out and "Watch me" in out
    assert "→ Other page" in out
    assert "⤷ Included from ../includes/footer.md" in out
    assert "GET" in out and "/streams" in out
    assert "● 2026-01-02" in out and "│ Release notes" in out
    assert "[1] a note" in out


def test_link_targets_are_recorded_with_positions() -> None:
    layout = DocumentLayout(doc(para("see ", span("the docs", href="https://x.dev"), " now")), 40)
    (placed,) = layout.get(0).targets
    assert placed.target.href == "https://x.dev" and placed.target.external
    assert placed.regions == ((0, 4, 12),)


def test_classify_href() -> None:
    assert classify_href("https://a.b") == (True, True)
    assert classify_href("HTTP://a.b") == (True, True)
    assert classify_href("../page.md#x") == (False, True)
    assert classify_href("#anchor") == (False, True)
    for unsafe in (
        "javascript:alert(1)",
        " JavaScript:x",
        "file:///etc/passwd",
        "data:text/html,x",
        "//evil.com",
    ):
        assert classify_href(unsafe) == (False, False)


def test_estimates_are_replaced_by_exact_heights() -> None:
    layout = DocumentLayout(large_document(), 80)
    assert not layout.is_exact(0)
    top = layout.ensure(0, 24)
    assert top == 0 and all(layout.is_exact(i) for i in range(layout.block_at(47) + 1))
    assert not layout.is_exact(len(layout) - 100)


def test_scrolling_up_through_estimated_blocks_keeps_the_screen_steady() -> None:
    layout = DocumentLayout(large_document(), 80)
    view = Viewport(layout, 24)
    view.go(layout.start(len(layout) // 2))
    for _ in range(60):
        before = view.visible_text()
        view.go(view.top - 1)
        assert view.visible_text()[1:] == before[:-1]


def test_find_results_counter() -> None:
    results = FindResults("x")
    assert results.status == "0/0+"
    results.add([Match(0, 0, 0, 1), Match(0, 2, 0, 1), Match(3, 0, 4, 5)])
    results.done = True
    assert results.pick_first(lambda match: match.block * 10 + match.line, 1)
    assert results.status == "2/3"
    assert results.step(1) == Match(3, 0, 4, 5) and results.status == "3/3"
    assert results.step(1) == Match(0, 0, 0, 1) and results.status == "1/3"
    assert results.step(-1) == Match(3, 0, 4, 5)
    assert list(results.on_line(3, 0)) == [(4, 5, True)]
    empty = FindResults("y")
    empty.done = True
    assert empty.status == "no matches"


# -- the widget -------------------------------------------------------------------------


class ViewerApp(App[None]):
    CSS_PATH = None

    def __init__(self) -> None:
        super().__init__()
        self.links: list[PageViewer.LinkActivated] = []

    def compose(self) -> ComposeResult:
        yield PageViewer()

    def on_page_viewer_link_activated(self, message: PageViewer.LinkActivated) -> None:
        self.links.append(message)


async def open_viewer(pilot: Pilot[None], document: m.Document) -> PageViewer:
    viewer = pilot.app.query_one(PageViewer)
    viewer.focus()
    viewer.show(document)
    await pilot.pause()
    return viewer


async def test_scrolling_keys_and_bottom() -> None:
    app = ViewerApp()
    async with app.run_test(size=(80, 24)) as pilot:
        viewer = await open_viewer(pilot, every_block())
        assert viewer.has_painted and viewer.scroll_y == 0
        assert viewer.visible_text()[0] == "Every block, once"
        await pilot.press("j", "j", "down")
        assert viewer.scroll_y == 3
        await pilot.press("k")
        assert viewer.scroll_y == 2
        await pilot.press("space")
        assert viewer.scroll_y == 2 + 24
        await pilot.press("pageup")
        assert viewer.scroll_y == 2
        await pilot.press("G")
        await pilot.pause()
        layout = viewer.document_layout
        assert layout is not None
        assert viewer.scroll_y == viewer.max_scroll_y == layout.total_height - 24
        assert "acks" in "\n".join(viewer.visible_text())
        await pilot.press("g")
        assert viewer.scroll_y == 0
        await pilot.press("end")
        assert viewer.scroll_y == viewer.max_scroll_y
        await pilot.press("home")
        assert viewer.scroll_y == 0


async def test_tab_cycles_links_and_enter_posts_link_activated() -> None:
    app = ViewerApp()
    async with app.run_test(size=(80, 24)) as pilot:
        viewer = await open_viewer(pilot, every_block())
        await pilot.press("tab")
        focused = viewer.focused_target
        assert focused is not None and focused.target.href == "../concepts/streams.md"
        await pilot.press("enter")
        await pilot.pause()
        assert [(msg.href, msg.external, msg.safe) for msg in app.links] == [
            ("../concepts/streams.md", False, True)
        ]
        await pilot.press("tab", "enter")
        await pilot.pause()
        assert (app.links[-1].href, app.links[-1].external) == (
            "https://github.com/lanternfish-labs/tidewater",
            True,
        )
        await pilot.press("shift+tab")
        focused = viewer.focused_target
        assert focused is not None and focused.target.href == "../concepts/streams.md"
        # Cycling far enough scrolls the focused item into view.
        for _ in range(4):
            await pilot.press("tab")
        focused = viewer.focused_target
        assert focused is not None and focused.target.kind == "tab"
        layout = viewer.document_layout
        view = viewer.viewport
        assert layout is not None and view is not None and view.focus is not None
        line = layout.start(view.focus[0]) + focused.line
        assert viewer.scroll_y <= line < viewer.scroll_y + 24


async def test_enter_switches_tabs_and_toggles_details_and_brackets() -> None:
    app = ViewerApp()
    async with app.run_test(size=(80, 24)) as pilot:
        viewer = await open_viewer(
            pilot, doc(para("top"), tabs_block(), m.Details((span("More"),), (para("secret"),)))
        )
        await pilot.press("tab")  # "Python" title
        await pilot.press("tab", "enter")  # "Go" title
        assert "go body" in viewer.visible_text()
        await pilot.press("left_square_bracket")
        assert "python body" in viewer.visible_text()
        await pilot.press("right_square_bracket")
        assert "go body" in viewer.visible_text()
        await pilot.press("tab")
        focused = viewer.focused_target
        assert focused is not None and focused.target.kind == "details"
        await pilot.press("enter")
        assert any("secret" in line for line in viewer.visible_text())
        assert "▾ More" in viewer.visible_text()
        await pilot.press("enter")
        assert not any("secret" in line for line in viewer.visible_text())


async def test_brackets_switch_the_tabs_block_on_screen_without_focus() -> None:
    app = ViewerApp()
    async with app.run_test(size=(80, 24)) as pilot:
        viewer = await open_viewer(pilot, doc(para("top"), tabs_block()))
        await pilot.press("right_square_bracket")
        assert "go body" in viewer.visible_text()
        await pilot.press("right_square_bracket")  # wraps around
        assert "python body" in viewer.visible_text()


async def test_find_highlights_and_moves_between_matches() -> None:
    app = ViewerApp()
    async with app.run_test(size=(80, 24)) as pilot:
        viewer = await open_viewer(pilot, every_block())
        await pilot.press("slash")
        await pilot.pause()
        bar = app.query_one(FindBar)
        assert bar.display and app.focused is bar.input
        await pilot.press(*"TIDEWATER", "enter")
        await pilot.pause()
        assert app.focused is viewer
        total = len(viewer.find_results.matches)
        assert total > 5
        assert bar.status == viewer.find_status == f"1/{total}"
        layout = viewer.document_layout
        assert layout is not None

        def current_line() -> int:
            match = viewer.find_results.current_match
            assert layout is not None and match is not None
            return layout.start(match.block) + match.line

        assert viewer.scroll_y <= current_line() < viewer.scroll_y + 24
        await pilot.press("N")  # wraps to the last match
        await pilot.pause()
        assert bar.status == f"{total}/{total}"
        assert viewer.scroll_y <= current_line() < viewer.scroll_y + 24
        assert viewer.scroll_y > 0
        await pilot.press("n")  # and back to the first
        await pilot.pause()
        assert bar.status == f"1/{total}"
        await pilot.press("n", "n")
        assert bar.status == f"3/{total}"
        assert viewer.scroll_y <= current_line() < viewer.scroll_y + 24
        # Matches are drawn with the match styles.
        strip = viewer.render_line(current_line() - int(viewer.scroll_y))
        assert any(
            segment.style and segment.style.bgcolor
            for segment in strip
            if "ide" in segment.text.lower()
        )
        await pilot.press("escape")
        await pilot.pause()
        assert not bar.display and viewer.find_status == ""


async def test_find_reports_no_matches() -> None:
    app = ViewerApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_viewer(pilot, every_block())
        await pilot.press("slash")
        await pilot.pause()
        await pilot.press(*"zzzqqq", "enter")
        await pilot.pause()
        assert app.query_one(FindBar).status == "no matches"


async def test_resize_rewraps() -> None:
    app = ViewerApp()
    async with app.run_test(size=(80, 24)) as pilot:
        viewer = await open_viewer(pilot, every_block())
        layout = viewer.document_layout
        assert layout is not None
        narrow_height = layout.total_height
        await resize(pilot, 120, 30)
        assert layout.width == 117
        assert layout.total_height < narrow_height
        assert max(len(line) for line in viewer.visible_text()) > 80
        await resize(pilot, 50, 20)
        assert layout.width == 47
        assert all(len(line) <= 47 for line in viewer.visible_text())


async def test_scroll_to_anchor_and_headings() -> None:
    app = ViewerApp()
    async with app.run_test(size=(80, 24)) as pilot:
        viewer = await open_viewer(pilot, every_block())
        headings = viewer.headings()
        assert (2, "Table", "table") in headings
        assert viewer.scroll_to_anchor("table")
        assert viewer.visible_text()[0] == "Table"
        assert viewer.scroll_to_anchor("start-a-node")  # a heading inside a stepper
        assert "2 ▸ Start a node" in viewer.visible_text()[0]
        assert not viewer.scroll_to_anchor("no-such-heading")


async def test_show_with_anchor_then_a_newer_document() -> None:
    app = ViewerApp()
    async with app.run_test(size=(80, 24)) as pilot:
        viewer = app.query_one(PageViewer)
        viewer.show(every_block(), anchor="columns")
        await pilot.pause()
        assert viewer.visible_text()[0] == "Columns"
        viewer.show(parse_page("# Fresh\n\nparsed \x1b[31min a thread"))
        await pilot.pause()
        assert viewer.visible_text()[:4] == ["Fresh", "━━━━━", "", "parsed in a thread"]


async def test_a_parse_failure_is_shown_not_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(markdown: str) -> m.Document:
        raise ValueError("parser bug \x1b]52;c;Zm9v\x07[@click=app.quit]")

    monkeypatch.setattr("gitbook_tui.markdown.parse", broken)  # (page_loader imports it when used)
    app = ViewerApp()
    async with app.run_test(size=(80, 24)) as pilot:
        viewer = app.query_one(PageViewer)
        viewer.show(parse_page("# anything"))
        await pilot.pause()
        shown = "\n".join(viewer.visible_text())
        assert "could not be displayed" in shown and "[@click=app.quit]" in shown
        assert "\x1b" not in shown and app.is_running


HOSTILE = [
    "[@click=app.quit]",
    "[bold red]x[/]",
    "\x1b[31m",
    "\x1b]8;;http://evil\x07",
    "\x1b]52;c;Zm9v\x07",
    "\u202e",
]


def hostile_document() -> m.Document:
    text = "before " + " ".join(HOSTILE) + " after"
    return doc(
        m.Heading(1, (span("[@click=app.quit] \x1b[31mtitle"),), "t"),
        para(text, span("[@click=app.quit] link", href="javascript:alert('[@click=app.quit]')")),
        para(
            span("file", href="file:///etc/passwd"),
            " ",
            span("web", href="https://ok.example/\x1b]52;c;Zm9v\x07"),
        ),
        m.CodeBlock(
            "print('[@click=app.quit]')\x1b]52;c;Zm9v\x07\u202e", "python", "[b]t[/b]\x1b[2J"
        ),
        m.Hint("danger", (para(text),)),
        m.Details((span("[@click=app.quit]"),), (para(text),)),
        m.Tabs((m.Tab("[@click=app.quit]", (para(text),)), m.Tab("\x1b[31mred", (para("x"),)))),
        m.Table(((span("[@click=app.quit]"),),), (((span(text),),),), (None,)),
        m.Figure("[@click=app.quit].png\x1b[31m", "\u202ealt", (span("[bold]cap"),)),
        m.EmbedCard("javascript:[@click=app.quit]", (span(text),)),
        m.ContentRef("\x1b]8;;x\x07ref.md", "[@click=app.quit]"),
        m.UnknownBlock("[@click=app.quit]", {}, (para(text),)),
        m.HtmlBlock(text),
        parse("Parsed: " + " ".join(HOSTILE) + "\n\n```\n" + "\n".join(HOSTILE) + "\n```\n").blocks[
            0
        ],
    )


def test_hostile_text_renders_literally_in_layout() -> None:
    layout = DocumentLayout(hostile_document(), 60, state=LayoutState(toggled={(5,)}))
    text = "\n".join(line for _b, _l, line in layout.lines())
    assert text.count("[@click=app.quit]") >= 8
    assert "[bold red]x[/]" in text
    for index in range(len(layout)):
        for segments in layout.get(index).segments:
            for segment in segments:
                assert not any(ch in segment.text for ch in "\x1b\x07\x9b\x9d\u202e")
                assert segment.style is None or not segment.style.meta


async def test_hostile_text_is_inert_in_the_app() -> None:
    app = ViewerApp()
    async with app.run_test(size=(80, 24)) as pilot:
        viewer = await open_viewer(pilot, hostile_document())
        shown = "\n".join(viewer.visible_text())
        assert "[@click=app.quit]" in shown and "[bold red]x[/]" in shown
        view = viewer.viewport
        assert view is not None
        seen = set()
        for _ in range(40):
            await pilot.press("tab")
            if view.focus in seen:
                break
            seen.add(view.focus)
            await pilot.press("enter")
            await pilot.pause()
            assert app.is_running
        assert len(seen) >= 6
        await pilot.press("G", "g")
        assert app.is_running
        by_href = {message.href: message for message in app.links}
        unsafe = by_href["javascript:alert('[@click=app.quit]')"]
        assert (unsafe.external, unsafe.safe) == (False, False)
        assert (by_href["file:///etc/passwd"].external, by_href["file:///etc/passwd"].safe) == (
            False,
            False,
        )
        assert by_href["https://ok.example/"].external
        assert all("\x1b" not in message.href for message in app.links)


async def test_large_page_opens_and_bottom_works() -> None:
    app = ViewerApp()
    async with app.run_test(size=(100, 30)) as pilot:
        viewer = await open_viewer(pilot, large_document())
        assert viewer.has_painted
        assert viewer.visible_text()[0] == "Tidewater configuration and metrics reference"
        await pilot.press("G")
        await pilot.pause()
        layout = viewer.document_layout
        assert layout is not None
        assert viewer.scroll_y == viewer.max_scroll_y == layout.total_height - 30
        last_block = len(layout) - 1
        assert layout.is_exact(last_block)
        assert viewer.visible_text()[-2:] == [*layout.text(last_block)][-2:]
        await pilot.press("k", "pageup", "g")
        assert viewer.scroll_y == 0
        await pilot.press("slash")
        await pilot.pause()
        await pilot.press(*"segment_bytes", "enter")
        await until(pilot, lambda: viewer.find_results.done)
        assert viewer.find_results.done and len(viewer.find_results.matches) > 1
