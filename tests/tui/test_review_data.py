"""Pure helpers of the review desk: description text, change labels, conflict page names."""

from __future__ import annotations

from gitbook_tui.tui.review.review_data import conflicting_pages, description_markdown


def test_description_of_a_json_document() -> None:
    doc = {
        "object": "document",
        "nodes": [
            {
                "object": "block",
                "type": "paragraph",
                "nodes": [
                    {"object": "text", "leaves": [{"object": "leaf", "text": "First "}]},
                    {
                        "object": "inline",
                        "type": "link",
                        "nodes": [
                            {"object": "text", "leaves": [{"object": "leaf", "text": "link"}]}
                        ],
                    },
                ],
            },
            {
                "object": "block",
                "type": "list-unordered",
                "nodes": [
                    {
                        "object": "block",
                        "type": "list-item",
                        "nodes": [
                            {"object": "text", "leaves": [{"object": "leaf", "text": "one"}]}
                        ],
                    },
                    {
                        "object": "block",
                        "type": "list-item",
                        "nodes": [
                            {"object": "text", "leaves": [{"object": "leaf", "text": "two"}]}
                        ],
                    },
                ],
            },
        ],
    }
    assert description_markdown(doc) == "First link\n\none\ntwo"
    assert description_markdown({"markdown": "**as is**"}) == "**as is**"
    assert description_markdown(None) == ""


def test_conflicting_pages_from_the_409_message() -> None:
    message = (
        "Cannot merge change request #5: Merge conflict: both sides changed pages "
        "'Streams and partitions' (edited on both: document); 'It's here' (deleted on one side)"
        ". Nothing was changed."
    )
    assert conflicting_pages(message) == ["Streams and partitions", "It's here"]
