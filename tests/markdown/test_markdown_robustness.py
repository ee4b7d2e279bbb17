"""Hostile, broken and huge input: parsing never raises, never hangs, never drops text."""

from __future__ import annotations

import random
import re
import time
from dataclasses import fields, is_dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gitbook_tui.markdown import (
    CodeBlock,
    Document,
    Heading,
    Hint,
    ListBlock,
    Paragraph,
    Span,
    Table,
    Tabs,
    parse,
)
from gitbook_tui.markdown.parser import _parse


def all_text(obj: object) -> str:
    """Every string anywhere in the model (text, code, titles, urls, attrs)."""
    out: list[str] = []

    def visit(node: object) -> None:
        if isinstance(node, str):
            out.append(node)
        elif isinstance(node, tuple | list):
            for item in node:
                visit(item)
        elif isinstance(node, dict):
            for key, value in node.items():
                out.append(key)
                visit(value)
        elif is_dataclass(node) and not isinstance(node, type):
            for f in fields(node):
                visit(getattr(node, f.name))

    visit(obj)
    return "\n".join(out)


# -- malformed GitBook tags -------------------------------------------------


def test_unclosed_tag_runs_to_end_of_document() -> None:
    doc = _parse('Intro\n\n{% hint style="warning" %}\nLost?\n\n# Not lost\n\nEnd')
    intro, hint = doc.blocks
    assert intro == Paragraph((Span("Intro"),))
    assert isinstance(hint, Hint)
    assert [type(b) for b in hint.blocks] == [Paragraph, Heading, Paragraph]


def test_unclosed_tag_runs_to_end_of_its_parent() -> None:
    src = '{% tabs %}\n{% tab title="A" %}\nalpha\n{% tab title="B" %}\nbeta\n{% endtabs %}\nafter'
    doc = _parse(src)
    tabs, after = doc.blocks
    assert isinstance(tabs, Tabs)
    assert after == Paragraph((Span("after"),))
    assert "alpha" in all_text(tabs) and "beta" in all_text(tabs)


def test_stray_end_tags_are_ignored() -> None:
    doc = _parse("{% endtab %}\ntext\n{% endhint %}\n\n{% endtabs %}{% endstepper %}\nmore")
    assert doc.blocks == (Paragraph((Span("text"),)), Paragraph((Span("more"),)))


def test_mismatched_end_tag_closes_the_outer_tag() -> None:
    doc = _parse('{% hint style="info" %}\n{% tabs %}\n{% tab title="T" %}\nx\n{% endhint %}\ny')
    hint, y = doc.blocks
    assert isinstance(hint, Hint)
    assert "x" in all_text(hint)
    assert y == Paragraph((Span("y"),))


def test_unknown_tags_and_garbage_tags() -> None:
    for src in (
        "{% %}",
        "{%",
        "%}",
        "{% endend %}",
        "{% end %}",
        "{% 123 %}",
        '{% hint style="x',
        "{% hint style='unterminated %}\ntext\n{% endhint %}",
        "{%- -%}",
        "{% @figma/embed url='x' %}",
        "<details><details></summary></summary>",
        "</details>\n<summary>x</summary>",
    ):
        doc = _parse(src)
        assert isinstance(doc, Document)


def test_deeply_nested_tags_keep_their_text() -> None:
    depth = 300
    src = "".join(f'{{% hint style="info" %}}\nlevel{k}\n' for k in range(depth))
    src += "".join("{% endhint %}\n" for _ in range(depth))
    doc = _parse(src)
    text = all_text(doc)
    for k in range(depth):
        assert f"level{k}" in text


# -- malformed markdown ------------------------------------------------------


def test_twenty_level_nested_list() -> None:
    src = "".join("  " * k + f"- level{k}\n" for k in range(20))
    doc = _parse(src)
    lst = doc.blocks[0]
    for k in range(20):
        assert isinstance(lst, ListBlock)
        item = lst.items[0]
        assert item.blocks[0] == Paragraph((Span(f"level{k}"),))
        lst = item.blocks[1] if len(item.blocks) > 1 else None  # type: ignore[assignment]
    assert lst is None


def test_absurdly_nested_list_and_quotes_keep_text() -> None:
    src = "".join("  " * k + f"- deep{k}\n" for k in range(400))
    src += ">" * 5000 + " quoted-end\n"
    doc = _parse(src)
    text = all_text(doc)
    assert "deep0" in text and "deep399" in text and "quoted-end" in text


def test_random_bytes_decoded_with_replacement() -> None:
    rng = random.Random(20261122)
    for _ in range(20):
        raw = rng.randbytes(rng.randint(0, 5000))
        doc = _parse(raw.decode("utf-8", errors="replace"))
        assert isinstance(doc, Document)


def test_markup_soup() -> None:
    rng = random.Random(7)
    pieces = [
        "{% hint %}", "{% endhint %}", "{% tabs %}", "{% tab title='x' %}", "{% endtab %}",
        "{% endtabs %}", "{% code %}", "{% endcode %}", "{% embed url='u' %}", "{% endembed %}",
        "```", "~~~", "- ", "1. ", "> ", "# ", "|", "---", "<details>", "</details>",
        "<summary>", "</summary>", "<figure>", "<img src=x>", "[", "]", "(", ")", "*", "_",
        "`", "\\", "[^1]", "[^1]: ", "\n", "\n\n", "    ", "\t", "word", "\x00", "\r",
    ]  # fmt: skip
    for _ in range(300):
        src = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 120)))
        assert isinstance(_parse(src), Document)


def test_control_characters_are_kept_in_the_model() -> None:
    doc = _parse("a\x1b[31mred\x07 \u202eevil")
    assert doc.blocks == (Paragraph((Span("a\x1b[31mred\x07 \u202eevil"),)),)


_WORD = st.from_regex(r"w[0-9]{1,4}", fullmatch=True)
_MARKUP = st.sampled_from(
    [
        "\n", "\n\n", " ", "- ", "1. ", "> ", "# ", "## ", "**", "*", "`", "~~", "  ",
        "```\n", "\n```\n", "| ", " |", "\n|---|---|\n",
        '\n{% hint style="info" %}\n', "\n{% endhint %}\n", "\n{% tabs %}\n",
        '\n{% tab title="T" %}\n', "\n{% endtab %}\n", "\n{% endtabs %}\n",
        "\n{% stepper %}\n", "\n{% step %}\n", "\n{% endstep %}\n", "\n{% columns %}\n",
        "\n{% column %}\n", "\n{% endcolumn %}\n", '\n{% code title="c" %}\n',
        "\n{% endcode %}\n", '\n{% embed url="https://e.example" %}\n', "\n{% endembed %}\n",
        '\n{% file src="f.pdf" %}\n', "\n{% endfile %}\n", "\n{% unknown %}\n",
        "\n{% endunknown %}\n", "\n<details>\n", "\n<summary>", "</summary>\n",
        "\n</details>\n", '{% hint style="info" %}', "{% endhint %}",
    ]
)  # fmt: skip


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(_WORD, _MARKUP), max_size=80))
@pytest.mark.slow
def test_no_word_is_ever_dropped(parts: list[str]) -> None:
    """Whatever the tag/markdown structure, every word of user text survives."""
    src = "".join(p + " " if re.fullmatch(r"w\d+", p) else p for p in parts)
    doc = _parse(src)
    text = all_text(doc)
    for word in re.findall(r"w\d+", src):
        assert word in text, (word, src, doc)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=2000))
def test_parse_never_raises_on_arbitrary_text(src: str) -> None:
    doc = _parse(src)
    assert isinstance(doc, Document)


@settings(max_examples=150, deadline=None)
@given(
    st.text(
        alphabet=st.sampled_from(
            list("{%}<>/[]()!*_`~#>-|:=\"' \n\tabdehilmnrstuy^\\&;0123456789")
        ),
        max_size=1500,
    )
)
def test_parse_never_raises_on_markup_heavy_text(src: str) -> None:
    assert isinstance(_parse(src), Document)


# -- size and speed ------------------------------------------------------------


def _big_document(target: int = 1_000_000) -> str:
    rng = random.Random(1)
    words = [
        "the",
        "quick",
        "brown",
        "fox",
        "jumps",
        "over",
        "lazy",
        "dog",
        "documentation",
        "workspace",
        "terminal",
        "markdown",
        "parser",
        "block",
        "model",
        "render",
        "viewer",
        "fast",
        "window",
        "keyboard",
        "driven",
    ]

    def prose(n: int) -> str:
        return " ".join(rng.choice(words) for _ in range(n))

    parts: list[str] = []
    size = 0
    i = 0
    while size < target:
        chunk = (
            f"## Section {i}\n\n"
            + "".join(
                f"{prose(50)} [link {i}](https://example.com/{i}) {prose(30)} `code` **bold** "
                f"{prose(40)}.\n{prose(30)}\n\n"
                for _ in range(3)
            )
            + "| A | B |\n|---|:-:|\n"
            + "".join(f"| {prose(3)} | {prose(4)} |\n" for _ in range(5))
            + "\n```python\n"
            + "".join(f"x_{k} = {k}  # {prose(5)}\n" for k in range(10))
            + "```\n\n"
            + f"- {prose(12)}\n- [x] {prose(12)}\n\n"
            + '{% hint style="info" %}\n'
            + prose(30)
            + "\n{% endhint %}\n\n"
            + '{% tabs %}\n{% tab title="One" %}\n'
            + prose(20)
            + "\n{% endtab %}\n{% endtabs %}\n\n"
        )
        parts.append(chunk)
        size += len(chunk)
        i += 1
    return "".join(parts)


def test_one_megabyte_document_parses() -> None:
    src = _big_document()
    assert len(src) >= 1_000_000
    started = time.perf_counter()
    doc = parse(src)
    elapsed = time.perf_counter() - started
    headings = [b for b in doc.blocks if isinstance(b, Heading)]
    sections = src.count("\n## Section ") + 1
    assert len(headings) == len(doc.headings) == sections
    assert len({anchor for _, _, anchor in doc.headings}) == sections
    assert sum(isinstance(b, Table) for b in doc.blocks) == sections
    assert sum(isinstance(b, CodeBlock) for b in doc.blocks) == sections
    assert sum(isinstance(b, Tabs) for b in doc.blocks) == sections
    assert len(doc.links) == 3 * sections
    # generous bound: shared CI machines are slow; it takes ~0.2-0.4 s on one idle core
    assert elapsed < 10, elapsed


@pytest.mark.parametrize(
    "src",
    [
        pytest.param("[" * 200_000, id="open-brackets"),
        pytest.param("[[]" * 70_000, id="unbalanced-brackets"),
        pytest.param("[" * 50_000 + "]" * 50_000, id="deep-brackets"),
        pytest.param("![" * 100_000, id="image-brackets"),
        pytest.param('{% a "' * 100_000 + " %}", id="unterminated-tag-quotes"),
        pytest.param("{%" * 300_000, id="tag-openers"),
        pytest.param("{% hint %}\n" * 50_000, id="unclosed-hints"),
        pytest.param("{% endtab %}\n" * 50_000, id="stray-ends"),
        pytest.param("<details>" * 50_000, id="details"),
        pytest.param("<figure>" * 50_000, id="figures"),
        pytest.param("<img src=x " * 50_000, id="imgs"),
    ],
)
@pytest.mark.slow
def test_hostile_input_is_not_quadratic(src: str) -> None:
    """Over 5 s under load for the largest inputs: each is parsed whole to show the parse stays linear."""
    started = time.perf_counter()
    doc = parse(src)
    assert isinstance(doc, Document)
    assert time.perf_counter() - started < 15
