"""Aligning two revisions of a GitBook page: equal, changed, added and removed rows."""

from __future__ import annotations

from gitbook_tui.markdown import Document, Paragraph, Span, parse
from gitbook_tui.markdown.diff import (
    BlockDiff,
    BlockKind,
    DiffRow,
    DisplayBlock,
    RowKind,
    WordTag,
    diff_blocks,
    diff_documents,
    diff_markdown,
    flatten,
    pair_run,
)

BASE = """# Streams and partitions

Partitions hold up to 10 GB each. A stream has one or more partitions.

{% hint style="info" %}
Partition counts can only grow, never shrink.
{% endhint %}

## Sizing

| Setting | Default | Range |
| ------- | ------- | ----- |
| `partitions` | 1 | 1 – 1024 |
| `segment_bytes` | 1GiB | 64MiB – 4GiB |
| `retention` | 7d | 1h – forever |

```bash
tide stream create orders --partitions 12
tide stream describe orders
```

{% stepper %}
{% step %}
### Plan
Estimate peak throughput.
{% endstep %}
{% step %}
### Create
Create the stream with the partition count.
{% endstep %}
{% step %}
### Verify
Check the partition leaders.
{% endstep %}
{% endstepper %}

## Limits

Each broker serves at most 4000 partitions.

Consumers rebalance when partitions are added.
"""


def edited(*replacements: tuple[str, str]) -> str:
    text = BASE
    for old, new in replacements:
        assert old in text, old
        text = text.replace(old, new)
    return text


def changes(diff: BlockDiff) -> list[tuple[str, str, str]]:
    """``(row kind, block kind, text)`` of every row that is not equal."""
    return [
        (row.kind.value, row.block.kind.value, row.block.text) for row in diff.rows if row.is_change
    ]


def only_change(diff: BlockDiff) -> DiffRow:
    rows = [row for row in diff.rows if row.is_change]
    assert len(rows) == 1, rows
    return rows[0]


def test_identical_pages_are_all_equal_rows() -> None:
    diff = diff_markdown(BASE, BASE)
    assert diff.identical
    assert len(diff.rows) == len(flatten(parse(BASE)))
    assert (diff.added, diff.removed, diff.changed) == (0, 0, 0)
    assert all(row.old_index == row.new_index for row in diff.rows)


def test_hint_edited_is_one_changed_row_with_word_highlights() -> None:
    diff = diff_markdown(
        BASE,
        edited(("can only grow, never shrink", "can only grow; shrinking needs a new stream")),
    )
    row = only_change(diff)
    assert row.kind is RowKind.CHANGED
    assert row.new is not None and row.new.path == "Hint"
    assert row.old is not None and row.old.text == "Partition counts can only grow, never shrink."
    assert 60 <= row.score < 100
    words = row.words()
    assert words is not None
    assert "".join(s.text for s in words.old) == row.old.text
    assert "".join(s.text for s in words.new) == row.new.text
    assert [s.text for s in words.old if s.tag is WordTag.DELETE] == [", never shrink"]
    assert [s.text for s in words.new if s.tag is WordTag.INSERT] == [
        "; shrinking needs a new stream"
    ]
    assert words.merged[0] == words.old[0]  # "Partition counts can only grow" shared
    # The word diff is memoized: asking again gives the very same object.
    assert row.words() is words


def test_table_row_changed_pairs_that_row_only() -> None:
    diff = diff_markdown(BASE, edited(("| `segment_bytes` | 1GiB |", "| `segment_bytes` | 2GiB |")))
    row = only_change(diff)
    assert row.kind is RowKind.CHANGED
    assert row.block.kind is BlockKind.TABLE_ROW and row.block.part == 1
    words = row.words()
    assert words is not None
    assert [(s.tag, s.text) for s in words.merged if s.tag is not WordTag.EQUAL] == [
        (WordTag.DELETE, "1GiB"),
        (WordTag.INSERT, "2GiB"),
    ]


def test_short_table_row_with_its_key_cell_kept_pairs_as_changed() -> None:
    # "retention | 7d | 1h – forever" → "retention | none | unlimited by default" is below
    # ratio 60, but the key cell says it is the same row.
    diff = diff_markdown(BASE, edited(("| 7d | 1h – forever |", "| none | unlimited by default |")))
    row = only_change(diff)
    assert row.kind is RowKind.CHANGED and row.score < 60
    assert row.block.kind is BlockKind.TABLE_ROW and row.block.part == 2
    # A row whose key changed too is a different row.
    diff = diff_markdown(
        BASE, edited(("| `retention` | 7d | 1h – forever |", "| `ttl` | 30d | 1d |"))
    )
    assert [kind for kind, _, _ in changes(diff)] == ["removed", "added"]


def test_code_line_inserted_is_one_added_row_between_equal_lines() -> None:
    diff = diff_markdown(
        BASE,
        edited(
            ("tide stream describe orders", "tide stream wait orders\ntide stream describe orders")
        ),
    )
    assert changes(diff) == [("added", "code_line", "tide stream wait orders")]
    index = next(i for i, row in enumerate(diff.rows) if row.is_change)
    before, after = diff.rows[index - 1], diff.rows[index + 1]
    assert before.kind is after.kind is RowKind.EQUAL
    assert before.block.text.startswith("tide stream create")
    assert after.block.text == "tide stream describe orders"
    assert after.new is not None and after.new.part == 2 and after.old is not None
    assert after.old.part == 1


def test_step_reordered_shows_the_moved_step_removed_and_added() -> None:
    create = "{% step %}\n### Create\nCreate the stream with the partition count.\n{% endstep %}\n"
    verify = "{% step %}\n### Verify\nCheck the partition leaders.\n{% endstep %}\n"
    diff = diff_markdown(BASE, edited((create + verify, verify + create)))
    moved = changes(diff)
    # One of the two steps stays matched; the other leaves one place and arrives at another.
    assert sorted(kind for kind, _, _ in moved) == ["added"] * 3 + ["removed"] * 3
    removed = [text for kind, _, text in moved if kind == "removed"]
    added = [text for kind, _, text in moved if kind == "added"]
    # The same three blocks (a step's opening row, heading and text) leave and arrive.
    assert sorted(removed) == sorted(added)
    assert {"Create", "Verify"} & set(removed)
    # The moved step's new place is named by its new position.
    row = next(
        r for r in diff.rows if r.kind is RowKind.ADDED and r.block.kind is BlockKind.HEADING
    )
    assert row.block.path in ("Step 2", "Step 3")


def test_block_moved_is_removed_in_one_place_and_added_in_another() -> None:
    paragraph = "Each broker serves at most 4000 partitions.\n\n"
    text = edited((paragraph, "")).replace("## Sizing\n", "## Sizing\n\n" + paragraph)
    diff = diff_markdown(BASE, text)
    assert changes(diff) == [
        ("added", "paragraph", "Each broker serves at most 4000 partitions."),
        ("removed", "paragraph", "Each broker serves at most 4000 partitions."),
    ]
    added = next(r for r in diff.rows if r.kind is RowKind.ADDED)
    removed = next(r for r in diff.rows if r.kind is RowKind.REMOVED)
    assert added.new is not None and added.new.section == "Sizing"
    assert removed.old is not None and removed.old.section == "Limits"


def test_dissimilar_rewrite_is_removed_plus_added_not_changed() -> None:
    diff = diff_markdown(
        BASE, edited(("Consumers rebalance when partitions are added.", "See the FAQ."))
    )
    assert [kind for kind, _, _ in changes(diff)] == ["removed", "added"]


def test_blocks_of_different_kinds_never_pair() -> None:
    diff = diff_markdown(
        BASE,
        edited(
            (
                "Each broker serves at most 4000 partitions.",
                "- Each broker serves at most 4000 partitions.",
            )
        ),
    )
    assert changes(diff) == [
        ("removed", "paragraph", "Each broker serves at most 4000 partitions."),
        ("added", "list_item", "Each broker serves at most 4000 partitions."),
    ]


def test_heading_level_change_pairs_with_equal_words() -> None:
    row = only_change(diff_markdown(BASE, edited(("## Limits", "### Limits"))))
    assert row.kind is RowKind.CHANGED and row.variant_changed
    words = row.words()
    assert words is not None and not words.changed


def test_formatting_change_pairs_with_equal_words() -> None:
    row = only_change(diff_markdown(BASE, edited(("A stream has one", "A **stream** has one"))))
    assert row.kind is RowKind.CHANGED and row.score == 100
    assert not row.variant_changed
    words = row.words()
    assert words is not None and not words.changed


def test_several_edits_in_one_run_pair_in_order() -> None:
    diff = diff_markdown(
        BASE,
        edited(
            ("Estimate peak throughput.", "Estimate the peak throughput."),
            ("### Create", "### Create it"),
            ("Create the stream with the partition count.", "Create the stream with that count."),
        ),
    )
    got = [
        (row.kind.value, row.old.text if row.old else None) for row in diff.rows if row.is_change
    ]
    assert got == [
        ("changed", "Estimate peak throughput."),
        ("changed", "Create"),
        ("changed", "Create the stream with the partition count."),
    ]


def test_title_change_is_a_changed_heading() -> None:
    row = only_change(
        diff_markdown(BASE, edited(("# Streams and partitions", "# Streams, partitions and keys")))
    )
    assert row.kind is RowKind.CHANGED and row.block.kind is BlockKind.HEADING
    assert row.block.variant == "h1"


def test_page_created_is_all_added_and_deleted_all_removed() -> None:
    blocks = flatten(parse(BASE))
    created = diff_markdown(None, BASE)
    assert [row.kind for row in created.rows] == [RowKind.ADDED] * len(blocks)
    assert [row.new for row in created.rows] == list(blocks)
    assert all(row.old is None and row.old_index is None for row in created.rows)
    deleted = diff_documents(parse(BASE), None)
    assert [row.kind for row in deleted.rows] == [RowKind.REMOVED] * len(blocks)
    assert [row.old_index for row in deleted.rows] == list(range(len(blocks)))


def test_empty_pages() -> None:
    assert diff_markdown("", "").rows == ()
    assert diff_markdown(None, None).rows == ()
    assert diff_markdown("", None).identical
    emptied = diff_markdown(BASE, "")
    assert emptied.removed == len(emptied.rows) > 0


def test_indices_cover_both_sides_exactly_once_in_order() -> None:
    diff = diff_markdown(
        BASE,
        edited(
            ("10 GB", "50 GB"),
            ("| `retention` | 7d | 1h – forever |\n", ""),
            ("## Limits", "## Limits\n\nNew paragraph."),
        ),
    )
    old = [row.old_index for row in diff.rows if row.old_index is not None]
    new = [row.new_index for row in diff.rows if row.new_index is not None]
    assert old == list(range(len(diff.old_blocks)))
    assert new == list(range(len(diff.new_blocks)))
    for row in diff.rows:
        if row.old_index is not None:
            assert diff.old_blocks[row.old_index] is row.old
        if row.new_index is not None:
            assert diff.new_blocks[row.new_index] is row.new


def test_hostile_text_passes_through_as_data() -> None:
    hostile_old = "[bold red]owned[/] [@click=app.quit]quit[/] \x1b[31mred\x1b[0m \u202egnp.exe"
    hostile_new = hostile_old + " \x1b]52;c;ZXZpbA==\x07 more"
    old = Document((Paragraph((Span(hostile_old),)),))
    new = Document((Paragraph((Span(hostile_new),)),))
    row = only_change(diff_documents(old, new))
    assert row.old is not None and row.old.text == hostile_old
    assert row.new is not None and row.new.text == hostile_new
    words = row.words()
    assert words is not None
    assert "".join(s.text for s in words.old) == hostile_old
    assert "".join(s.text for s in words.new) == hostile_new
    assert "".join(s.text for s in words.merged if s.tag is not WordTag.DELETE) == hostile_new


def test_pair_run_prefers_the_best_in_order_pairing() -> None:
    def para(text: str) -> DisplayBlock:
        return DisplayBlock(BlockKind.PARAGRAPH, text)

    old = [para("alpha beta gamma delta"), para("one two three four five")]
    new = [para("one two three four six"), para("alpha beta gamma delta epsilon")]
    # In order, only one of the two can pair; the more similar one wins.
    pairs = pair_run(old, new)
    assert len(pairs) == 1
    assert pairs[0][:2] in ((0, 1), (1, 0))
    assert pair_run(old, []) == [] and pair_run([], new) == []


def test_large_replace_runs_pair_greedily() -> None:
    old = [
        DisplayBlock(BlockKind.CODE_LINE, f"line number {i} of the old script") for i in range(300)
    ]
    new = [
        DisplayBlock(BlockKind.CODE_LINE, f"line number {i} of the new script") for i in range(300)
    ]
    diff = diff_blocks(old, new)
    assert diff.changed == 300
    assert [row.old_index for row in diff.rows] == list(range(300))
