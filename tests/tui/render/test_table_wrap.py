"""Table cells on narrow terminals: wrapped at spaces; a word longer than its column is cut
at the edge and every later piece starts with the continuation mark of folded code (``↪``)."""

from __future__ import annotations

import pytest
from rich.text import Text

from gitbook_tui.markdown import parse
from gitbook_tui.tui.render import DocumentLayout
from gitbook_tui.tui.render.code import CONTINUATION
from gitbook_tui.tui.render.core import Context, wrap
from gitbook_tui.tui.render.find import block_resolver, iter_matches
from gitbook_tui.tui.render.tables import wrap_cell

TABLE = """\
| Setting | Type | Description |
|---|---|---|
| `max_connections_per_host_override` | integer | The maximum number of simultaneous connections kept open to one upstream host. |
| retries | int | See https://example.com/docs/configuration/networking/retries for details. |
"""


def _lines(markdown: str, width: int) -> list[str]:
    layout = DocumentLayout(parse(markdown), width)
    return [text.rstrip() for _block, _line, text in layout.lines() if text.strip()]


def test_cells_at_80_columns() -> None:
    assert _lines(TABLE, 80) == [
        "┌───────────────────────────┬─────────┬────────────────────────────────────────┐",
        "│ Setting                   │ Type    │ Description                            │",
        "╞═══════════════════════════╪═════════╪════════════════════════════════════════╡",
        "│ max_connections_per_host_ │ integer │ The maximum number of simultaneous     │",
        "│ ↪override                 │         │ connections kept open to one upstream  │",
        "│                           │         │ host.                                  │",
        "├───────────────────────────┼─────────┼────────────────────────────────────────┤",
        "│ retries                   │ int     │ See                                    │",
        "│                           │         │ https://example.com/docs/configuration │",
        "│                           │         │ ↪/networking/retries for details.      │",
        "└───────────────────────────┴─────────┴────────────────────────────────────────┘",
    ]


def test_cells_at_60_columns() -> None:
    assert _lines(TABLE, 60) == [
        "┌────────────────────┬─────────┬───────────────────────────┐",
        "│ Setting            │ Type    │ Description               │",
        "╞════════════════════╪═════════╪═══════════════════════════╡",
        "│ max_connections_pe │ integer │ The maximum number of     │",
        "│ ↪r_host_override   │         │ simultaneous connections  │",
        "│                    │         │ kept open to one upstream │",
        "│                    │         │ host.                     │",
        "├────────────────────┼─────────┼───────────────────────────┤",
        "│ retries            │ int     │ See                       │",
        "│                    │         │ https://example.com/docs/ │",
        "│                    │         │ ↪configuration/networking │",
        "│                    │         │ ↪/retries for details.    │",
        "└────────────────────┴─────────┴───────────────────────────┘",
    ]


@pytest.mark.parametrize("width", [80, 60, 40])
def test_only_words_longer_than_their_column_are_cut(width: int) -> None:
    lines = _lines(TABLE, width)
    words = set(TABLE.replace("|", " ").split())
    url = "https://example.com/docs/configuration/networking/retries"
    description = [line.split("│")[3].strip() for line in lines if line.startswith("│")]
    for row in description[1:]:
        for word in row.removeprefix(CONTINUATION).split():
            assert word in words or word in url, (width, word)  # whole, or a piece of the URL
    assert sum(CONTINUATION in line for line in lines) >= 2


def test_a_cut_word_reads_whole_in_find() -> None:
    layout = DocumentLayout(parse(TABLE), 60)
    query = "max_connections_per_host_override"
    found = [m for block in iter_matches(layout, query) if isinstance(block, list) for m in block]
    assert len(found) == 1  # across the cut: the mark is drawn, not part of the text
    assert block_resolver(layout, "configuration/networking")(0)


def test_right_aligned_and_header_cells_carry_the_mark() -> None:
    table = (
        "| Identifierofthecolumn | n |\n|---:|---:|\n"
        "| abcdefghijklmnopqrstuvwxyz | 1 |\n| short words here | 2 |\n"
    )
    assert _lines(table, 20) == [
        "┌──────────────┬───┐",
        "│ Identifierof │ n │",
        "│   ↪thecolumn │   │",
        "╞══════════════╪═══╡",
        "│ abcdefghijkl │ 1 │",
        "│ ↪mnopqrstuvw │   │",
        "│         ↪xyz │   │",
        "├──────────────┼───┤",
        "│  short words │ 2 │",
        "│         here │   │",
        "└──────────────┴───┘",
    ]


def test_one_cell_wide_column_folds_without_marks() -> None:
    pieces = wrap_cell(Text("abc def"), 1, "left", Context())
    assert [p.plain.rstrip() for p in pieces] == ["a", "b", "c", "d", "e", "f"]


def test_wide_characters_are_cut_by_cells() -> None:
    pieces = [p.plain for p in wrap_cell(Text("日本語のテキスト"), 6, "left", Context())]
    assert pieces[0] == "日本語"
    assert all(p.startswith(CONTINUATION) for p in pieces[1:])
    assert "".join(p.removeprefix(CONTINUATION) for p in pieces) == "日本語のテキスト"
    assert all(Text(p).cell_len <= 6 for p in pieces)


def test_text_without_long_words_wraps_as_every_paragraph() -> None:
    sentence = "alpha beta gamma delta epsilon zeta eta theta\niota kappa"
    for width in range(7, 40):
        expected = [line.plain.rstrip() for line in wrap(Text(sentence), width)]
        got = [line.plain.rstrip() for line in wrap_cell(Text(sentence), width, "left", Context())]
        assert got == expected, width


def test_words_after_a_cut_fill_the_lines_as_usual() -> None:
    text = Text("x" * 25 + " alpha beta gamma delta epsilon")
    lines = [line.plain.rstrip() for line in wrap_cell(text, 12, "left", Context())]
    assert lines == [
        "x" * 12,
        CONTINUATION + "x" * 11,
        CONTINUATION + "xx alpha",
        "beta gamma",
        "delta",
        "epsilon",
    ]
