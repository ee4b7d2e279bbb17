"""The HTML GitBook writes, front matter, math, conditions and includes → the block model."""

from __future__ import annotations

from gitbook_tui.markdown import (
    Cards,
    CodeBlock,
    Conditional,
    FrontMatterError,
    Include,
    MathBlock,
    Notice,
    Paragraph,
    Span,
    Table,
    expand_includes,
    include_paths,
    parse,
    plain_text,
    read_front_matter,
)
from support.asserts import only


def test_front_matter_scalar_styles() -> None:
    folded = parse("---\ndescription: >-\n  one\n  two\nicon: rocket\n---\nBody")
    assert folded.front_matter == {"description": "one two", "icon": "rocket"}
    assert folded.blocks == (Paragraph((Span("Body"),)),)
    literal = read_front_matter("description: |\n  a\n  b\n")
    assert literal == {"description": "a\nb\n"}
    assert read_front_matter("title: 'quoted: yes'\nn: 3") == {"title": "quoted: yes", "n": 3}


def test_bad_front_matter_is_a_visible_notice() -> None:
    doc = parse("---\ndescription: [unclosed\n---\n# Title\n\nBody")
    notice, code = doc.blocks[:2]
    assert isinstance(notice, Notice) and "line 2" in notice.detail
    assert isinstance(code, CodeBlock) and code.code == "description: [unclosed"
    assert doc.front_matter == {}


def test_front_matter_refuses_aliases_and_non_mappings() -> None:
    for text in ("a: &x [1]\nb: *x\n", "- a\n- b\n", "x" * 70_000 + ": 1"):
        try:
            read_front_matter(text)
        except FrontMatterError:
            continue
        raise AssertionError(text[:20])


def test_html_table_rich_cells_hidden_columns_and_aligns() -> None:
    table = only(
        parse(
            '<table><thead><tr><th>A</th><th align="right">B</th><th data-hidden>C</th></tr>'
            '</thead><tbody><tr><td><a href="x.md">x</a><br><kbd>K</kbd></td><td>2</td>'
            "<td>hidden</td></tr></tbody></table>"
        )
    )
    assert isinstance(table, Table)
    assert [plain_text(cell) for cell in table.header] == ["A", "B"]
    assert table.aligns == (None, "right")
    assert table.rows[0][0] == (
        Span("x", frozenset({"link"}), "x.md"),
        Span("\n"),
        Span("K", frozenset({"kbd"})),
    )
    assert "hidden" not in str(table)


def test_card_table_target_and_cover() -> None:
    cards = only(
        parse(
            '<table data-view="cards"><thead><tr><th></th><th data-card-target></th>'
            "<th data-card-cover></th></tr></thead><tbody><tr><td>One</td>"
            '<td><a href="one.md">one.md</a></td><td><a href="c.png">c.png</a></td></tr>'
            "</tbody></table>"
        )
    )
    assert isinstance(cards, Cards)
    [card] = cards.cards
    assert (plain_text(card.title), card.target, card.cover) == ("One", "one.md", "c.png")


def test_pre_code_language_title_numbers_and_highlights() -> None:
    code = only(
        parse(
            '<pre class="language-python" data-title="a.py" data-line-numbers '
            'data-full-width="true"><code class="lang-python">def f():\n'
            "<strong>    return 1 &lt; 2\n</strong>\n    pass\n</code></pre>"
        )
    )
    assert code == CodeBlock(
        "def f():\n    return 1 < 2\n\n    pass", "python", "a.py", True, True, frozenset({2})
    )


def test_inline_html_styles_icons_mentions_buttons_and_math() -> None:
    para = only(
        parse(
            '<kbd>K</kbd> <mark style="color:red">m</mark> <i class="fa-solid fa-rocket">:x:</i> '
            '<a data-mention href="p.md">p.md</a> <a href="https://b" class="button">B</a> '
            "<button>C</button> $$x^2$$ costs $5"
        )
    )
    assert isinstance(para, Paragraph)
    styled = {span.text: span.style for span in para.spans if span.style}
    assert styled == {
        "K": {"kbd"},
        "m": {"mark"},
        "rocket": {"icon"},
        "p.md": {"link", "mention"},
        "B": {"link", "button"},
        "C": {"button"},
        "x^2": {"math"},
    }
    assert plain_text(para.spans).endswith("costs $5")


def test_math_block() -> None:
    assert only(parse("$$\na^2 + b^2\n$$")) == MathBlock("a^2 + b^2")


def test_if_else_branches_keep_their_conditions() -> None:
    block = only(
        parse(
            '{% if visitor.claims.x == "y" %}\nA\n{% elif other %}\nB\n{% else %}\nC\n{% endif %}'
        )
    )
    assert isinstance(block, Conditional)
    assert [label for label, _blocks in block.branches] == [
        'if visitor.claims.x == "y"',
        "elif other",
        "else",
    ]


def test_includes_expand_in_place_and_missing_ones_say_so() -> None:
    doc = parse(
        '{% include "../.gitbook/includes/a.md" %}\n\n{% include ".gitbook/includes/b.md" %}'
    )
    assert include_paths(doc) == ["a.md", "b.md"]
    expanded = expand_includes(doc, {"a.md": ("Shared", parse("Hello")), "b.md": None})
    first, second = expanded.blocks
    assert isinstance(first, Include) and first.state == "included" and first.title == "Shared"
    assert first.blocks == (Paragraph((Span("Hello"),)),)
    assert isinstance(second, Include) and second.state == "missing"


def test_hostile_html_never_raises() -> None:
    deep = "<div>" * 5000 + "x" + "</span>" * 10
    assert plain_text(only(parse(deep)).spans) == "x"  # type: ignore[attr-defined]
    assert parse("<table><tr><td><table><tr><td>in</td></tr></table></td></tr></table>").blocks
    assert parse("<pre><code>unclosed").blocks
