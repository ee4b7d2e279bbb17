"""stage_diff: a large page's first changes diffed from the first part of both sides alone, the
same rows as the whole page's diff shows first; the whole page's diff next."""

from __future__ import annotations

import pytest

from gitbook_tui.markdown import parse
from gitbook_tui.markdown.diff import (
    DEFAULT_CONTEXT,
    STAGED_FROM_CHARS,
    Fold,
    RowKind,
    continues,
    diff_documents,
    diff_markdown,
    fold,
    same_line,
    shown_blocks,
    split_lines,
    stage_diff,
)
from gitbook_tui.markdown.diff.staged import common_prefix
from gitbook_tui.server.demo.generated import large_reference_page
from support.diff_pages import edit


def _slice(size: int) -> str:
    text = large_reference_page()
    return text[: text.index("\n\n", size) + 1]


def _fields(rows: object) -> list[object]:
    out: list[object] = []
    for row in fold(rows, DEFAULT_CONTEXT):  # type: ignore[arg-type]
        if isinstance(row, Fold):
            out.append(row)
            continue
        sides = [
            None if b is None else (b.key, b.path, b.depth, b.section, b.top, b.part)
            for b in (row.old, row.new)
        ]
        out.append((row.kind, row.old_index, row.new_index, *sides))
    return out


def test_common_prefix() -> None:
    assert common_prefix("abcdef", 0, "abcxef", 0) == 3
    assert common_prefix("xxabc", 2, "abd", 0) == 2
    assert common_prefix("same" * 1000, 0, "same" * 1000, 0) == 4000
    long = "a" * 70_000
    assert common_prefix(long + "b", 0, long + "c", 0) == 70_000
    assert common_prefix("", 0, "abc", 0) == 0


@pytest.mark.slow
@pytest.mark.parametrize("seed", [3, 11])
def test_first_part_is_the_start_of_the_whole_diff(seed: int) -> None:
    """The first part's rows are the whole page's first rows, and the whole page's diff is
    the same as two whole parses'. Slow: a 250 KB page parsed whole, both sides."""
    old = _slice(250_000)
    new = edit(old, seed, 30)
    staged = stage_diff(old, new)
    assert staged.partial
    whole = diff_markdown(old, new)
    first, rows = _fields(staged.first.rows), _fields(whole.rows)
    assert first == rows[: len(first)]  # the same rows, the fold before the first change too
    assert len(first) < len(rows)
    shown = split_lines(fold(staged.first.rows, DEFAULT_CONTEXT))
    assert any(line.is_change for line in shown)
    rest, same = staged.rest()
    assert same
    assert _fields(rest.rows) == rows
    assert tuple(rest.rows) == tuple(diff_documents(parse(old), parse(new)).rows)


def test_one_change_near_the_start_then_the_same_text() -> None:
    old = _slice(300_000)
    at = old.index("\n\n", 20_000) + 2
    new = old[:at] + "A paragraph added in review.\n\n" + old[at:]
    staged = stage_diff(old, new)
    assert staged.partial
    kinds = [row.kind for row in staged.first.rows if row.kind is not RowKind.EQUAL]
    assert kinds == [RowKind.ADDED]
    whole, same = staged.rest()
    assert same and whole.added == 1 and whole.changed == whole.removed == 0


def test_small_pages_far_changes_and_no_changes_are_diffed_whole() -> None:
    """Where a first part would not be worth it, the page is diffed whole at once. Slow: four
    diffs of a 300 KB page."""
    small = _slice(20_000)
    assert len(small) < STAGED_FROM_CHARS
    assert not stage_diff(small, edit(small, 1, 5)).partial
    large = _slice(300_000)
    late = large[:-2_000] + large[-2_000:].replace("the", "a", 1)  # the first change: last
    assert not stage_diff(large, late).partial
    assert not stage_diff(large, large).partial
    assert not stage_diff(None, large).partial
    assert stage_diff(large, None).first.removed > 0


def test_a_whole_diff_that_reads_differently_does_not_continue_the_first_part() -> None:
    old = _slice(300_000)
    staged = stage_diff(old, edit(old, 5, 20))
    assert staged.partial
    other = diff_markdown(old, edit(old, 6, 20))
    assert not continues(staged.first, other)


def test_each_line_of_the_first_part_is_found_in_the_whole_diff_by_its_blocks() -> None:
    """On a page of much repeated text the whole diff pairs the rows near the first part's
    end otherwise; every line of the part (fold or block) is still found in the whole diff's
    lines by the block of the page it shows."""
    texts = ("The same short paragraph.", "Another line that repeats.")
    texts += (texts[0], "A third, rarer one.")
    old = "\n\n".join(texts[i % len(texts)] for i in range(9_000)) + "\n"
    staged = stage_diff(old, edit(old, 10, 12))
    whole, same = staged.rest()
    assert not same
    part_lines = split_lines(fold(staged.first.rows, DEFAULT_CONTEXT))
    lines = split_lines(fold(whole.rows, DEFAULT_CONTEXT))
    for line in part_lines:
        old_blocks, new_blocks = shown_blocks(line, staged.first.rows)
        found = same_line(line, staged.first.rows, lines, whole.rows)
        assert found is not None
        there = shown_blocks(lines[found], whole.rows)
        assert (old_blocks[0] in there[0]) if old_blocks else (new_blocks[0] in there[1])
