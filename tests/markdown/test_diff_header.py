"""Page attribute changes for the diff's header row."""

from __future__ import annotations

from gitbook_tui.markdown.diff import AttributeChange, WordTag, attribute_changes, header_diff
from gitbook_tui.models import RevisionPage


def test_title_change_with_word_highlights() -> None:
    old = {"id": "p1", "title": "Streams and partitions", "path": "streams"}
    new = {"id": "p1", "title": "Streams and partition keys", "path": "streams"}
    (change,) = header_diff(old, new)
    assert change == AttributeChange("title", old["title"], new["title"])
    assert change.kind == "changed"
    words = change.words()
    assert words is not None
    assert [s.text for s in words.old if s.tag is WordTag.DELETE] == ["partitions"]
    assert [s.text for s in words.new if s.tag is WordTag.INSERT] == ["partition keys"]


def test_all_page_attributes_in_display_order() -> None:
    old = {"title": "A", "emoji": "1f4d8", "description": "Old.", "hidden": False, "path": "a"}
    new = {"title": "B", "emoji": None, "description": "New.", "hidden": True, "path": "b/a"}
    changes = header_diff(old, new)
    assert [c.name for c in changes] == ["title", "emoji", "description", "hidden", "path"]
    emoji = changes[1]
    assert emoji.kind == "removed" and emoji.words() is None
    hidden = changes[3]
    assert (hidden.old, hidden.new) == (None, True)


def test_unset_and_empty_are_the_same() -> None:
    assert header_diff({"title": "A", "hidden": False, "description": ""}, {"title": "A"}) == ()


def test_pydantic_page_models_work_too() -> None:
    old = RevisionPage(id="p", title="Guide", emoji="1f680", hidden=None)
    new = RevisionPage(id="p", title="Guide", emoji="1f525", hidden=True)
    assert [(c.name, c.old, c.new) for c in header_diff(old, new)] == [
        ("emoji", "1f680", "1f525"),
        ("hidden", None, True),
    ]


def test_page_created_or_deleted() -> None:
    page = {"title": "New page", "path": "new-page", "hidden": False}
    created = header_diff(None, page)
    assert [(c.name, c.kind) for c in created] == [("title", "added"), ("path", "added")]
    deleted = header_diff(page, None)
    assert [(c.name, c.kind) for c in deleted] == [("title", "removed"), ("path", "removed")]
    assert header_diff(None, None) == ()


def test_from_semantic_change_attributes() -> None:
    attributes = {
        "document": {"before": "doc1", "after": "doc2"},
        "path": {"before": "old", "after": "new"},
        "title": {"before": "Old", "after": "New"},
        "emoji": {"after": "1f600"},
    }
    changes = attribute_changes(attributes)
    assert [(c.name, c.old, c.new) for c in changes] == [
        ("title", "Old", "New"),
        ("emoji", None, "1f600"),
        ("path", "old", "new"),
    ]


def test_hostile_attribute_text_passes_through() -> None:
    title = "[red]x[/] \x1b]8;;https://evil\x1b\\y \u202e"
    (change,) = header_diff({"title": "Plain"}, {"title": title})
    assert change.new == title
