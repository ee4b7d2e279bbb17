"""What the review pane shows: folded equal runs, inline and split lines, n/N change index."""

from __future__ import annotations

import pytest

from gitbook_tui.markdown.diff import (
    ADDED_MARKER,
    CHANGED_MARKER,
    CONTEXT_STEPS,
    DEFAULT_CONTEXT,
    EQUAL_MARKER,
    REMOVED_MARKER,
    ChangeIndex,
    DiffRow,
    Fold,
    RowKind,
    WordTag,
    diff_markdown,
    fold,
    inline_lines,
    narrower,
    split_lines,
    wider,
)


def page(count: int, overrides: dict[int, str | None] | None = None, extra: str = "") -> str:
    """``count`` numbered paragraphs; ``overrides`` rewrites (or with None drops) some."""
    overrides = overrides or {}
    parts: list[str] = []
    for i in range(count):
        text = overrides.get(i, f"Paragraph number {i} says something about partitions.")
        if text is not None:
            parts.append(text)
        if i == count // 2 and extra:
            parts.append(extra)
    return "\n\n".join(parts)


BEFORE = page(30)
AFTER = page(
    30,
    {5: "Paragraph number 5 says something else about partitions.", 20: None},
    extra="A brand new paragraph in the middle.",
)


def kinds(rows: tuple[DiffRow | Fold, ...]) -> list[str]:
    return ["fold" if isinstance(row, Fold) else row.kind.value for row in rows]


@pytest.fixture
def rows() -> tuple[DiffRow, ...]:
    return diff_markdown(BEFORE, AFTER).rows


def test_fold_keeps_context_around_changes(rows: tuple[DiffRow, ...]) -> None:
    shown = fold(rows, context=2)
    assert kinds(shown) == [
        "fold",
        *["equal"] * 2,
        "changed",
        *["equal"] * 2,
        "fold",
        *["equal"] * 2,
        "added",
        *["equal"] * 4,  # 2 + 2 context rows: nothing left to fold between
        "removed",
        *["equal"] * 2,
        "fold",
    ]
    folds = [row for row in shown if isinstance(row, Fold)]
    assert [(f.start, f.count) for f in folds] == [(0, 3), (8, 6), (24, 7)]
    # Folded and shown rows together are every row, once.
    assert sum(f.count for f in folds) + len(shown) - len(folds) == len(rows)


def test_context_changes_what_is_folded(rows: tuple[DiffRow, ...]) -> None:
    lengths = [len(fold(rows, context)) for context in (0, 1, 3, 10)]
    assert lengths == sorted(lengths)
    assert all(row.is_change for row in fold(rows, 0) if not isinstance(row, Fold))
    assert fold(rows, None) == rows
    assert fold(rows, 100) == rows


def test_a_fold_never_hides_a_single_row(rows: tuple[DiffRow, ...]) -> None:
    # Between the added row (16) and the removed row (21) sit four equal rows: context 1
    # leaves two to fold; a fold of one row would take as much room as the row itself.
    assert [(r.start, r.count) for r in fold(rows, 1) if isinstance(r, Fold) and r.start == 18] == [
        (18, 2)
    ]
    three = diff_markdown("A x.\n\nb\n\nc\n\nd\n\nE x.", "A y.\n\nb\n\nc\n\nd\n\nE y.").rows
    assert kinds(fold(three, 1)) == ["changed", "equal", "equal", "equal", "changed"]
    assert kinds(fold(three, 0)) == ["changed", "fold", "changed"]


def test_expanded_fold_is_shown_in_full(rows: tuple[DiffRow, ...]) -> None:
    first = fold(rows, 2)[0]
    assert isinstance(first, Fold)
    shown = fold(rows, 2, expanded={first.start})
    assert not isinstance(shown[0], Fold)
    assert shown[: first.count] == rows[: first.count]
    # Still open with less or more context (the fold would start elsewhere).
    assert not isinstance(fold(rows, 0, expanded={first.start})[0], Fold)
    middle = fold(rows, 2)[6]
    assert isinstance(middle, Fold)
    for context in (0, 1, 2, 3, 4):
        assert not any(
            isinstance(row, Fold) and row.start <= middle.start < row.start + row.count
            for row in fold(rows, context, expanded={middle.start})
        )
    # Any row inside a fold opens it; others stay folded.
    opened = fold(rows, 2, expanded={middle.start + middle.count - 1})
    assert isinstance(opened[0], Fold) and len(opened) == len(fold(rows, 2)) + middle.count - 1


def test_context_steps_for_the_brace_keys() -> None:
    assert wider(0) == 1 and wider(3) == 5 and wider(2) == 3
    assert wider(CONTEXT_STEPS[-1]) is None and wider(None) is None
    assert narrower(5) == 3 and narrower(0) == 0 and narrower(None) == CONTEXT_STEPS[-1]
    assert DEFAULT_CONTEXT in CONTEXT_STEPS


def test_fold_of_identical_page_is_one_fold() -> None:
    rows = diff_markdown(BEFORE, BEFORE).rows
    shown = fold(rows, 3)
    assert len(shown) == 1 and isinstance(shown[0], Fold)
    assert shown[0].count == len(rows)
    assert fold((), 3) == ()


def test_fold_names_the_section_it_hides() -> None:
    rows = diff_markdown(
        "# Intro\n\na\n\nb\n\nc\n\nd\n\ne", "# Intro\n\na\n\nb\n\nc\n\nd\n\nE!"
    ).rows
    shown = fold(rows, 1)
    assert isinstance(shown[0], Fold) and shown[0].section == "Intro"


def test_inline_lines_mark_every_change_without_colour(rows: tuple[DiffRow, ...]) -> None:
    lines = inline_lines(fold(rows, 1))
    markers = [line.marker for line in lines if line.fold is None]
    assert markers.count(REMOVED_MARKER) == 2  # the changed pair's old line + the removal
    assert markers.count(ADDED_MARKER) == 2  # the changed pair's new line + the addition
    changed = [line for line in lines if line.spans() is not None]
    assert [line.side for line in changed] == ["old", "new"]
    old_spans, new_spans = changed[0].spans(), changed[1].spans()
    assert old_spans is not None and new_spans is not None
    assert [s.tag for s in old_spans] == [WordTag.EQUAL]  # nothing deleted
    assert [s.text.strip() for s in new_spans if s.tag is WordTag.INSERT] == ["else"]
    for line in lines:
        if line.fold is None:
            assert line.block is not None
        if line.marker == EQUAL_MARKER:
            assert not line.is_change


def test_inline_lines_can_merge_a_changed_pair() -> None:
    rows = diff_markdown("Partitions hold up to 10 GB.", "Partitions hold up to 50 GB.").rows
    (line,) = inline_lines(rows, merge_changed=True)
    assert line.marker == CHANGED_MARKER and line.side == "both"
    spans = line.spans()
    assert spans is not None
    assert [(s.tag, s.text) for s in spans] == [
        (WordTag.EQUAL, "Partitions hold up to "),
        (WordTag.DELETE, "10"),
        (WordTag.INSERT, "50"),
        (WordTag.EQUAL, " GB."),
    ]


def test_split_lines_align_both_sides_with_filler(rows: tuple[DiffRow, ...]) -> None:
    lines = split_lines(fold(rows, 1))
    for line in lines:
        if line.fold is not None:
            assert line.left is None and line.right is None
            continue
        kind = {row.kind for row in (line.left_row, line.right_row) if isinstance(row, DiffRow)}
        if kind == {RowKind.EQUAL}:
            assert line.left == line.right and line.left_marker == line.right_marker == " "
        elif kind == {RowKind.CHANGED}:
            assert line.left is not None and line.right is not None
            assert (line.left_marker, line.right_marker) == (REMOVED_MARKER, ADDED_MARKER)
            assert line.left_spans() is not None and line.right_spans() is not None
        elif kind == {RowKind.ADDED}:
            assert line.left is None and line.right is not None  # filler on the left
            assert line.right_marker == ADDED_MARKER
        elif kind == {RowKind.REMOVED}:
            assert line.right is None and line.left is not None  # filler on the right
            assert line.left_marker == REMOVED_MARKER
    assert len(lines) == len(fold(rows, 1))


def test_split_lines_put_a_rewrite_side_by_side() -> None:
    rows = diff_markdown(
        "Intro.\n\nOld one.\n\nOld two.\n\nOld three.\n\nOutro.",
        "Intro.\n\nCompletely new text.\n\nAnother new paragraph.\n\nOutro.",
    ).rows
    assert [row.kind.value for row in rows] == [
        "equal",
        *["removed"] * 3,
        *["added"] * 2,
        "equal",
    ]
    lines = split_lines(rows)
    assert [(ln.left and ln.left.text, ln.right and ln.right.text) for ln in lines] == [
        ("Intro.", "Intro."),
        ("Old one.", "Completely new text."),
        ("Old two.", "Another new paragraph."),
        ("Old three.", None),
        ("Outro.", "Outro."),
    ]
    stacked = split_lines(rows, side_by_side=False)
    assert len(stacked) == len(rows)
    assert [ln.right is None for ln in stacked[1:6]] == [True] * 3 + [False] * 2


def test_view_index_maps_lines_back_to_rows(rows: tuple[DiffRow, ...]) -> None:
    shown = fold(rows, 1)
    for line in inline_lines(shown):
        assert shown[line.view_index] is line.row
    for split in split_lines(shown):
        assert shown[split.view_index] in (split.left_row, split.right_row)


def test_change_index_jumps_between_hunks(rows: tuple[DiffRow, ...]) -> None:
    lines = inline_lines(fold(rows, 1))
    index = ChangeIndex.of(lines)
    starts = [i for i, line in enumerate(lines) if line.is_change and not lines[i - 1].is_change]
    assert list(index.positions) == starts
    assert len(index) == 3  # the changed pair's two lines are one hunk
    assert index.next(-1) == starts[0]
    assert index.next(starts[0]) == starts[1]
    assert index.next(starts[-1]) is None
    assert index.previous(starts[1]) == starts[0]
    assert index.previous(starts[0]) is None
    assert index.previous(len(lines)) == starts[-1]
    assert index.ordinal(starts[1]) == 2
    every = ChangeIndex.of(lines, hunks=False)
    assert len(every) == 4


def test_change_index_of_unchanged_page_is_empty() -> None:
    index = ChangeIndex.of(fold(diff_markdown(BEFORE, BEFORE).rows))
    assert not index and index.next(0) is None and index.previous(10) is None
