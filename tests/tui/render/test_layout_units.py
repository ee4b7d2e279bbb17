"""A huge container laid out part by part draws exactly what it draws laid out whole."""

from __future__ import annotations

from pathlib import Path

import pytest

import gitbook_tui
from gitbook_tui.markdown import parse
from gitbook_tui.server.demo.generated import large_changelog_page
from gitbook_tui.tui.render import DocumentLayout, LayoutState
from gitbook_tui.tui.render import units as units_module
from gitbook_tui.tui.render.viewport import Viewport

ROOT = Path(__file__).resolve().parents[3]
PAGES = sorted(
    [
        *(Path(gitbook_tui.__file__).parent / "server/demo/spaces").rglob("*.md"),
        *(ROOT / "tests/fixtures").rglob("*.md"),
    ]
)
UPDATE_PAGES = {page: page.read_text(encoding="utf-8") for page in PAGES}
UPDATE_PAGES = {page: text for page, text in UPDATE_PAGES.items() if "{% updates" in text}


def _drawn(layout: DocumentLayout) -> tuple[list[str], list[tuple[object, ...]], dict[str, int]]:
    lines: list[str] = []
    targets: list[tuple[object, ...]] = []
    for index in range(len(layout)):
        block = layout.get(index)
        start = len(lines)
        lines.extend(block.plain)
        for placed in block.targets:
            target = placed.target
            regions = tuple((start + y, x0, x1) for y, x0, x1 in placed.regions)
            targets.append((target.kind, target.label, target.path, target.href, regions))
    anchors = {}
    for _level, _title, anchor in layout.document.headings:
        line = layout.anchor_line(anchor)
        if line is not None:
            anchors[anchor] = line
    return lines, targets, anchors


@pytest.mark.parametrize("width", [40, 118])
def test_parts_draw_what_the_whole_block_draws(width: int, monkeypatch: pytest.MonkeyPatch) -> None:
    texts = [*UPDATE_PAGES.values(), large_changelog_page(6)]
    assert len(texts) >= 4
    for text in texts:
        document = parse(text)
        for opened in (False, True):
            state_whole, state_parts = LayoutState(), LayoutState()
            monkeypatch.setattr(units_module, "SPLIT_CHILDREN", 10**9)
            whole = DocumentLayout(document, width, state=state_whole)
            monkeypatch.setattr(units_module, "SPLIT_CHILDREN", 0)
            parts = DocumentLayout(document, width, state=state_parts)
            if opened:  # open every details of both
                for layout, state in ((whole, state_whole), (parts, state_parts)):
                    for index in range(len(layout)):
                        for placed in layout.get(index).targets:
                            if placed.target.kind == "details":
                                state.toggle(placed.target.path)
                        layout.invalidate(index)
            assert len(parts) > len(whole)
            assert _drawn(parts) == _drawn(whole)


def test_a_huge_changelog_lays_out_only_its_first_screen() -> None:
    document = parse(large_changelog_page(68))
    assert len(document.blocks) == 2  # a heading and one updates block
    layout = DocumentLayout(document, 118)
    assert len(layout) > 60
    view = Viewport(layout, 38)
    view.go(0)
    laid_out = sum(layout.peek(index) is not None for index in range(len(layout)))
    assert laid_out < 10
    view.go_bottom()
    assert view.visible_text()[-2].startswith("│")
