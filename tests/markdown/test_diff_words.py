"""Word-level diff inside a changed pair: tokens, tags, whitespace cleanup, memoization."""

from __future__ import annotations

from itertools import pairwise

import pytest

from gitbook_tui.markdown.diff import WordSpan, WordTag, tokenize, word_diff


def tagged(spans: tuple[WordSpan, ...]) -> list[tuple[str, str]]:
    return [(span.tag.value, span.text) for span in spans]


def test_tokens_are_words_spaces_and_single_punctuation() -> None:
    assert tokenize("tide.toml, 4GiB!  ok") == [
        "tide",
        ".",
        "toml",
        ",",
        " ",
        "4GiB",
        "!",
        "  ",
        "ok",
    ]
    assert tokenize("") == []
    assert "".join(tokenize("über  straße — 東京\tx")) == "über  straße — 東京\tx"


def test_changed_number_in_a_sentence() -> None:
    diff = word_diff(
        "Partitions hold up to 10 GB each.", "Partitions hold up to 50 GB each, by default."
    )
    assert tagged(diff.old) == [
        ("equal", "Partitions hold up to "),
        ("delete", "10"),
        ("equal", " GB each."),
    ]
    assert [s.text for s in diff.old if s.tag is WordTag.DELETE] == ["10"]
    assert [s.text for s in diff.new if s.tag is WordTag.INSERT] == ["50", ", by default"]
    assert tagged(diff.merged) == [
        ("equal", "Partitions hold up to "),
        ("delete", "10"),
        ("insert", "50"),
        ("equal", " GB each"),
        ("insert", ", by default"),
        ("equal", "."),
    ]


def test_shared_space_between_two_changes_joins_them() -> None:
    diff = word_diff("the quick brown fox", "a slow brown fox")
    assert tagged(diff.merged) == [
        ("delete", "the quick"),
        ("insert", "a slow"),
        ("equal", " brown fox"),
    ]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("", ""),
        ("", "all new"),
        ("all gone", ""),
        ("same", "same"),
        ("a b c d e f", "f e d c b a"),
        ("x" * 5000, "x" * 4999 + "y"),
        ("tabs\tand\nnewlines", "tabs and\nnewlines"),
    ],
)
def test_sides_always_join_back_to_the_texts(old: str, new: str) -> None:
    diff = word_diff(old, new)
    assert "".join(s.text for s in diff.old) == old
    assert "".join(s.text for s in diff.new) == new
    assert {s.tag for s in diff.old} <= {WordTag.EQUAL, WordTag.DELETE}
    assert {s.tag for s in diff.new} <= {WordTag.EQUAL, WordTag.INSERT}
    assert "".join(s.text for s in diff.merged if s.tag is not WordTag.INSERT) == old
    assert "".join(s.text for s in diff.merged if s.tag is not WordTag.DELETE) == new
    for spans in (diff.old, diff.new, diff.merged):
        assert all(a.tag is not b.tag for a, b in pairwise(spans))
        assert all(span.text for span in spans)
    assert diff.changed is (old != new)


def test_memoized() -> None:
    assert word_diff("one two", "one three") is word_diff("one two", "one three")


def test_large_block_is_fast_enough_to_run_per_screen() -> None:
    words = [f"word{i % 97}" for i in range(10_000)]
    old = " ".join(words)
    words[5000] = "changed"
    diff = word_diff(old, " ".join(words))
    assert [s.text for s in diff.new if s.tag is WordTag.INSERT] == ["changed"]
