"""Plain markdown → block model: every standard block and inline style."""

from __future__ import annotations

from gitbook_tui.markdown import (
    Cards,
    CodeBlock,
    Details,
    Document,
    Figure,
    Footnotes,
    Heading,
    Image,
    ListBlock,
    Paragraph,
    Quote,
    Rule,
    Span,
    Table,
    parse,
    plain_text,
    walk,
)
from support.asserts import only


def test_empty_document() -> None:
    doc = parse("")
    assert doc == Document(blocks=(), headings=(), links=())
    assert parse("\n\n   \n").blocks == ()


def test_headings_levels_and_spans() -> None:
    doc = parse("# One\n\n## Two *it*\n\nSetext\n------\n\n###### Six")
    assert [type(b) for b in doc.blocks] == [Heading] * 4
    levels = [b.level for b in doc.blocks if isinstance(b, Heading)]
    assert levels == [1, 2, 2, 6]
    two = doc.blocks[1]
    assert isinstance(two, Heading)
    assert two.spans == (Span("Two "), Span("it", frozenset({"italic"})))
    assert two.text == "Two it"
    assert doc.headings == (
        (1, "One", "one"),
        (2, "Two it", "two-it"),
        (2, "Setext", "setext"),
        (6, "Six", "six"),
    )


def test_paragraph_inline_styles() -> None:
    para = only(parse("a **b** *c* `d` ~~e~~ ***f*** [g](http://x) **[h `i`](y)**"))
    assert isinstance(para, Paragraph)
    spans = para.spans
    assert Span("b", frozenset({"bold"})) in spans
    assert Span("c", frozenset({"italic"})) in spans
    assert Span("d", frozenset({"code"})) in spans
    assert Span("e", frozenset({"strike"})) in spans
    assert Span("f", frozenset({"bold", "italic"})) in spans
    assert Span("g", frozenset({"link"}), "http://x") in spans
    assert Span("h ", frozenset({"bold", "link"}), "y") in spans
    assert Span("i", frozenset({"bold", "link", "code"}), "y") in spans
    assert plain_text(spans) == "a b c d e f g h i"


def test_adjacent_text_is_merged_into_one_span() -> None:
    para = only(parse("one\ntwo &amp; three\\*"))
    assert para == Paragraph((Span("one two & three*"),))


def test_hard_break_is_a_newline() -> None:
    para = only(parse("one  \ntwo\\\nthree"))
    assert isinstance(para, Paragraph)
    assert plain_text(para.spans) == "one\ntwo\nthree"


def test_links_list_in_document_order() -> None:
    doc = parse(
        "[first](https://a.example) and <https://b.example>\n\n"
        "> [quoted](./page.md)\n\n- [item **bold**](#anchor)\n\n[ref]\n\n[ref]: https://r.example"
    )
    assert doc.links == (
        ("first", "https://a.example"),
        ("https://b.example", "https://b.example"),
        ("quoted", "./page.md"),
        ("item bold", "#anchor"),
        ("ref", "https://r.example"),
    )


def test_fenced_and_indented_code() -> None:
    doc = parse(
        "```python\ndef f():\n    return 1\n```\n\n    indented\n    code\n\n~~~\nplain\n~~~"
    )
    assert doc.blocks == (
        CodeBlock("def f():\n    return 1", "python"),
        CodeBlock("indented\ncode", None),
        CodeBlock("plain", None),
    )


def test_fence_info_title_attribute() -> None:
    block = only(parse('```js title="app.js" lineNumbers="true"\nx()\n```'))
    assert block == CodeBlock("x()", "js", "app.js", True)


def test_fence_info_words_after_the_language_are_its_title() -> None:
    """Found by test_no_word_is_ever_dropped: "~~~~w0 w1" dropped "w1"."""
    assert only(parse("```python example.py\nx()\n```")) == CodeBlock("x()", "python", "example.py")
    assert only(parse("~~~~w0 w1\n~~~~")) == CodeBlock("", "w0", "w1")


def test_code_is_kept_verbatim() -> None:
    code = "a\t<b>\n  {% hint %}\n\x1b[31m**not bold**"
    block = only(parse(f"```\n{code}\n```"))
    assert block == CodeBlock(code, None)


def test_quote_nests_blocks() -> None:
    quote = only(parse("> # Title\n> text\n>\n> > inner"))
    assert isinstance(quote, Quote)
    assert isinstance(quote.blocks[0], Heading)
    assert quote.blocks[1] == Paragraph((Span("text"),))
    inner = quote.blocks[2]
    assert isinstance(inner, Quote)
    assert inner.blocks == (Paragraph((Span("inner"),)),)


def test_bullet_and_ordered_lists() -> None:
    doc = parse("- a\n- b\n  - nested\n\n3. three\n4. four\n")
    bullets, ordered = doc.blocks
    assert isinstance(bullets, ListBlock) and isinstance(ordered, ListBlock)
    assert not bullets.ordered and bullets.start == 1 and bullets.tight
    assert len(bullets.items) == 2
    nested = bullets.items[1].blocks[1]
    assert isinstance(nested, ListBlock)
    assert nested.items[0].blocks == (Paragraph((Span("nested"),)),)
    assert ordered.ordered and ordered.start == 3
    assert [plain_text(i.blocks[0].spans) for i in ordered.items] == ["three", "four"]  # type: ignore[union-attr]


def test_loose_list() -> None:
    block = only(parse("- a\n\n- b\n"))
    assert isinstance(block, ListBlock)
    assert not block.tight


def test_task_list_checked_states() -> None:
    block = only(parse("- [x] done\n- [ ] todo\n- [X] also done\n- plain"))
    assert isinstance(block, ListBlock)
    assert [item.checked for item in block.items] == [True, False, True, None]
    assert block.items[0].blocks == (Paragraph((Span("done"),)),)
    assert block.items[1].blocks == (Paragraph((Span("todo"),)),)


def test_table_cells_and_aligns() -> None:
    table = only(parse("| L | C | R | N |\n|:--|:-:|--:|---|\n| *a* | b | c | d |\n| e |"))
    assert isinstance(table, Table)
    assert table.aligns == ("left", "center", "right", None)
    assert [plain_text(c) for c in table.header] == ["L", "C", "R", "N"]
    assert len(table.rows) == 2
    assert table.rows[0][0] == (Span("a", frozenset({"italic"})),)
    assert [plain_text(c) for c in table.rows[1]] == ["e", "", "", ""]


def test_rule() -> None:
    assert parse("a\n\n---\n\nb").blocks[1] == Rule()
    assert parse("***").blocks == (Rule(),)


def test_markdown_image_alone_is_an_image_block() -> None:
    assert parse('![A cat](cat.png "Title")').blocks == (Image("cat.png", "A cat", "Title"),)
    assert parse("![a](1.png)\n![b](2.png)").blocks == (Image("1.png", "a"), Image("2.png", "b"))


def test_inline_image_in_text_is_a_link_span() -> None:
    para = only(parse("see ![diagram](d.png) here"))
    assert isinstance(para, Paragraph)
    assert Span("diagram", frozenset({"link"}), "d.png") in para.spans
    assert parse("see ![diagram](d.png) here").links == ()


def test_html_img_block() -> None:
    assert parse('<img src="x.png" alt="X" title="T">').blocks == (Image("x.png", "X", "T"),)


def test_gitbook_figure() -> None:
    src = (
        '<figure><img src="../.gitbook/assets/shot.png" alt="Screen"><figcaption>'
        "<p>The <strong>main</strong> screen</p></figcaption></figure>"
    )
    fig = only(parse(src))
    assert isinstance(fig, Figure)
    assert fig.src == "../.gitbook/assets/shot.png"
    assert fig.alt == "Screen"
    assert fig.caption == (
        Span("The "),
        Span("main", frozenset({"bold"})),
        Span(" screen"),
    )


def test_figure_without_caption_multiline() -> None:
    fig = only(parse('<figure>\n<img src="a.png" alt="">\n</figure>'))
    assert fig == Figure("a.png", "", ())


def test_figure_split_by_blank_lines_degrades_to_image_and_text() -> None:
    doc = parse(
        '<figure>\n\n<img src="a.png" alt="A">\n\n<figcaption>Cap</figcaption>\n\n</figure>'
    )
    assert doc.blocks == (Image("a.png", "A"), Paragraph((Span("Cap"),)))


def test_html_paragraph_with_image_and_text() -> None:
    doc = parse('<p align="center"><img src="logo.png" alt="Logo"></p>\n<p>Welcome</p>')
    assert doc.blocks == (Image("logo.png", "Logo"), Paragraph((Span("Welcome"),)))


def test_details_summary() -> None:
    src = "<details>\n\n<summary>More <em>info</em></summary>\n\nHidden **text**\n\n- item\n\n</details>"
    details = only(parse(src))
    assert isinstance(details, Details)
    assert details.summary == (Span("More "), Span("info", frozenset({"italic"})))
    assert details.blocks[0] == Paragraph((Span("Hidden "), Span("text", frozenset({"bold"}))))
    assert isinstance(details.blocks[1], ListBlock)
    assert not details.open


def test_details_compact_and_open() -> None:
    details = only(parse("<details open><summary>Title</summary>\nBody\n</details>"))
    assert details == Details((Span("Title"),), (Paragraph((Span("Body"),)),), open=True)


def test_details_without_summary() -> None:
    details = only(parse("<details>\n\nBody\n\n</details>"))
    assert details == Details((), (Paragraph((Span("Body"),)),))


def test_other_html_becomes_paragraphs_without_tags() -> None:
    doc = parse(
        '<div align="center">\n<p>Hello <b>world</b> &amp; co</p>\n</div>\n\n<!-- hidden -->\n\nAfter'
    )
    assert doc.blocks == (
        Paragraph((Span("Hello "), Span("world", frozenset({"bold"})), Span(" & co"))),
        Paragraph((Span("After"),)),
    )


def test_html_card_table_keeps_cell_text() -> None:
    src = (
        '<table data-view="cards"><thead><tr><th></th></tr></thead><tbody>'
        '<tr><td><strong>Card one</strong></td><td><a href="a.md">a</a></td></tr>'
        "<tr><td>Card two</td></tr></tbody></table>"
    )
    block = only(parse(src))
    assert isinstance(block, Cards)
    assert [plain_text(card.title) for card in block.cards] == ["Card one", "Card two"]
    assert block.cards[0].body == ((Span("a", frozenset({"link"}), "a.md"),),)


def test_inline_html_is_stripped_but_text_kept() -> None:
    para = only(parse('Press <kbd>Ctrl</kbd>+<mark style="color:red">C</mark><br>next'))
    assert isinstance(para, Paragraph)
    assert plain_text(para.spans) == "Press Ctrl+C\nnext"


def test_inline_html_link_and_bold() -> None:
    para = only(parse('Go <a href="https://x.example">there <b>now</b></a>!'))
    assert isinstance(para, Paragraph)
    assert para.spans == (
        Span("Go "),
        Span("there ", frozenset({"link"}), "https://x.example"),
        Span("now", frozenset({"link", "bold"}), "https://x.example"),
        Span("!"),
    )
    assert parse('Go <a href="https://x.example">there</a>').links == (
        ("there", "https://x.example"),
    )


def test_footnotes_collected_at_end() -> None:
    doc = parse("Text[^b] and[^a].\n\n[^a]: Note A.\n[^b]: Note *B*.\n\n[^unused]: Kept too.")
    para, notes = doc.blocks
    assert isinstance(para, Paragraph)
    assert Span("b", frozenset({"footnote_ref"})) in para.spans
    assert Span("a", frozenset({"footnote_ref"})) in para.spans
    assert isinstance(notes, Footnotes)
    assert [label for label, _ in notes.items] == ["b", "a", "unused"]
    assert notes.items[0][1] == (
        Paragraph((Span("Note "), Span("B", frozenset({"italic"})), Span("."))),
    )


def test_undefined_footnote_reference_stays_text() -> None:
    assert parse("Text[^nope].").blocks == (Paragraph((Span("Text[^nope]."),)),)


def test_front_matter_is_stripped() -> None:
    doc = parse("---\ndescription: Secret\nlayout: x\n---\n\n# Title\n")
    assert doc.blocks == (Heading(1, (Span("Title"),), "title"),)


def test_horizontal_rule_at_start_without_front_matter_close() -> None:
    doc = parse("---\ntext")
    assert any(isinstance(b, Paragraph) and plain_text(b.spans) == "text" for b in doc.blocks)


def test_walk_visits_nested_blocks() -> None:
    doc = parse("> - a\n>   > b\n\n| x |\n|---|\n| y |")
    kinds = [type(b).__name__ for b in walk(doc.blocks)]
    assert kinds == ["Quote", "ListBlock", "Paragraph", "Quote", "Paragraph", "Table"]


def test_model_is_immutable_and_hashable() -> None:
    doc = parse("# T\n\n- [x] a\n\n| a |\n|---|\n| b |")
    hash(doc)
    heading = doc.blocks[0]
    try:
        heading.level = 3  # type: ignore[misc, union-attr]
    except AttributeError:
        pass
    else:  # pragma: no cover
        raise AssertionError("blocks must be frozen")
