"""parse_pair: two revisions parsed together give exactly the blocks of two whole parses."""

from __future__ import annotations

import gc
import re

import pytest

from gitbook_tui.markdown import Document, clean_text, parse
from gitbook_tui.markdown.diff import flatten, parse_pair
from gitbook_tui.markdown.diff.chunks import chunked_pair, paused_gc
from gitbook_tui.server.demo.generated import large_reference_page
from support.diff_pages import PAGES, edit

_ANCHOR_RE = re.compile(r"anchor='[^']*'")


def same_blocks(mine: Document, whole: Document) -> bool:
    """Equal blocks; headings may differ in their anchor's number (``x`` for ``x-1``): a
    diff shows no anchors, and a block shared by both sides is converted once."""
    if mine.blocks == whole.blocks:
        return True
    return _ANCHOR_RE.sub("", repr(mine.blocks)) == _ANCHOR_RE.sub("", repr(whole.blocks))


def display(document: Document | None) -> list[tuple[object, ...]]:
    """Every field of every display block, context ones included."""
    return [(b.key, b.path, b.depth, b.section, b.top, b.part) for b in flatten(document)]


def assert_same(old: str, new: str) -> None:
    old_doc, new_doc = parse_pair(old, new)
    assert old_doc is not None and new_doc is not None
    old_whole, new_whole = parse(old), parse(new)
    assert old_doc.blocks == old_whole.blocks
    assert same_blocks(new_doc, new_whole)
    assert display(new_doc) == display(new_whole)


@pytest.mark.slow
def test_demo_pages_edited_parse_as_whole_parses() -> None:
    """Every demo page, edited three ways, diffs in chunks as it does parsed whole. Slow: >150 diffs
    of real pages, each compared with a whole parse."""
    assert len(PAGES) > 50
    for number, page in enumerate(PAGES):
        text = clean_text(page.read_text(encoding="utf-8"))
        for seed in range(3):
            count = 1 + (number + seed) % 6
            new = edit(text, seed * 1000 + number, count)
            assert_same(text, new)
            assert_same(new, text)


def test_unchanged_and_one_sided_pages() -> None:
    text = clean_text(PAGES[0].read_text(encoding="utf-8"))
    assert_same(text, text)
    assert_same("", text)
    assert_same(text, "")
    old, new = parse_pair(None, text)
    assert old is None and new is not None and new.blocks == parse(text).blocks
    old, new = parse_pair(text, None)
    assert new is None and old is not None and old.blocks == parse(text).blocks


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Para one.\n\nPara two.\n\nPara three.\n", "Para one.\n```\nPara two.\n\nPara three.\n"),
        ("a\n\n{% hint %}\nin\n{% endhint %}\n\nb\n", "a\n\n{% hint %}\nin\n\nb\n"),
        ("x\n\n- one\n\n- two\n\nend\n", "x\n\n- one\n\n- two\n- three\n\nend\n"),
        ("t\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\nz\n", "t\n\n| a | b |\n| - | - |\n\nz\n"),
        ("head\n\ntext\n===\n\nafter\n", "head\n\ntext\n---\n\nafter\n"),
        ("---\ntitle: x\n---\n\nbody\n", "body\n\n---\ntitle: x\n---\n\nbody\n"),
        # front matter closed further down than the look-ahead of its first line's chunk
        (
            "---\na: b\nc: d\ne: f\n{% tabs %}\n\n# H\n\nx\n",
            "---\na: b\nc: d\ne: f\n---\n\n# H\n\nx\n",
        ),
        ("one\n\ntwo [link][r]\n\n[r]: https://example.com\n", "one\n\ntwo [link][r]\n"),
        ("one\n\ntwo[^1]\n\n[^1]: note\n", "one!\n\ntwo[^1]\n\n[^1]: note\n"),
    ],
)
def test_edits_that_change_how_later_text_is_read(old: str, new: str) -> None:
    assert_same(old, new)
    assert_same(new, old)


@pytest.mark.slow
def test_large_page_with_scattered_edits() -> None:
    """40 edits scattered over the large reference page diff the same in chunks as whole. Slow: the
    page is parsed whole twice for the comparison."""
    text = large_reference_page()
    new = edit(text, 7, 40)
    assert_same(text, new)


def _in_collected_generations(marker: object, generations: tuple[int, ...]) -> bool:
    return any(id(marker) in {id(o) for o in gc.get_objects(generation=g)} for g in generations)


def test_what_is_made_while_the_gc_is_paused_skips_the_young_generations() -> None:
    """A large page's tokens and rows, made while the GC is paused, are not all walked by the
    first young collection after it (~100 ms holding the GIL: a stall of the UI thread while
    a worker diffs): they join the oldest generation, or the frozen objects where some are
    kept frozen (the app's idle collector; this test session's, see conftest)."""
    assert gc.isenabled()
    frozen = gc.get_freeze_count()
    with paused_gc("x" * 100_000):
        made = [[k] for k in range(5_000)]
        assert not gc.isenabled()
    assert gc.isenabled()
    marker = made[2_500]
    assert not _in_collected_generations(marker, (0, 1))
    if frozen:
        assert not _in_collected_generations(marker, (2,))  # frozen with the rest
    else:
        assert _in_collected_generations(marker, (2,))


@pytest.mark.parametrize("at", [0, 65_536, 131_000, -1])
def test_a_definition_anywhere_in_a_large_page_is_seen(at: int) -> None:
    """The page is searched for definitions a slice at a time (never long holding the GIL):
    one on any line, a slice's first or last included, still has the pair parsed whole."""
    text = large_reference_page()
    old = text[: text.index("\n\n", 200_000) + 2]
    cut = len(old) if at < 0 else old.index("\n", at) + 1 if at else 0
    definition = "[ref]: https://example.com/a-reference\n\n"
    new = old[:cut] + definition + old[cut:]
    assert chunked_pair(old, old) is not None
    assert chunked_pair(old, new) is None
    assert chunked_pair(new, old) is None
