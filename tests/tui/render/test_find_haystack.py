"""Find's pre-check (render/haystack.py) never rules out a block that draws the query."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import gitbook_tui
from gitbook_tui.markdown import parse
from gitbook_tui.tui.render import DocumentLayout, FindResults
from gitbook_tui.tui.render.find import block_resolver, iter_matches
from gitbook_tui.tui.render.haystack import query_words

ROOT = Path(__file__).resolve().parents[3]
PAGES = sorted(
    [
        *(Path(gitbook_tui.__file__).parent / "server/demo/spaces").rglob("*.md"),
        *(ROOT / "tests/fixtures").rglob("*.md"),
    ]
)
WORD_RE = re.compile(r"[!-~]+")


def _find_all(layout: DocumentLayout, query: str) -> list[object]:
    results = FindResults(query, block_resolver(layout, query))
    for found in iter_matches(layout, query):
        assert found is not None
        results.add(found)
    return list(results.placed())


def _title(href: str) -> str | None:
    return f"Page titled {href.rsplit('/', 1)[-1]}" if href.endswith(".md") else None


@pytest.mark.parametrize("width", [38, 118])
def test_every_drawn_word_passes_the_pre_check(width: int) -> None:
    checked = 0
    for page in PAGES:
        document = parse(page.read_text(encoding="utf-8"))
        layout = DocumentLayout(document, width, titles=_title)
        for index in range(len(layout)):
            text = layout.search_text(index).text
            for word in set(WORD_RE.findall(text)):
                words = query_words(word)
                assert words is not None
                assert layout.may_contain(index, words), (page.name, index, word)
                checked += 1
    assert checked > 10_000


def test_pre_checked_find_equals_a_search_of_every_block() -> None:
    document = parse((ROOT / "tests/fixtures/gitbook-export/guides/writing-pages.md").read_text())
    for query in ("the", "Step", "1.", "Details", "page", "x", "[", "Tab 1"):
        layout = DocumentLayout(document, 80, titles=_title)
        found = _find_all(layout, query)
        layout = DocumentLayout(document, 80, titles=_title)
        layout.may_contain = lambda index, words: True  # type: ignore[method-assign]
        every = _find_all(layout, query)
        assert found == every, query


def test_queries_the_pre_check_cannot_judge() -> None:
    assert query_words("Retention Policy") == ["retention", "policy"]
    assert query_words("   ") is None
    assert query_words("café") is None  # case folding beyond ASCII: search every block
    assert query_words("• item") is None  # a glyph the renderers draw
