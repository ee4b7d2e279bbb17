"""ProgressiveParse: every step a prefix of the next, the last one equal to a whole parse."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

import gitbook_tui
from gitbook_tui.markdown import Document, clean_text, parse
from gitbook_tui.markdown.progressive import ProgressiveParse
from gitbook_tui.server.demo.generated import large_reference_page

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted(
    [
        *(Path(gitbook_tui.__file__).parent / "server/demo/spaces").rglob("*.md"),
        *(ROOT / "tests/fixtures").rglob("*.md"),
    ]
)


def _steps(text: str, first_step: int) -> list[Document]:
    progress = ProgressiveParse(text, first_step=first_step)
    documents = [progress.step()]
    while not progress.done:
        documents.append(progress.step())
    return documents


def _assert_progressive(text: str, first_step: int) -> list[Document]:
    documents = _steps(text, first_step)
    whole = parse(text)
    final = documents[-1]
    assert final == whole
    assert final.front_matter == whole.front_matter
    for before, after in itertools.pairwise(documents):
        # Each step only appends: the blocks already shown stay the same objects.
        assert len(before.blocks) <= len(after.blocks)
        assert all(a is b for a, b in zip(before.blocks, after.blocks, strict=False))
    return documents


@pytest.mark.slow
def test_demo_pages_parse_progressively_to_the_whole_parse() -> None:
    assert len(PAGES) > 50
    for page in PAGES:
        text = clean_text(page.read_text(encoding="utf-8"))
        for first_step in (50, 400, 3000):
            _assert_progressive(text, first_step)


@pytest.mark.slow
def test_large_page_first_step_is_small_and_the_rest_follows() -> None:
    text = clean_text(large_reference_page())
    documents = _assert_progressive(text, 12_000)
    assert 3 <= len(documents) <= 12
    first = documents[0]
    assert 0 < len(first.blocks) < len(documents[-1].blocks) // 20
    assert first.headings == documents[-1].headings[: len(first.headings)]


CASES = {
    "reference defined at the end": "[link][ref] early\n\n" + "para\n\n" * 400 + "[ref]: /x\n",
    "footnote defined at the end": "text[^1]\n\n" + "para\n\n" * 400 + "[^1]: note\n",
    "orphan tabs across steps": "{% tab title='A' %}\na\n{% endtab %}\n\n" * 200,
    "unclosed container": "intro\n\n{% hint style='info' %}\n" + "para\n\n" * 400,
    "fence with blank lines": "```\n" + "code\n\n" * 400 + "```\n\nafter\n",
    "loose list": "- item\n\n" * 400 + "text\n",
    "html block with blank lines": "<pre>\n" + "x\n\n" * 400 + "</pre>\n\nend\n",
    "math block": "$$\n" + "x\n\n" * 300 + "$$\n\nend\n",
    "duplicate headings": "# Same\n\ntext\n\n" * 300,
    "front matter": "---\ndescription: >-\n  long\n  text\n---\n\n" + "# H\n\npara\n\n" * 200,
}


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("first_step", [1, 30, 500])
def test_tricky_pages_end_equal_to_the_whole_parse(name: str, first_step: int) -> None:
    documents = _steps(CASES[name], first_step)
    assert documents[-1] == parse(CASES[name])


def test_definition_used_before_it_is_defined_resolves() -> None:
    text = "[link][ref]\n\n" + "para\n\n" * 2000 + "[ref]: https://example.com\n"
    documents = _steps(text, 100)
    assert documents[-1].links == (("link", "https://example.com"),)
