"""Find in page over soft wraps: counts independent of the width, split matches highlighted."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
from rich.cells import cell_len
from textual.app import App, ComposeResult

import gitbook_tui
from gitbook_tui.markdown import model as m
from gitbook_tui.markdown import parse
from gitbook_tui.tui.browse.page_viewer import PageViewer
from gitbook_tui.tui.render import DocumentLayout, FindResults, Match, iter_matches
from gitbook_tui.tui.render.find import block_resolver
from support.waits import resize, until

SPACES = Path(gitbook_tui.__file__).parent / "server/demo/spaces"
WIDTHS = (40, 80, 200)


def span(text: str, *styles: str) -> m.Span:
    return m.Span(text, frozenset(styles), None)


def para(*texts: str) -> m.Paragraph:
    return m.Paragraph(tuple(span(text) for text in texts))


def doc(*blocks: m.Block) -> m.Document:
    return m.Document(tuple(blocks))


@cache
def demo_pages() -> m.Document:
    """Every page of the demo spaces in one document: real prose, lists, tables, code."""
    blocks: list[m.Block] = []
    for page in sorted(SPACES.rglob("*.md")):
        if page.name != "SUMMARY.md":
            blocks.extend(parse(page.read_text(encoding="utf-8")).blocks)
    return m.Document(tuple(blocks))


def find_all(layout: DocumentLayout, query: str) -> list[Match]:
    results = FindResults(query, block_resolver(layout, query))
    for found in iter_matches(layout, query):
        assert found is not None
        results.add(found)
    return results.placed()


def cells(text: str, x0: int, x1: int) -> str:
    """The characters of ``text`` drawn in cell columns ``[x0, x1)``."""
    out, x = [], 0
    for char in text:
        if x0 <= x < x1:
            out.append(char)
        x += cell_len(char)
    return "".join(out)


def highlighted(layout: DocumentLayout, match: Match) -> list[str]:
    lines = layout.text(match.block)
    return [cells(lines[line], x0, x1) for line, x0, x1 in match.segments]


def assert_highlights_the_query(layout: DocumentLayout, query: str, matches: list[Match]) -> None:
    # Spaces a wrap cropped are drawn nowhere: compare without whitespace.
    squeeze = re.compile(r"\s+")
    for match in matches:
        shown = "".join(highlighted(layout, match))
        assert squeeze.sub("", shown).casefold() == squeeze.sub("", query).casefold(), match
        lines = [line for line, _x0, _x1 in match.segments]
        assert lines == sorted(set(lines))  # one segment per line, in reading order


# -- the search ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "query",
    ["consumer group", "the stream", "of the", "retention", "tide", "--", "a ", " — the", "→"],
)
def test_count_does_not_depend_on_the_width(query: str) -> None:
    counts, split = [], 0
    for width in WIDTHS:
        layout = DocumentLayout(demo_pages(), width)
        matches = find_all(layout, query)
        assert_highlights_the_query(layout, query, matches)
        counts.append(len(matches))
        split += sum(bool(match.rest) for match in matches)
    assert counts == [counts[0]] * len(WIDTHS)
    if " " in query.strip():
        assert counts[0] and split  # the demo does wrap these phrases somewhere


def test_a_match_split_by_a_wrap_has_a_segment_on_each_line() -> None:
    layout = DocumentLayout(doc(para("Rebalancing happens when the consumer group changes.")), 36)
    assert layout.text(0)[:2] == [
        "Rebalancing happens when the        ",
        "consumer group changes.             ",
    ]
    layout = DocumentLayout(doc(para("Rebalancing happens when a consumer group changes.")), 36)
    assert layout.text(0)[0].rstrip() == "Rebalancing happens when a consumer"
    (match,) = find_all(layout, "CONSUMER GROUP")
    assert match.segments == ((0, 27, 36), (1, 0, 5))  # the space at the wrap is highlighted
    assert highlighted(layout, match) == ["consumer ", "group"]
    # The line is exactly full: the wrap crops the space, and the match still joins.
    layout = DocumentLayout(doc(para("x" * 28 + " consumer group")), 37)
    (match,) = find_all(layout, "consumer group")
    assert match.segments == ((0, 29, 37), (1, 0, 5))


def test_hard_breaks_do_not_join() -> None:
    blocks = (
        para("the last word is consumer"),
        para("group is the first word"),
        m.ListBlock(
            False, 1, (m.ListItem((para("item consumer"),)), m.ListItem((para("group item"),)))
        ),
        m.CodeBlock("consumer\ngroup", None, None),
        para("hard break consumer\ngroup"),
    )
    for width in (12, 40):
        assert find_all(DocumentLayout(doc(*blocks), width), "consumer group") == []
        assert find_all(DocumentLayout(doc(*blocks), width), "consumergroup") == []


def test_folded_words_code_lines_and_table_cells_join() -> None:
    identifier = "consumer_group_" + "x" * 50 + "_offsets"
    blocks = (
        m.CodeBlock(f"value = {identifier}\nother = 1", "python", None),
        para(f"The {identifier} name."),
        m.Table(
            ((span("Key"),), (span("Meaning"),)),
            (((span("k"),), (span("the consumer group that owns the partition"),)),),
            (None, "right"),
        ),
    )
    for width in (30, 50, 200):
        layout = DocumentLayout(doc(*blocks), width)
        matches = find_all(layout, identifier)
        assert [match.block for match in matches] == [0, 1]
        assert_highlights_the_query(layout, identifier, matches)
        assert bool(matches[0].rest) == (width < 80)  # the code line folds when narrow
        cell = find_all(layout, "consumer group that owns")
        assert len(cell) == 1 and cell[0].block == 2
        assert_highlights_the_query(layout, "consumer group that owns", cell)


@pytest.mark.parametrize("width", [9, 13, 17, 24, 60])
def test_wide_characters_map_to_cell_columns(width: int) -> None:
    text = "日本語のテキストと消費者グループ 🙂 consumer 🙂 group 絵文字 🙂🙂 end"
    layout = DocumentLayout(doc(para(text), para("〔" + text + "〕")), width)
    for query, count in (
        ("消費者グループ", 2),
        ("テキストと消費", 2),
        ("🙂 consumer 🙂 group", 2),
        ("🙂🙂", 2),
        ("consumer 🙂 group 絵", 2),
    ):
        matches = find_all(layout, query)
        assert len(matches) == count, (query, width)
        assert_highlights_the_query(layout, query, matches)
        for match in matches:
            lines = layout.text(match.block)
            assert all(x1 <= cell_len(lines[line]) for line, _x0, x1 in match.segments)


def test_a_cropped_space_alone_still_counts() -> None:
    counts = []
    for width in (4, 20):
        layout = DocumentLayout(doc(para("aaaa bbbb")), width)
        matches = find_all(layout, " ")
        counts.append(len(matches))
        if width == 4:
            assert layout.text(0)[:2] == ["aaaa", "bbbb"]
            assert matches[0].segments == ((0, 4, 4),)  # nothing to draw, still a place
    assert counts == [1, 1]


def test_find_results_index_every_segment() -> None:
    results = FindResults("consumer group")
    results.add([Match(2, 3, 30, 37, ((4, 0, 5),)), Match(2, 6, 0, 14)])
    results.done = True
    assert results.step(1) == Match(2, 3, 30, 37, ((4, 0, 5),))
    assert list(results.on_line(2, 3)) == [(30, 37, True)]
    assert list(results.on_line(2, 4)) == [(0, 5, True)]
    assert list(results.on_line(2, 6)) == [(0, 14, False)]
    assert results.status == "1/2"


# -- the widget ---------------------------------------------------------------------------


class ViewerApp(App[None]):
    CSS_PATH = None

    def compose(self) -> ComposeResult:
        yield PageViewer()


async def test_split_match_is_highlighted_on_both_lines_and_counts_survive_resize() -> None:
    filler = [para(f"Filler paragraph number {n} about streams.") for n in range(40)]
    target = para("x" * 28 + " consumer group and more words after it")
    document = doc(*filler, target, *filler)
    app = ViewerApp()
    async with app.run_test(size=(40, 12)) as pilot:
        viewer = app.query_one(PageViewer)
        viewer.focus()
        viewer.show(document)
        await pilot.pause()
        layout = viewer.document_layout
        assert layout is not None and layout.width == 37
        viewer.find("Consumer Group")
        await pilot.pause()
        assert viewer.find_status == "1/1"
        match = viewer.find_results.current_match
        assert match is not None and match.block == 40 and match.rest
        first = layout.start(match.block) + match.line
        last = layout.start(match.block) + match.segments[-1][0]
        top = int(viewer.scroll_y)
        assert top <= first < last < top + 12  # both parts on screen

        current = viewer.get_component_rich_style("page-viewer--current-match", partial=True)
        assert current.bgcolor is not None

        def highlighted_text(y: int) -> str:
            strip = viewer.render_line(y - top)
            return "".join(
                segment.text
                for segment in strip
                if segment.style and segment.style.bgcolor == current.bgcolor
            )

        assert highlighted_text(first) == "consumer"
        assert highlighted_text(last) == "group"

        viewer.action_top()
        await pilot.press("n")  # n scrolls to the match's first line
        assert viewer.scroll_y <= first and last < viewer.scroll_y + 12

        await resize(pilot, 120, 12)
        assert layout.width == 117 and viewer.find_status == "1/1"
        match = viewer.find_results.current_match
        assert match is not None and not match.rest


def test_paragraph_matches_are_counted_first_and_placed_when_needed() -> None:
    """A paragraph's matches are counted without a layout; each paragraph is laid out
    (its matches placed) only when one of them is shown, stepped to or picked."""
    document = doc(
        *(para(f"Line {k}: the beacon and the beacon again, wrapped.") for k in range(50))
    )
    layout = DocumentLayout(document, 20)
    placed: list[int] = []
    resolve = block_resolver(layout, "beacon")

    def counting(block: int) -> list[Match]:
        placed.append(block)
        return resolve(block)

    results = FindResults("beacon", counting)
    for found in iter_matches(layout, "beacon"):
        assert found is not None
        results.add(found)
    results.done = True
    assert len(results.matches) == 100 and placed == []
    assert results.status == "0/100"
    line_of = lambda match: layout.start(match.block) + match.line  # noqa: E731
    assert results.pick_first(line_of, layout.start(30))
    assert placed == [30] and results.current == 60
    assert results.step(1) is not None and placed == [30]  # its second match: same block
    assert results.step(1) == results.matches[62] and placed == [30, 31]
    list(results.on_line(40, 0))  # drawing a line of a paragraph places its matches
    assert placed == [30, 31, 40]
    assert results.placed() == find_all(layout, "beacon")


async def test_the_current_match_stays_through_a_resize_and_a_theme_change() -> None:
    """``n`` to the second match of three on one screen, then the window resized and the
    theme changed: the page is laid out anew each time, and the reader stays on "2/3"."""
    document = doc(*(para(f"Stream number {n} holds events.") for n in range(3)))
    app = ViewerApp()
    async with app.run_test(size=(60, 12)) as pilot:
        viewer = app.query_one(PageViewer)
        viewer.focus()
        viewer.show(document)
        await until(pilot, lambda: viewer.document_layout is not None)
        viewer.find("stream")
        await until(pilot, lambda: viewer.find_status == "1/3")
        await pilot.press("n")
        await until(pilot, lambda: viewer.find_status == "2/3")

        await pilot.resize_terminal(90, 12)
        await until(pilot, lambda: viewer.document_layout.width > 60, "the wider layout")
        assert viewer.find_status == "2/3"

        before = viewer.document_layout
        app.theme = "textual-light" if app.theme != "textual-light" else "nord"
        await until(pilot, lambda: viewer.document_layout is not before, "the new theme's layout")
        await until(pilot, lambda: viewer.find_status != "", "the search again")
        assert viewer.find_status == "2/3"
