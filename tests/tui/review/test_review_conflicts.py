"""The conflict panel's keys (``o`` opens the page, ``e`` resolves in ``$EDITOR`` and offers
to retry), the inbox's conflict mark after a 409, the review message in the shared
Composer (draft kept after escape), and the inbox not dropping the first key typed."""

from __future__ import annotations

import asyncio
import threading

import pytest

from gitbook_tui.tui.browse.browser_screen import BrowserScreen
from gitbook_tui.tui.common.composer import Composer
from gitbook_tui.tui.common.confirm_screen import ConfirmScreen
from gitbook_tui.tui.render.diff_view import DiffView
from gitbook_tui.tui.review import conflict_panel, review_ops
from gitbook_tui.tui.review.change_request_review_screen import ChangeRequestReviewScreen
from gitbook_tui.tui.review.conflict_panel import ConflictPanel
from gitbook_tui.tui.review.inbox_data import CONFLICT
from gitbook_tui.tui.review.merge_checklist_screen import MergeChecklistScreen
from gitbook_tui.tui.review.review_inbox_screen import ReviewInboxScreen
from gitbook_tui.tui.review.review_message_screen import ReviewMessageScreen
from support.notes import notes_of
from support.review_world import editor, make_app, merge_confirmed, open_inbox, open_review
from support.waits import until, until_screen


async def consent(app, pilot) -> None:
    """Confirm adding the edit to another author's change request."""
    await until(pilot, lambda: "Eve's" in getattr(app.screen, "_title", ""), timeout=20)
    await pilot.press("enter")
    await until(pilot, lambda: "Eve's" not in getattr(app.screen, "_title", ""))


async def _conflict_panel(app, pilot) -> tuple[ChangeRequestReviewScreen, ConflictPanel]:
    review = await open_review(app, pilot, "Conflicting edit")
    await pilot.press("u")
    await until_screen(pilot, ConfirmScreen)
    await pilot.press("enter")
    panel = await until_screen(pilot, ConflictPanel)
    await until(pilot, lambda: all(v.diff is not None for v in panel.query(DiffView)))
    return review, panel


async def test_conflict_panel_loads_then_diffs_both_sides_off_the_ui_thread(
    world, desk, tmp_path, monkeypatch
):
    fetched = asyncio.Event()  # the pages' answers are held back until set
    compare = threading.Event()  # the diff threads wait for it
    diff_threads: list[threading.Thread] = []
    read, diff = review_ops._markdown, conflict_panel.diff_sides

    async def held_read(fetch):
        await fetched.wait()
        return await read(fetch)

    def held_diff(old, new, base=None):
        diff_threads.append(threading.current_thread())
        assert compare.wait(timeout=60)
        return diff(old, new, base)

    monkeypatch.setattr(review_ops, "_markdown", held_read)
    monkeypatch.setattr(conflict_panel, "diff_sides", held_diff)
    app = make_app(world, tmp_path)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await open_review(app, pilot, "Conflicting edit")
            await pilot.press("u")
            await until_screen(pilot, ConfirmScreen)
            await pilot.press("enter")
            panel = await until_screen(pilot, ConflictPanel)
            main_view = panel.query_one("#conflict-main", DiffView)
            cr_view = panel.query_one("#conflict-cr", DiffView)
            await until(pilot, lambda: "Loading" in " ".join(main_view.all_text()))
            assert "at the base and on main" in " ".join(main_view.all_text())
            assert "at the base and in #3" in " ".join(cr_view.all_text())
            fetched.set()
            # both diffs are being made in threads while the UI keeps answering
            await until(pilot, lambda: len(diff_threads) == 2, timeout=20)
            assert all(t is not threading.main_thread() for t in diff_threads)
            for view in (main_view, cr_view):
                await until(pilot, lambda v=view: "Comparing" in " ".join(v.all_text()))
                assert view.diff is None
            await pilot.press("j")  # keys still work meanwhile
            compare.set()
            await until(pilot, lambda: main_view.diff is not None and cr_view.diff is not None)
            main_lines = [line for line in main_view.all_text() if "GB" in line]
            cr_lines = [line for line in cr_view.all_text() if "GB" in line]
            assert any("−" in line and "10 GB" in line for line in main_lines)
            assert any("+" in line and "30 GB" in line for line in main_lines)
            assert any("+" in line and "20 GB" in line for line in cr_lines)
            assert not any("30 GB" in line for line in cr_lines)
    finally:
        compare.set()
        fetched.set()


async def test_conflict_e_resolves_in_the_editor_and_retries(world, desk, tmp_path, monkeypatch):
    # the CR's page is made to agree with main's (30 GB): the retried update goes through
    """e in the conflict panel resolves a block in the editor and retries the merge. Slow: a review,
    the panel and the editor round trip."""
    seen = editor(tmp_path, monkeypatch, "sed -i 's/20 GB/30 GB/' \"$1\"")
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        review, panel = await _conflict_panel(app, pilot)
        await pilot.press("e")
        await consent(app, pilot)  # alice edits eve's #3: asked first (issue #25)
        await until_screen(pilot, ConfirmScreen, timeout=20)
        assert panel.edited.is_set()
        assert "20 GB" in seen.read_text()  # the change request's side was edited
        await pilot.press("enter")  # retry the update
        await until(
            pilot,
            lambda: (
                app.screen is review and review.state is not None and not review.state.cr.outdated
            ),
            timeout=20,
        )
        assert review.conflict is None
    path = f"/spaces/{desk['space']['id']}/change-requests/{desk['conflicted']['id']}"
    assert world.client().get(path).json()["outdated"] is False


async def test_conflict_o_opens_the_page_http_only(world, desk, tmp_path, monkeypatch):
    opened: list[str] = []
    monkeypatch.setattr(
        "gitbook_tui.tui.review.conflict_panel.open_in_browser", lambda url: opened.append(url)
    )
    app = make_app(world, tmp_path)
    notes = notes_of(app)
    async with app.run_test(size=(120, 40)) as pilot:
        _, panel = await _conflict_panel(app, pilot)
        page_id = panel.page_ids["Sizing"]
        # (until the page's sides are loaded, o opens the change request itself)
        await until(pilot, lambda: page_id in panel.page_urls, "the page's address loaded")
        await pilot.press("o")
        await until(pilot, lambda: bool(opened))
        assert opened == [panel.page_urls[page_id]]
        assert opened[0].startswith(("http://", "https://"))
        assert opened[0].endswith("/sizing")  # the page (in the change request), not the CR
        panel.page_urls[page_id] = "javascript:alert(1)"
        await pilot.press("o")
        await until(pilot, lambda: any("Only web" in n for n in notes))
        assert len(opened) == 1


async def test_a_409_marks_the_change_request_conflicting(world, desk, tmp_path):
    """A 409 on merge marks the change request conflicting and opens the conflict panel. Slow: a
    review opened, merged and refused."""
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        review, _ = await _conflict_panel(app, pilot)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is review and review.conflict is not None)
        assert "⚠ conflicts with main" in str(review.query_one("#cr-header").render())
        await pilot.press("escape")
        inbox = app.screen
        assert isinstance(inbox, ReviewInboxScreen)
        conflicted = desk["conflicted"]["id"]
        await until(
            pilot,
            lambda: any(r.cr.id == conflicted and CONFLICT in r.tags for r in inbox.rows),
            timeout=20,
        )
        inbox.section = 2  # Outdated or conflicting
        inbox._show()
        row = next(i for i, r in enumerate(inbox.shown) if r.cr.id == conflicted)
        cells = [str(c) for c in inbox.query_one("DataTable").get_row_at(row)]
        assert "⚠" in cells
    # a new revision of the change request ends the mark
    path = f"/spaces/{desk['space']['id']}/change-requests/{conflicted}"
    edit = {"operation": "update_page", "page": desk["page"], "document": {"markdown": "# S\n"}}
    assert world.client("eve").post(f"{path}/content", json={"changes": [edit]}).status_code == 200
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        inbox = await open_inbox(app, pilot)
        assert not any(CONFLICT in r.tags for r in inbox.rows)


async def test_review_message_in_the_composer_keeps_its_draft(world, desk, tmp_path):
    """A review message typed in the composer keeps its draft across a refused submit. Slow: a
    review, the composer, a refusal and a retry."""
    app = make_app(world, tmp_path, "rita")
    async with app.run_test(size=(120, 40)) as pilot:
        review = await open_review(app, pilot, "Update partition sizing")
        await pilot.press("v")
        await until_screen(pilot, ReviewMessageScreen)
        composer = app.screen.query_one(Composer)
        await until(pilot, lambda: composer.is_open and composer.area.has_focus)
        await pilot.press(*"Half a thought")
        await pilot.press("escape")  # closes; the draft stays
        await until(pilot, lambda: app.screen is review)
        await pilot.press("v")
        await until_screen(pilot, ReviewMessageScreen)
        composer = app.screen.query_one(Composer)
        await until(pilot, lambda: composer.text == "Half a thought")
        await pilot.press(*", finished", "ctrl+s")
        await until(pilot, lambda: review.state is not None and review.state.approvals == 1)
        await pilot.press("v")  # the sent message's draft is gone
        await until_screen(pilot, ReviewMessageScreen)
        composer = app.screen.query_one(Composer)
        await until(pilot, lambda: composer.is_open)
        await pilot.pause()
        assert composer.text == ""
        await pilot.press("ctrl+s")  # no message: the review alone
        await until(pilot, lambda: app.screen is review)
    reviews = (
        world.client()
        .get(f"/spaces/{desk['space']['id']}/change-requests/{desk['cr']['id']}/reviews")
        .json()["items"]
    )
    assert len(reviews) == 2  # newest first: the bare review, then the one with the message
    assert reviews[1]["comment"]["body"]["markdown"] == "Half a thought, finished"
    assert not reviews[0].get("comment")


@pytest.mark.parametrize("attempt", range(3))
async def test_one_pressed_as_the_inbox_appears_goes_back(world, desk, tmp_path, attempt):
    app = make_app(world, tmp_path)
    app.start_view = "reviews"
    async with app.run_test(size=(120, 40)) as pilot:
        inbox = await until_screen(pilot, ReviewInboxScreen, timeout=30)
        await pilot.press("1")  # at once: the hidden filter box must not take it
        await until_screen(pilot, BrowserScreen)
        assert inbox.filter_text == ""


async def test_merge_conflict_resolved_then_merge_retried(world, desk, tmp_path, monkeypatch):
    """A merge conflict resolved in the panel, then the merge retried and landed. Slow: two merges
    and an update in one review."""
    editor(tmp_path, monkeypatch, "sed -i 's/20 GB/30 GB/' \"$1\"")
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        review = await open_review(app, pilot, "Conflicting edit")
        await merge_confirmed(pilot, "3")
        panel = await until_screen(pilot, ConflictPanel)
        await until(pilot, lambda: all(v.diff is not None for v in panel.query(DiffView)))
        await pilot.press("e")
        await consent(app, pilot)
        await until_screen(pilot, ConfirmScreen, timeout=20)
        assert "merge" in app.screen._title
        await pilot.press("enter")  # retry: the checklist and the typed confirmation again
        await until_screen(pilot, MergeChecklistScreen)
        await pilot.press("enter")
        await until_screen(pilot, ConfirmScreen)
        await pilot.press("3", "enter")
        await until(
            pilot,
            lambda: review.state is not None and review.state.cr.status == "merged",
            timeout=20,
        )


async def test_the_conflict_sides_scroll_together_until_unlinked(world, desk, tmp_path):
    """The kit's dialog rules in the conflict panel: the pane switch reaches the sides, the
    two sides of the comparison scroll together (``L`` unlinks them), ``?`` explains it."""
    from gitbook_tui.tui.common.help_screen import HelpScreen

    app = make_app(world, tmp_path)
    async with app.run_test(size=(80, 18)) as pilot:
        _, panel = await _conflict_panel(app, pilot)
        main_side = panel.query_one("#conflict-main", DiffView)
        cr_side = panel.query_one("#conflict-cr", DiffView)
        # long sides (the desk's page fits on screen): the same page edited two ways
        base = "\n\n".join(f"Paragraph {n} of the sizing guide." for n in range(60))
        for side, word in ((main_side, "main"), (cr_side, "change request")):
            side.show(conflict_panel.diff_sides(base, base.replace("guide", f"guide ({word})")))
        await until(pilot, lambda: main_side.max_scroll_y > 3 and cr_side.max_scroll_y > 3)
        await pilot.press("tab")
        assert main_side.has_focus
        await pilot.press("j", "j")
        await until(pilot, lambda: main_side.scroll_y == 2 and cr_side.scroll_y == 2)
        await pilot.press("L", "j")
        await until(pilot, lambda: main_side.scroll_y == 3)
        assert cr_side.scroll_y == 2  # unlinked: the other side stays
        await pilot.press("w")
        assert cr_side.has_focus
        await pilot.press("question_mark")
        helper = await until_screen(pilot, HelpScreen)
        assert helper.listed_screen is panel
        await pilot.press("escape")
        await until_screen(pilot, ConflictPanel)
