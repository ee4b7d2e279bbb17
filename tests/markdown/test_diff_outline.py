"""The outline tokenizer cuts a page where markdown-it does, with each table's rows counted."""

from __future__ import annotations

import pytest
from markdown_it.rules_block.table import escapedSplit

from gitbook_tui.markdown import clean_text
from gitbook_tui.markdown.diff.chunks import Side, cut_chunks
from gitbook_tui.markdown.diff.outline import OUTLINE_ROWS, cell_count
from gitbook_tui.markdown.progressive import block_state
from gitbook_tui.markdown.rules import MD
from support.diff_pages import PAGES

TABLES = [
    "| a | b |\n| --- | --- |\n| 1 | 2 |\n| 3 | 4 |\n\nafter\n",
    "| a | b |\n|---|:-:|\n| 1 \\| x | 2 |\n|\n||\n| 5 |\n",
    "a | b\n--- | ---\n1 | 2\n> quote ends it\n",
    "| a | b |\n| - | - |\n| 1 | 2 |\n# heading ends it\n",
    "| a | b |\n| - | - |\n| 1 | 2 |\n```\ncode\n```\n",
    "| a | b |\n| - | - |\n| 1 | 2 |\n- list ends it\n",
    "| a | b |\n| - | - |\n| 1 | 2 |\n<div>html</div>\n",
    "| a | b |\n| - | - |\n| 1 | 2 |\n    | indented: code |\n",
    '| a | b |\n| - | - |\n| 1 | 2 |\n{% hint style="info" %}\nx\n{% endhint %}\n',
    "| a | b |\n| - | - |\n| 1 | 2 | 3 | 4 |\n| \\\\| e |\n*** \n",
    "| a |\n| - |\n|\n\n| not | a | table |\n| - | - |\n",
    "paragraph\n| a | b |\n| - | - |\n| 1 | 2 |\n",
    '{% tabs %}\n{% tab title="T" %}\n| a | b |\n| - | - |\n| 1 | 2 |\n{% endtab %}\n{% endtabs %}\n',
]


def cuts(markdown: str) -> list[tuple[int, int, int | None]]:
    """Each chunk's lines and, for a table, its rows: the outline's and the real rule's."""
    state, env = block_state(markdown)
    assert state is not None
    side = Side(state, env)
    assert cut_chunks(side)
    out = []
    for chunk in side.chunks:
        tokens = chunk.outline_tokens()
        rows = tokens[0].meta.get(OUTLINE_ROWS) if tokens[0].meta else None
        out.append((chunk.start, chunk.end, rows))
    return out


def real_cuts(markdown: str) -> list[tuple[int, int, int | None]]:
    state, _env = block_state(markdown)
    assert state is not None
    MD.block.tokenize(state, state.line, state.lineMax)
    tokens = state.tokens
    starts = [i for i, t in enumerate(tokens) if t.level == 0 and t.nesting != -1]
    out = []
    for n, i in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(tokens)
        line_end = tokens[starts[n + 1]].map[0] if n + 1 < len(starts) else state.lineMax
        rows = None
        if tokens[i].type == "table_open":
            rows = sum(1 for t in tokens[i:end] if t.type == "tr_open")
        out.append((tokens[i].map[0], line_end, rows))
    return out


@pytest.mark.parametrize("markdown", TABLES)
def test_tables_cut_and_counted_as_markdown_it_does(markdown: str) -> None:
    assert cuts(markdown) == real_cuts(markdown)


def test_demo_pages_cut_as_markdown_it_does() -> None:
    for page in PAGES:
        text = clean_text(page.read_text(encoding="utf-8"))
        if text.strip():
            assert cuts(text) == real_cuts(text), page.name


@pytest.mark.parametrize(
    "row", ["| a | b |", "a | b", "|", "||", "\\|a", "a\\||", "| \\\\| e |", "a|", "\\|", "x"]
)
def test_cell_count_is_markdown_its(row: str) -> None:
    columns = escapedSplit(row)
    if columns and columns[0] == "":
        columns.pop(0)
    if columns and columns[-1] == "":
        columns.pop()
    assert cell_count(row) == len(columns)
