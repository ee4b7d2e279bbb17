"""GitBook ``{% tag %}`` blocks: every known tag, nesting, attributes, odd layouts."""

from __future__ import annotations

import pytest

from gitbook_tui.markdown import (
    CodeBlock,
    Columns,
    ContentRef,
    Document,
    EmbedCard,
    FileBlock,
    Heading,
    Hint,
    Include,
    ListBlock,
    OpenAPICard,
    Paragraph,
    Quote,
    Span,
    Step,
    Stepper,
    Tab,
    Tabs,
    UnknownBlock,
    Update,
    Updates,
    parse,
    plain_text,
)
from gitbook_tui.markdown.tags import parse_attrs, parse_marker, preprocess
from support.asserts import only


def p(text: str) -> Paragraph:
    return Paragraph((Span(text),))


@pytest.mark.parametrize("style", ["info", "success", "warning", "danger"])
def test_hint_styles(style: str) -> None:
    hint = only(parse(f'{{% hint style="{style}" %}}\nCareful **here**.\n{{% endhint %}}'))
    assert isinstance(hint, Hint)
    assert hint.style == style
    assert hint.blocks == (
        Paragraph((Span("Careful "), Span("here", frozenset({"bold"})), Span("."))),
    )


@pytest.mark.parametrize(
    ("given", "expected"), [("", "info"), ("bogus", "info"), ("WARNING", "warning")]
)
def test_hint_style_fallbacks(given: str, expected: str) -> None:
    attr = f' style="{given}"' if given else ""
    hint = only(parse(f"{{% hint{attr} %}}\nx\n{{% endhint %}}"))
    assert isinstance(hint, Hint) and hint.style == expected


def test_hint_with_several_blocks_and_no_blank_lines() -> None:
    src = 'Before\n{% hint style="info" %}\n# Title\n- a\n- b\n```sh\nls\n```\n{% endhint %}\nAfter'
    doc = parse(src)
    assert doc.blocks[0] == p("Before")
    hint = doc.blocks[1]
    assert isinstance(hint, Hint)
    assert [type(b) for b in hint.blocks] == [Heading, ListBlock, CodeBlock]
    assert doc.blocks[2] == p("After")


def test_tabs_titles_and_content() -> None:
    src = """{% tabs %}
{% tab title="Python" %}
```python
print("hi")
```
{% endtab %}

{% tab title="Node.js (npm)" %}
Run `npm i`.
{% endtab %}
{% endtabs %}"""
    tabs = only(parse(src))
    assert isinstance(tabs, Tabs)
    assert [t.title for t in tabs.tabs] == ["Python", "Node.js (npm)"]
    assert tabs.tabs[0].blocks == (CodeBlock('print("hi")', "python"),)
    assert tabs.tabs[1].blocks == (
        Paragraph((Span("Run "), Span("npm i", frozenset({"code"})), Span("."))),
    )


def test_code_with_title_inside_tab_inside_stepper_step() -> None:
    src = """{% stepper %}
{% step %}
### Install

{% tabs %}
{% tab title="macOS" %}
{% code title="install.sh" lineNumbers="true" %}
```bash
brew install tool
```
{% endcode %}

{% hint style="warning" %}
Needs Homebrew.
{% endhint %}
{% endtab %}
{% endtabs %}
{% endstep %}

{% step %}
### Run
Done.
{% endstep %}
{% endstepper %}"""
    stepper = only(parse(src))
    assert isinstance(stepper, Stepper)
    assert len(stepper.steps) == 2
    first = stepper.steps[0]
    assert first.title is None
    assert isinstance(first.blocks[0], Heading) and first.blocks[0].text == "Install"
    tabs = first.blocks[1]
    assert isinstance(tabs, Tabs)
    (tab,) = tabs.tabs
    assert tab.title == "macOS"
    assert tab.blocks[0] == CodeBlock("brew install tool", "bash", "install.sh", True)
    assert tab.blocks[1] == Hint("warning", (p("Needs Homebrew."),))
    assert stepper.steps[1].blocks[1] == p("Done.")


def test_step_title_attribute() -> None:
    stepper = only(
        parse('{% stepper %}\n{% step title="One" %}\nx\n{% endstep %}\n{% endstepper %}')
    )
    assert stepper == Stepper((Step("One", (p("x"),)),))


def test_code_tag_without_line_numbers() -> None:
    block = only(parse('{% code title="a.py" overflow="wrap" %}\n```py\nx = 1\n```\n{% endcode %}'))
    assert block == CodeBlock("x = 1", "py", "a.py", False)


def test_columns() -> None:
    src = """{% columns %}
{% column width="50%" %}
Left **side**
{% endcolumn %}

{% column %}
Right
{% endcolumn %}

{% column %}
![pic](pic.png)
{% endcolumn %}
{% endcolumns %}"""
    columns = only(parse(src))
    assert isinstance(columns, Columns)
    assert len(columns.columns) == 3
    assert plain_text(columns.columns[0][0].spans) == "Left side"  # type: ignore[union-attr]
    assert columns.columns[1] == (p("Right"),)


def test_updates_dates() -> None:
    src = """{% updates format="full" %}
{% update date="2024-05-01" %}
## New editor
Faster.
{% endupdate %}
{% update date="2024-04-02" %}
Fixes.
{% endupdate %}
{% endupdates %}"""
    updates = only(parse(src))
    assert isinstance(updates, Updates)
    assert [u.date for u in updates.updates] == ["2024-05-01", "2024-04-02"]
    assert updates.updates[1] == Update("2024-04-02", (p("Fixes."),))


def test_openapi_card() -> None:
    src = """{% openapi src="https://petstore3.swagger.io/api/v3/openapi.json" path="/pet" method="post" %}
[https://petstore3.swagger.io/api/v3/openapi.json](https://petstore3.swagger.io/api/v3/openapi.json)
{% endopenapi %}"""
    card = only(parse(src))
    assert isinstance(card, OpenAPICard)
    assert card.kind == "openapi"
    assert card.src == "https://petstore3.swagger.io/api/v3/openapi.json"
    assert (card.path, card.method) == ("/pet", "post")
    assert len(card.blocks) == 1


def test_openapi_operation_uses_spec_name() -> None:
    src = '{% openapi-operation spec="petstore" path="/pet/{petId}" method="get" %}\n{% endopenapi-operation %}'
    card = only(parse(src))
    assert card == OpenAPICard("petstore", "/pet/{petId}", "get", (), "openapi")


def test_swagger_card_with_nested_tags() -> None:
    src = """{% swagger method="get" path="/pets/{id}" baseUrl="https://api.example" summary="Get pet" %}
{% swagger-description %}
Returns one pet.
{% endswagger-description %}

{% swagger-parameter in="path" name="id" type="integer" required="true" %}
Pet id
{% endswagger-parameter %}
{% endswagger %}"""
    card = only(parse(src))
    assert isinstance(card, OpenAPICard)
    assert card.kind == "swagger"
    assert (card.src, card.path, card.method) == ("https://api.example", "/pets/{id}", "get")
    desc, param = card.blocks
    assert desc == UnknownBlock("swagger-description", {}, (p("Returns one pet."),))
    assert isinstance(param, UnknownBlock)
    assert param.tag == "swagger-parameter"
    assert param.attrs == {"in": "path", "name": "id", "type": "integer", "required": "true"}
    assert param.blocks == (p("Pet id"),)


def test_embed_self_closing_and_with_caption() -> None:
    doc = parse(
        '{% embed url="https://www.youtube.com/watch?v=abc" %}\n\n'
        'Text\n\n{% embed url="https://github.com/x/y" %}\nThe **repo**\n{% endembed %}'
    )
    first, text, second = doc.blocks
    assert first == EmbedCard("https://www.youtube.com/watch?v=abc", ())
    assert text == p("Text")
    assert second == EmbedCard(
        "https://github.com/x/y", (Span("The "), Span("repo", frozenset({"bold"})))
    )
    assert doc.links == (
        ("https://www.youtube.com/watch?v=abc", "https://www.youtube.com/watch?v=abc"),
        ("The repo", "https://github.com/x/y"),
    )


def test_embed_without_end_tag_does_not_swallow_following_text() -> None:
    doc = parse('{% embed url="https://a.example" %}\nNext paragraph\n\n# Heading')
    assert doc.blocks[0] == EmbedCard("https://a.example", ())
    assert doc.blocks[1] == p("Next paragraph")
    assert isinstance(doc.blocks[2], Heading)


def test_file_with_and_without_caption() -> None:
    doc = parse(
        '{% file src="../.gitbook/assets/report.pdf" %}\n\n'
        '{% file src="a.zip" %}\nAll the sources\n{% endfile %}'
    )
    assert doc.blocks == (
        FileBlock("../.gitbook/assets/report.pdf", ()),
        FileBlock("a.zip", (Span("All the sources"),)),
    )


def test_include() -> None:
    assert parse('{% include "../.gitbook/includes/note.md" %}').blocks == (
        Include("../.gitbook/includes/note.md"),
    )
    assert parse("{% include path='x.md' %}").blocks == (Include("x.md"),)


def test_content_ref_multiline_and_single_line() -> None:
    doc = parse(
        '{% content-ref url="setup/install.md" %}\n[install.md](setup/install.md)\n{% endcontent-ref %}\n\n'
        '{% content-ref url="api.md" %}[API reference](api.md){% endcontent-ref %}'
    )
    assert doc.blocks == (
        ContentRef("setup/install.md", "install.md"),
        ContentRef("api.md", "API reference"),
    )
    assert doc.links == (("install.md", "setup/install.md"), ("API reference", "api.md"))


def test_content_ref_without_body_uses_url() -> None:
    doc = parse('{% content-ref url="x.md" %}\n{% endcontent-ref %}')
    assert doc.blocks == (ContentRef("x.md", "x.md"),)
    assert doc.links == (("x.md", "x.md"),)


def test_unknown_tag_keeps_name_attrs_and_content() -> None:
    doc = parse(
        '{% swagger-response status="200: OK" description="Fine" %}\nBody **text**\n{% endswagger-response %}'
    )
    block = only(doc)
    assert isinstance(block, UnknownBlock)
    assert block.tag == "swagger-response"
    assert block.attrs == {"status": "200: OK", "description": "Fine"}
    assert plain_text(block.blocks[0].spans) == "Body text"  # type: ignore[union-attr]


def test_unknown_tag_without_end_is_self_closing() -> None:
    doc = parse('{% youtube id="abc" %}\nText after')
    assert doc.blocks == (UnknownBlock("youtube", {"id": "abc"}, ()), p("Text after"))


def test_unknown_positional_args_are_kept() -> None:
    block = only(parse('{% raw "a b" %}\nx\n{% endraw %}'))
    assert block == UnknownBlock("raw", {"arg0": "a b"}, (p("x"),))


def test_tags_inline_on_one_line_with_content() -> None:
    doc = parse('{% hint style="success" %}All **good**{% endhint %}')
    assert doc.blocks == (
        Hint("success", (Paragraph((Span("All "), Span("good", frozenset({"bold"})))),)),
    )


def test_end_tag_glued_to_text() -> None:
    doc = parse('{% hint style="info" %}\nsome text{% endhint %}\nafter')
    assert doc.blocks == (Hint("info", (p("some text"),)), p("after"))


def test_tags_without_blank_lines_interrupt_paragraphs() -> None:
    doc = parse('para one\n{% hint style="danger" %}\nin hint\n{% endhint %}\npara two')
    assert doc.blocks == (p("para one"), Hint("danger", (p("in hint"),)), p("para two"))


def test_tag_in_a_list_item() -> None:
    src = '1. First\n\n   {% hint style="info" %}\n   Inside the item.\n   {% endhint %}\n2. Second'
    block = only(parse(src))
    assert isinstance(block, ListBlock)
    first, second = block.items
    assert first.blocks == (p("First"), Hint("info", (p("Inside the item."),)))
    assert second.blocks == (p("Second"),)


def test_tag_in_a_blockquote() -> None:
    doc = parse('> {% hint style="info" %}\n> quoted hint\n> {% endhint %}')
    quote = only(doc)
    assert isinstance(quote, Quote)
    assert quote.blocks == (Hint("info", (p("quoted hint"),)),)


def test_less_indented_content_in_an_indented_tag_is_kept() -> None:
    doc = parse('- item\n  {% hint style="info" %}\nflush left\n  {% endhint %}')
    texts = [plain_text(b.spans) for b in _paragraphs(doc)]
    assert "flush left" in texts


def test_tags_inside_code_fences_are_literal() -> None:
    src = '```liquid\n{% hint style="info" %}Note{% endhint %}\n{% endtabs %}\n```\n\nAfter'
    doc = parse(src)
    assert doc.blocks == (
        CodeBlock('{% hint style="info" %}Note{% endhint %}\n{% endtabs %}', "liquid"),
        p("After"),
    )


def test_attribute_values_with_spaces_quotes_and_percent() -> None:
    tabs = only(
        parse(
            "{% tabs %}\n{% tab title='Single quoted, with spaces' %}\na\n{% endtab %}\n"
            '{% tab title="Say \\"hi\\" 100%}" %}\nb\n{% endtab %}\n{% endtabs %}'
        )
    )
    assert isinstance(tabs, Tabs)
    assert [t.title for t in tabs.tabs] == ["Single quoted, with spaces", 'Say "hi" 100%}']


def test_whitespace_control_dashes_and_case() -> None:
    hint = only(parse('{%- HINT style="warning" -%}\nx\n{%- ENDHINT -%}'))
    assert hint == Hint("warning", (p("x"),))


def test_tag_mid_sentence_stays_text() -> None:
    doc = parse('Use {% embed url="x" %} inline.')
    assert doc.blocks == (p('Use {% embed url="x" %} inline.'),)


def test_orphan_tab_and_step_are_grouped() -> None:
    doc = parse(
        '{% tab title="A" %}\na\n{% endtab %}\n{% tab title="B" %}\nb\n{% endtab %}\n\n'
        "{% step %}\ns\n{% endstep %}"
    )
    assert doc.blocks == (
        Tabs((Tab("A", (p("a"),)), Tab("B", (p("b"),)))),
        Stepper((Step(None, (p("s"),)),)),
    )


def test_stray_content_between_tabs_is_kept_in_an_untitled_tab() -> None:
    src = '{% tabs %}\nintro\n{% tab title="A" %}\na\n{% endtab %}\n{% endtabs %}'
    tabs = only(parse(src))
    assert tabs == Tabs((Tab("", (p("intro"),)), Tab("A", (p("a"),))))


def test_heading_anchors_include_headings_in_tags() -> None:
    doc = parse('# Intro\n{% tabs %}\n{% tab title="A" %}\n## Intro\n{% endtab %}\n{% endtabs %}')
    assert doc.headings == ((1, "Intro", "intro"), (2, "Intro", "intro-1"))


def test_parse_attrs() -> None:
    attrs, args = parse_attrs('a="x y" b=\'z\' c=bare flag "pos one" d = "spaced"')
    assert attrs == {"a": "x y", "b": "z", "c": "bare", "flag": "", "d": "spaced"}
    assert args == ("pos one",)


def test_parse_marker() -> None:
    info = parse_marker('{% embed url="u" %}')
    assert info is not None and info.name == "embed" and not info.end and info.attrs == {"url": "u"}
    end = parse_marker("{% endembed %}")
    assert end is not None and end.end and end.name == "embed"
    assert parse_marker("{%  %}") is None
    details = parse_marker("<details open>")
    assert details is not None and details.name == "html:details" and "open" in details.attrs


def test_preprocess_pairs_and_keeps_text() -> None:
    src = '{% hint style="info" %}Note{% endhint %}\n```\n{% tab %}\n```\n{% endtab %}'
    out, table = preprocess(src)
    assert out.split("\n")[:3] == ['{% hint style="info" %}', "Note", "{% endhint %}"]
    assert table.closes == {0: 2}
    assert 4 not in table.tags  # inside the fence
    assert table.tags[6].end  # the stray end tag is known (and ignored later)


def test_preprocess_normalises_newlines() -> None:
    out, _ = preprocess("a\r\nb\rc\0")
    assert out == "a\nb\nc\ufffd"


def _paragraphs(doc: Document) -> list[Paragraph]:
    from gitbook_tui.markdown import walk

    return [b for b in walk(doc.blocks) if isinstance(b, Paragraph)]
