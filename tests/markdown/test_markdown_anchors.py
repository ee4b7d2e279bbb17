"""Heading anchors: GitBook-style slugs, unique per document."""

from __future__ import annotations

import pytest

from gitbook_tui.markdown import Heading, parse
from gitbook_tui.markdown.anchors import AnchorRegistry, slugify


@pytest.mark.parametrize(
    ("title", "slug"),
    [
        ("Getting Started", "getting-started"),
        ("  Spaces   around  ", "spaces-around"),
        ("What's new in v2.0?", "whats-new-in-v20"),
        ("API & SDK (beta)", "api-sdk-beta"),
        ("snake_case_name", "snake_case_name"),
        ("Already-dashed -- title", "already-dashed-title"),
        ("Über uns", "über-uns"),
        ("日本語 ガイド", "日本語-ガイド"),
        ("🚀 Launch", "launch"),
        ("🚀", "section"),
        ("", "section"),
    ],
)
def test_slugify(title: str, slug: str) -> None:
    assert slugify(title) == slug


def test_duplicates_get_numbered_suffixes() -> None:
    registry = AnchorRegistry()
    assert [registry.anchor("Intro") for _ in range(4)] == [
        "intro",
        "intro-1",
        "intro-2",
        "intro-3",
    ]


def test_suffix_skips_anchors_already_taken() -> None:
    registry = AnchorRegistry()
    assert registry.anchor("Intro 1") == "intro-1"
    assert registry.anchor("Intro") == "intro"
    assert registry.anchor("Intro") == "intro-2"
    assert registry.anchor("Intro-2") == "intro-2-1"


def test_document_headings_and_anchors() -> None:
    doc = parse("# Setup\n\n## Install\n\n## Install\n\n### `code` *and* **bold**\n\n# Setup")
    assert doc.headings == (
        (1, "Setup", "setup"),
        (2, "Install", "install"),
        (2, "Install", "install-1"),
        (3, "code and bold", "code-and-bold"),
        (1, "Setup", "setup-1"),
    )
    anchors = [b.anchor for b in doc.blocks if isinstance(b, Heading)]
    assert anchors == [a for _, _, a in doc.headings]


def test_anchors_are_stable_across_parses() -> None:
    src = "# A\n\n# A\n\n## B?"
    assert parse(src).headings == parse(src).headings


def test_many_duplicates_are_fast() -> None:
    doc = parse("# x\n\n" * 5000)
    anchors = [a for _, _, a in doc.headings]
    assert len(set(anchors)) == 5000
    assert anchors[-1] == "x-4999"
