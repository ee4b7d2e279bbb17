"""Data helpers of the review desk: description text, change labels, conflict page names,
and both sides of a changed page loaded and diffed."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from gitbook_tui.api import NotFoundError
from gitbook_tui.markdown import parse
from gitbook_tui.markdown.diff import LazyRows, diff_documents
from gitbook_tui.models import ChangeRequest, RevisionPage
from gitbook_tui.tui.review import page_diff
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


class _Content:
    """The two reads load_page_diff makes; the change request's side arrives after the
    base has been cut into chunks (or is missing)."""

    def __init__(self, old: str | None, new: str | None) -> None:
        self.old, self.new = old, new
        self.base_cut = asyncio.Event()

    async def revision_page(self, *_args: object, **_kwargs: object) -> RevisionPage:
        if self.old is None:
            raise NotFoundError(404, "no such page", "GET", "/page")
        return RevisionPage(id="p", title="Old", markdown=self.old)

    async def get_page(self, *_args: object, **_kwargs: object) -> RevisionPage:
        await asyncio.wait_for(self.base_cut.wait(), timeout=60)
        if self.new is None:
            raise NotFoundError(404, "no such page", "GET", "/page")
        return RevisionPage(id="p", title="New", markdown=self.new)


OLD_PAGE = "# Title\n\n" + "\n\n".join(f"Paragraph {i} of the page." for i in range(50)) + "\n"
NEW_PAGE = OLD_PAGE.replace("Paragraph 20 of", "Paragraph 20, reworded, of")


@pytest.mark.parametrize(
    ("kind", "old", "new"),
    [
        ("page_edited", OLD_PAGE, NEW_PAGE),
        ("page_created", None, NEW_PAGE),
        ("page_deleted", OLD_PAGE, None),
    ],
)
async def test_load_page_diff_cuts_the_base_while_the_other_side_loads(
    monkeypatch: pytest.MonkeyPatch, kind: str, old: str | None, new: str | None
) -> None:
    content = _Content(old, new)
    cut = page_diff.cut_base

    loop = asyncio.get_running_loop()

    def cut_and_tell(markdown: str) -> Any:  # runs in a worker thread
        try:
            return cut(markdown)
        finally:
            loop.call_soon_threadsafe(content.base_cut.set)

    monkeypatch.setattr(page_diff, "cut_base", cut_and_tell)
    if old is None:
        content.base_cut.set()
    client = SimpleNamespace(content=content)
    cr = ChangeRequest(id="cr1", revisionMergedAncestor="r0")
    loaded = await page_diff.load_page_diff(client, "s1", cr, "p", kind)  # type: ignore[arg-type]
    whole = diff_documents(None if old is None else parse(old), None if new is None else parse(new))
    assert tuple(loaded.diff.rows) == tuple(whole.rows)
    assert (loaded.old is None) == (old is None) and (loaded.new is None) == (new is None)
    if old is not None and new is not None:
        assert isinstance(loaded.diff.rows, LazyRows)
        assert loaded.diff.changed == 1
        assert [c.name for c in loaded.header] == ["title"]
