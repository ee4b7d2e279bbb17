"""Malformed HTML spoils only its own block: the headings and lists around it survive."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gitbook_tui.markdown import Document, Heading, ListBlock, Paragraph, Span, parse
from gitbook_tui.markdown import blocks as block_conversion
from gitbook_tui.markdown.html_tree import parse_fragment
from gitbook_tui.markdown.progressive import ProgressiveParse

# Pieces of broken HTML: declarations, marked sections, comments, processing instructions,
# quotes and brackets in every order (the fuzz's `<p <![{` among them).
_JUNK = st.lists(
    st.sampled_from(
        ["<", ">", "<!", "<![", "<![{", "<!--", "-->", "]]>", "<?", "?>", "</", "/>", "<p", "[",
         "]", "{", "}", '"', "'", "=", "&", "&#", "&#x", ";", "CDATA[", "if", "a", " ", "div"]
    ),
    min_size=1,
    max_size=12,
).map("".join)  # fmt: skip
# A line that opens an HTML block of the kind that ends at a blank line (CommonMark's kind
# 6): `<` or `</`, a block tag name, then a space or the end of the tag. (Not `<details>`:
# like a GitBook tag it opens a container holding what follows, until its end tag.)
_LINE = st.builds(
    lambda slash, tag, gap, junk: f"<{slash}{tag}{gap}{junk}".replace("\n", " "),
    st.sampled_from(["", "/"]),
    st.sampled_from(["p", "div", "table", "ul", "section", "h2", "figure"]),
    st.sampled_from([" ", ">", "/>"]),
    _JUNK,
)


@contextmanager
def fallbacks() -> Iterator[list[logging.LogRecord]]:
    """The records of any parse fallback (a block or the whole page shown as plain text)."""
    records: list[logging.LogRecord] = []
    handler = logging.Handler(logging.ERROR)
    handler.emit = records.append  # type: ignore[method-assign]
    logger = logging.getLogger("gitbook_tui.markdown")
    logger.addHandler(handler)
    try:
        yield records
    finally:
        logger.removeHandler(handler)


def assert_survivors(document: Document) -> None:
    first, last = document.blocks[0], document.blocks[-1]
    assert isinstance(first, Heading) and first.spans == (Span("Title"),)
    assert isinstance(last, ListBlock) and len(last.items) == 2
    assert document.headings[0][1] == "Title"


def test_the_line_of_the_finding() -> None:
    with fallbacks() as failed:
        document = parse("# Title\n\n<p <![{\n\n- item\n- other")
    assert failed == []
    assert_survivors(document)
    assert len(document.blocks) == 3


@settings(
    derandomize=True,
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(_LINE)
@pytest.mark.slow
def test_a_malformed_html_line_never_swallows_the_blocks_around_it(line: str) -> None:
    with fallbacks() as failed:
        document = parse(f"# Title\n\nSome text.\n\n{line}\n\n- item\n- other\n")
    assert failed == [], line
    assert_survivors(document)
    assert document.blocks[1] == Paragraph((Span("Some text."),))


@settings(derandomize=True, max_examples=300, deadline=None)
@given(_JUNK)
@pytest.mark.slow
def test_the_html_tree_builder_never_raises(junk: str) -> None:
    parse_fragment(junk)
    parse_fragment(f"<p {junk}")


def test_a_block_that_fails_to_convert_alone_is_plain_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Whatever the failure (here: the HTML conversion raising), only its block degrades,
    to its source lines, in a whole parse and a progressive one alike."""

    def broken(*_: object) -> list[object]:
        raise RuntimeError("a bug")

    monkeypatch.setattr(block_conversion, "html_block", broken)
    markdown = "# Title\n\n<div class='x'>\n  Hello\n</div>\n\n- item\n- other\n"
    with fallbacks() as failed:
        whole = parse(markdown)
        progressive = ProgressiveParse(markdown, first_step=1, window=False).run()
    assert len(failed) == 2
    assert_survivors(whole)
    assert whole.blocks[1] == Paragraph((Span("<div class='x'>\n  Hello\n</div>"),))
    assert progressive == whole
