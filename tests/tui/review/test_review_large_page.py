"""A large page in the review pane: its first changes are diffed and shown before the whole
page's diff, and the status line says "change 1 of …" until the total is known."""

from __future__ import annotations

import threading
from types import SimpleNamespace

import pytest
from textual.app import App, ComposeResult

from gitbook_tui.markdown.diff import BlockDiff, diff_markdown
from gitbook_tui.models import ChangeRequest, RevisionPage
from gitbook_tui.tui.render.diff_view import DiffView
from gitbook_tui.tui.review import page_diff
from gitbook_tui.tui.review.review_pages import ReviewPages
from support.diff_pages import scattered_edits
from support.waits import until


class _Content:
    def __init__(self, old: str, new: str) -> None:
        self.old, self.new = old, new

    async def revision_page(self, *_args: object, **_kwargs: object) -> RevisionPage:
        return RevisionPage(id="p", title="Reference", markdown=self.old)

    async def get_page(self, *_args: object, **_kwargs: object) -> RevisionPage:
        return RevisionPage(id="p", title="Reference", markdown=self.new)


class Pane(App[None]):
    def compose(self) -> ComposeResult:
        yield DiffView(id="cr-diff")


async def test_a_large_page_shows_its_first_changes_then_the_change_total(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    old, new = scattered_edits(300_000, 20)
    client = SimpleNamespace(content=_Content(old, new))
    cr = ChangeRequest(id="cr1", revisionMergedAncestor="r0")
    loaded = await page_diff.load_page_diff(client, "s1", cr, "p", "page_edited")  # type: ignore[arg-type]
    assert loaded.staged.partial
    assert 1 <= loaded.diff.changed < 20  # the first part's changes only
    released = threading.Event()
    rest = loaded.staged.rest

    def held_rest() -> tuple[BlockDiff, bool]:
        assert released.wait(timeout=60)
        return rest()

    monkeypatch.setattr(loaded.staged, "rest", held_rest)
    status: list[str] = []
    app = Pane()
    async with app.run_test(size=(120, 40)) as pilot:
        view = app.query_one(DiffView)
        host = SimpleNamespace(
            diff=view,
            pages=SimpleNamespace(progress=lambda: "0/1 viewed"),
            show_status=status.append,
        )
        pages = ReviewPages(host)  # type: ignore[arg-type]
        view.show(loaded.staged, loaded.header)
        await pilot.pause()
        pages.status()
        assert " · change 1 of … · " in status[-1]
        released.set()
        await until(pilot, lambda: not view.partial)
        pages.status()
        assert " · change 1 of 20 · " in status[-1]
        whole = diff_markdown(old, new)
        assert view.diff is not None and view.diff.changed == whole.changed == 20
