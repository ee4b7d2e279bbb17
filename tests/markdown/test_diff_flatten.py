"""Flattening a parsed page into display blocks: kinds, paths, parts, keys, renderables."""

from __future__ import annotations

from gitbook_tui.markdown import (
    CodeBlock,
    Document,
    Hint,
    ListBlock,
    Paragraph,
    Span,
    Table,
    Tabs,
    parse,
)
from gitbook_tui.markdown.diff import BlockKind, DisplayBlock, flatten
from support.markdown_samples import COLUMNS

PAGE = """# Install the CLI

{% hint style="warning" %}
Back up `tided.toml` first.
{% endhint %}

{% tabs %}
{% tab title="Python" %}
{% stepper %}
{% step %}
### Create a virtualenv
Run the command:

```bash
python -m venv .venv
source .venv/bin/activate
```
{% endstep %}
{% step %}
### Install
Then `pip install tide`.
{% endstep %}
{% endstepper %}
{% endtab %}
{% tab title="Docker" %}
Pull the image.
{% endtab %}
{% endtabs %}

| Key | Default |
| --- | ------- |
| retention | 7d |
| segment | 1GiB |

- first item
- second item

  with a second paragraph
- [x] done task

<details>
<summary>Why a virtualenv?</summary>

Keeps packages apart.

</details>
"""


def kinds(blocks: tuple[DisplayBlock, ...]) -> list[str]:
    return [block.kind.value for block in blocks]


def test_page_flattens_into_display_blocks_in_reading_order() -> None:
    blocks = flatten(parse(PAGE))
    assert [(b.kind.value, b.text) for b in blocks] == [
        ("heading", "Install the CLI"),
        ("hint", "warning"),
        ("paragraph", "Back up tided.toml first."),
        ("tab", "Python"),
        ("step", ""),
        ("heading", "Create a virtualenv"),
        ("paragraph", "Run the command:"),
        ("code_line", "python -m venv .venv"),
        ("code_line", "source .venv/bin/activate"),
        ("step", ""),
        ("heading", "Install"),
        ("paragraph", "Then pip install tide."),
        ("tab", "Docker"),
        ("paragraph", "Pull the image."),
        ("table_header", "Key | Default"),
        ("table_row", "retention | 7d"),
        ("table_row", "segment | 1GiB"),
        ("list_item", "first item"),
        ("list_item", "second item"),
        ("paragraph", "with a second paragraph"),
        ("list_item", "done task"),
        ("details", "Why a virtualenv?"),
        ("paragraph", "Keeps packages apart."),
    ]


def test_paths_name_the_containers_a_block_sits_in() -> None:
    blocks = flatten(parse(PAGE))
    by_text = {b.text: b for b in blocks}
    assert by_text["Install the CLI"].path == ""
    assert by_text["Back up tided.toml first."].path == "Hint"
    assert by_text["python -m venv .venv"].path == "Tab 'Python' › Step 1"
    assert by_text["python -m venv .venv"].depth == 2
    assert by_text["Then pip install tide."].path == "Tab 'Python' › Step 2"
    assert by_text["Pull the image."].path == "Tab 'Docker'"
    assert by_text["with a second paragraph"].path == "Item 2"
    assert by_text["Keeps packages apart."].path == "Details"
    # The nearest heading above, whatever the nesting.
    assert by_text["Then pip install tide."].section == "Install"
    assert by_text["retention | 7d"].section == "Install"


def test_rows_lines_and_items_point_back_at_their_source_block() -> None:
    document = parse(PAGE)
    blocks = flatten(document)
    row = next(b for b in blocks if b.text == "segment | 1GiB")
    assert isinstance(row.source, Table) and row.part == 1
    assert row.source is document.blocks[row.top]
    line = next(b for b in blocks if b.text == "source .venv/bin/activate")
    assert isinstance(line.source, CodeBlock) and line.part == 1 and line.variant == "bash"
    assert isinstance(document.blocks[line.top], Tabs)
    item = next(b for b in blocks if b.text == "done task")
    assert isinstance(item.source, ListBlock) and item.part == 2 and item.variant == "done"
    hint = next(b for b in blocks if b.kind is BlockKind.HINT)
    assert isinstance(hint.source, Hint) and hint.is_container and hint.variant == "warning"


def test_renderable_is_a_stand_alone_block_for_the_page_renderer() -> None:
    blocks = flatten(parse(PAGE))
    row = next(b for b in blocks if b.text == "segment | 1GiB")
    table = row.renderable()
    assert isinstance(table, Table) and len(table.rows) == 1
    assert table.header == row.source.header  # type: ignore[union-attr]
    line = next(b for b in blocks if b.text == "source .venv/bin/activate")
    assert line.renderable() == CodeBlock("source .venv/bin/activate", "bash")
    item = next(b for b in blocks if b.text == "second item").renderable()
    assert isinstance(item, ListBlock) and len(item.items) == 1
    assert item.items[0].blocks == (Paragraph((Span("second item"),)),)
    hint = next(b for b in blocks if b.kind is BlockKind.HINT).renderable()
    assert hint == Hint("warning", ())
    paragraph = next(b for b in blocks if b.text == "Pull the image.")
    assert paragraph.renderable() is paragraph.source


def test_equality_is_the_key_not_the_place() -> None:
    one = flatten(parse("Same words.\n\n{% hint %}\nSame words.\n{% endhint %}"))
    assert one[0] == one[2] and hash(one[0]) == hash(one[2])
    assert one[0].path != one[2].path
    assert flatten(parse("```py\nx = 1\n```"))[0] != flatten(parse("```js\nx = 1\n```"))[0]


def test_formatting_alone_makes_blocks_differ() -> None:
    plain, bold, link = (
        flatten(parse(text))[0]
        for text in (
            "Read the guide.",
            "Read the **guide**.",
            "Read the [guide](https://a.example).",
        )
    )
    assert plain.text == bold.text == link.text == "Read the guide."
    assert len({plain, bold, link}) == 3
    other = flatten(parse("Read the [guide](https://b.example)."))[0]
    assert other != link


def test_heading_level_is_part_of_the_key() -> None:
    h2, h3 = (flatten(parse(text))[0] for text in ("## Setup", "### Setup"))
    assert (h2.variant, h3.variant) == ("h2", "h3")
    assert h2 != h3


def test_missing_and_empty_pages_have_no_blocks() -> None:
    assert flatten(None) == ()
    assert flatten(parse("")) == ()
    assert flatten(Document(())) == ()


def test_every_block_type_flattens_without_loss() -> None:
    page = (
        COLUMNS
        + """{% updates format="full" %}
{% update date="2026-01-02" %}
Shipped.
{% endupdate %}
{% endupdates %}

{% embed url="https://video.example/v" %}
Demo video
{% endembed %}

{% content-ref url="setup.md" %}
[Setup](setup.md)
{% endcontent-ref %}

{% file src=".gitbook/assets/a.pdf" %}
The spec
{% endfile %}

> quoted

***

{% include "snippet.md" %}

{% mystery kind="x" %}
Inside
{% endmystery %}

Text with a note[^1].

[^1]: The note.
"""
    )
    blocks = flatten(parse(page))
    found = {b.kind for b in blocks}
    assert {
        BlockKind.COLUMN,
        BlockKind.UPDATE,
        BlockKind.EMBED,
        BlockKind.CONTENT_REF,
        BlockKind.FILE,
        BlockKind.QUOTE,
        BlockKind.RULE,
        BlockKind.TAG,
        BlockKind.FOOTNOTE,
    } <= found
    texts = [b.text for b in blocks]
    for text in ("Left", "Right", "Shipped.", "quoted", "Inside", "The note."):
        assert text in texts
    right = next(b for b in blocks if b.text == "Right")
    assert right.path == "Column 2"
    for block in blocks:
        block.renderable()  # never raises


def test_hostile_text_is_carried_as_is() -> None:
    hostile = "[bold red]x[/] [@click=app.quit]y[/] \x1b]8;;https://evil\x1b\\z \u202e"
    document = Document((Paragraph((Span(hostile),)), CodeBlock(hostile, "[red]")))
    blocks = flatten(document)
    assert blocks[0].text == hostile
    assert blocks[1].text == hostile and blocks[1].variant == "[red]"
