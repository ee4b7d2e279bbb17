"""lazy_diff: the same rows, folds, lines and change index as diffing two whole parses."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from gitbook_tui.markdown import clean_text, parse
from gitbook_tui.markdown.diff import (
    CONTEXT_STEPS,
    BlockDiff,
    ChangeIndex,
    DisplayBlock,
    LazyRows,
    ViewRow,
    diff_documents,
    diff_markdown,
    fold,
    inline_lines,
    lazy_diff,
    split_lines,
)
from gitbook_tui.server.demo.generated import large_reference_page
from support.diff_pages import MIXED_PAGE, PAGES, edit


def context(block: DisplayBlock | None) -> tuple[object, ...] | None:
    """Every field of a display block (equality compares only the content key)."""
    if block is None:
        return None
    return (block.key, block.path, block.depth, block.section, block.top, block.part)


def view_fields(rows: Sequence[ViewRow]) -> list[object]:
    return [
        (row, context(getattr(row, "old", None)), context(getattr(row, "new", None)))
        for row in rows
    ]


def assert_same_diff(lazy: BlockDiff, full: BlockDiff, *, all_rows: bool = True) -> None:
    assert isinstance(lazy.rows, LazyRows)
    assert len(lazy.rows) == len(full.rows)
    assert (lazy.added, lazy.removed, lazy.changed) == (full.added, full.removed, full.changed)
    assert lazy.identical == full.identical
    for steps in (*CONTEXT_STEPS, None) if all_rows else CONTEXT_STEPS:
        lazy_rows, full_rows = fold(lazy.rows, steps), fold(full.rows, steps)
        assert view_fields(lazy_rows) == view_fields(full_rows), steps
        for make in (inline_lines, split_lines):
            lazy_lines, full_lines = make(lazy_rows), make(full_rows)
            assert lazy_lines == full_lines
            assert ChangeIndex.of(lazy_lines).positions == ChangeIndex.of(full_lines).positions
    if all_rows:
        assert [context(b) for b in lazy.old_blocks] == [context(b) for b in full.old_blocks]
        assert [context(b) for b in lazy.new_blocks] == [context(b) for b in full.new_blocks]


def full_diff(old: str, new: str) -> BlockDiff:
    return diff_documents(parse(old), parse(new))


@pytest.mark.slow
def test_demo_pages_edited_diff_lazily_as_whole_parses() -> None:
    """Over 5 s under load: every demo page, edited twice, diffed lazily and compared with the whole parse."""
    lazily = 0
    for number, page in enumerate(PAGES):
        text = clean_text(page.read_text(encoding="utf-8"))
        for seed in range(2):
            new = edit(text, seed * 1000 + number, 1 + (number + seed) % 6)
            lazy = lazy_diff(text, new)
            if lazy is None:
                continue
            lazily += 1
            assert_same_diff(lazy, full_diff(text, new))
    assert lazily > len(PAGES)  # most pages are diffed lazily


@pytest.mark.slow
def test_large_page_diff_is_lazy_and_the_same() -> None:
    """The lazy diff of a large page equals the full one, folds closed and all opened. Slow: opening
    every fold builds every row of a ~10,000-line diff."""
    text = large_reference_page()
    new = edit(text, 11, 40)
    lazy = diff_markdown(text, new)
    full = full_diff(text, new)
    assert_same_diff(lazy, full, all_rows=False)
    assert isinstance(lazy.rows, LazyRows)
    # Opening every fold makes every row: still the same.
    assert_same_diff(lazy, full)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("# A\n\none\n\n# B\n\ntwo\n\nthree\n", "# A\n\none\n\n# B\n\ntwo!\n\nthree\n"),
        (
            "# A\n\n{% hint %}\n## In\n{% endhint %}\n\nx\n\ny\n",
            "# A\n\n{% hint %}\n## In\n{% endhint %}\n\nx\n\nz\n",
        ),
        ("p\n\n```\na\nb\n```\n\nq\n", "p\n\n```\na\nc\nb\n```\n\nq\n"),
        ("| a |\n| - |\n| 1 |\n\nafter\n", "| a |\n| - |\n| 1 |\n| 2 |\n\nafter\n"),
        ("**Bold** start\n\nsecond\n", "**Bold** start\n\nsecond changed\n"),
        ("text\n", 'text\n\n{% tab title="x" %}\norphan\n{% endtab %}\n'),
    ],
)
def test_small_edits(old: str, new: str) -> None:
    for a, b in ((old, new), (new, old)):
        lazy = diff_markdown(a, b)
        full = full_diff(a, b)
        if isinstance(lazy.rows, LazyRows):
            assert_same_diff(lazy, full)
        else:
            assert lazy.rows == full.rows


@pytest.mark.slow
def test_random_edits_of_every_kind_of_block() -> None:
    lazily = 0
    for seed in range(60):
        rng = random.Random(seed)
        old = MIXED_PAGE * rng.randint(1, 3)
        new = edit(old, seed, rng.randint(1, 15))
        if seed % 7 == 0:
            old = old.replace("\n", "\r\n")
        if seed % 2:
            old, new = new, old
        lazy = lazy_diff(old, new)
        if lazy is None:
            continue
        lazily += 1
        assert_same_diff(lazy, full_diff(old, new))
    assert lazily > 40
