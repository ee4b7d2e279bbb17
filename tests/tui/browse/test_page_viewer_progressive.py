"""PageViewer on a page still being parsed: the rest arrives, G/find/anchors/outline follow."""

from __future__ import annotations

import asyncio

from textual.app import App, ComposeResult
from textual.pilot import Pilot

from gitbook_tui.markdown import Document, parse
from gitbook_tui.markdown.progressive import ProgressiveParse
from gitbook_tui.tui.browse.page_loader import PageRest, parse_progressively
from gitbook_tui.tui.browse.page_viewer import PageViewer
from support.waits import settle, until

SECTIONS = 120
PAGE = (
    "".join(
        f"## Section {k}\n\nParagraph {k} holds the word beacon and some filler text to wrap "
        f"over a line or two at eighty columns, so the page is long.\n\n"
        for k in range(SECTIONS)
    )
    + "The very last line.\n"
)


class ViewerApp(App[None]):
    CSS_PATH = None

    def compose(self) -> ComposeResult:
        yield PageViewer()


class GatedParse:
    """The page's parse, one step each time the test opens the gate."""

    def __init__(self, text: str = PAGE, first_step: int = 600) -> None:
        self.progress = ProgressiveParse(text, first_step=first_step)
        self.first = self.progress.step()
        self.gate = asyncio.Event()
        self.opened = False

    async def rest(self) -> PageRest:
        while not self.progress.done:
            if not self.opened:
                await self.gate.wait()
                self.gate.clear()
            yield self.progress.step(), self.progress.parsed_share

    def finish(self) -> None:
        """Let every remaining step through."""
        self.opened = True
        self.gate.set()


async def _show(pilot: Pilot[None], parse_: GatedParse, anchor: str | None = None) -> PageViewer:
    viewer = pilot.app.query_one(PageViewer)
    viewer.focus()
    viewer.show(parse_.first, rest=parse_.rest(), share=parse_.progress.parsed_share, anchor=anchor)
    await until(pilot, lambda: viewer.has_painted)
    return viewer


async def test_first_part_shows_with_an_estimated_scrollbar_then_the_rest_is_added() -> None:
    gated = GatedParse()
    assert 0 < len(gated.first.blocks) < SECTIONS
    async with ViewerApp().run_test(size=(80, 24)) as pilot:
        viewer = await _show(pilot, gated)
        layout = viewer.document_layout
        assert layout is not None and not viewer.complete
        assert layout.total_height > layout.content_height  # room for what is to come
        assert viewer.visible_text()[0] == "Section 0"
        gated.finish()
        await until(pilot, lambda: viewer.complete)
        layout = viewer.document_layout
        assert layout is not None and layout.total_height == layout.content_height
        assert viewer.document == parse(PAGE)
        assert viewer.visible_text()[0] == "Section 0"  # the reader stayed put
        assert [title for _level, title, _anchor in viewer.headings()] == [
            f"Section {k}" for k in range(SECTIONS)
        ]


async def test_bottom_pressed_while_parsing_follows_to_the_real_end() -> None:
    gated = GatedParse()
    async with ViewerApp().run_test(size=(80, 24)) as pilot:
        viewer = await _show(pilot, gated)
        await pilot.press("G")
        partial_end = viewer.scroll_y
        assert partial_end > 0
        gated.finish()
        await until(pilot, lambda: viewer.complete)
        await pilot.pause()
        assert viewer.scroll_y == viewer.max_scroll_y > partial_end
        assert "The very last line." in viewer.visible_text()


async def test_scrolling_after_bottom_stops_following_the_end() -> None:
    gated = GatedParse()
    async with ViewerApp().run_test(size=(80, 24)) as pilot:
        viewer = await _show(pilot, gated)
        await pilot.press("G", "g")
        gated.finish()
        await until(pilot, lambda: viewer.complete)
        assert viewer.scroll_y == 0


async def test_find_while_parsing_waits_for_the_rest_and_counts_every_match() -> None:
    gated = GatedParse()
    async with ViewerApp().run_test(size=(80, 24)) as pilot:
        viewer = await _show(pilot, gated)
        viewer.find("beacon")
        await until(pilot, lambda: viewer.find_results.waiting)
        assert not viewer.find_results.done
        assert viewer.find_status.endswith("+")
        gated.finish()
        await until(pilot, lambda: viewer.find_results.done)
        assert len(viewer.find_results.matches) == SECTIONS
        assert viewer.find_status == f"1/{SECTIONS}"


async def test_anchor_in_the_part_still_being_parsed_is_reached_when_it_arrives() -> None:
    gated = GatedParse()
    assert not any(anchor == "section-100" for _l, _t, anchor in gated.first.headings)
    async with ViewerApp().run_test(size=(80, 24)) as pilot:
        viewer = await _show(pilot, gated, anchor="section-100")
        assert viewer.scroll_y == 0
        gated.finish()
        await until(pilot, lambda: viewer.complete)
        await pilot.pause()
        assert viewer.visible_text()[0] == "Section 100"


async def test_a_new_page_stops_the_old_parse() -> None:
    gated = GatedParse()
    async with ViewerApp().run_test(size=(80, 24)) as pilot:
        viewer = await _show(pilot, gated)
        other = Document(parse("# Other page\n").blocks)
        viewer.show(other)
        gated.finish()
        await settle(pilot)
        assert viewer.document is other and viewer.complete


async def test_parse_progressively_ends_with_the_whole_parse() -> None:
    text = PAGE * 20
    document, share, rest = await parse_progressively(text)
    assert rest is not None and 0 < share < 1
    async for step in rest:
        document, share = step
    assert share == 1.0 and document == parse(text)
    _small, share, rest = await parse_progressively("# Small\n")
    assert rest is None and share == 1.0
