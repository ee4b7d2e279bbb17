"""Suggest an edit (``e`` on a page → ``$EDITOR`` → change request → review pane) against the
in-process server, with a fake editor script: new and existing change requests, unchanged
file, failed post (file and draft kept), refusals before the editor, and the picker."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from gitbook_tui.api.change_requests import ChangeRequests
from gitbook_tui.api.errors import APIStatusError
from gitbook_tui.drafts import DraftKey, DraftStore
from gitbook_tui.drafts.keys import PAGE_EDIT
from gitbook_tui.tui.browse.browser_screen import BrowserScreen
from gitbook_tui.tui.common.confirm_screen import ConfirmScreen
from gitbook_tui.tui.common.state import account_key
from gitbook_tui.tui.review.edit_target_screen import EditTargetScreen
from support.notes import notes_of
from support.review_world import (
    HOSTILE,
    crs,
    editor,
    make_app,
    open_from_notice,
    open_page,
    open_review,
    page_in,
    press_edit,
    review_shown,
)
from support.waits import until, until_screen


async def test_edit_creates_a_change_request_and_opens_its_review(
    world, desk, tmp_path, monkeypatch
):
    seen = editor(tmp_path, monkeypatch, "sed -i 's/10 GB/15 GB/' \"$1\"")
    space = desk["space"]["id"]
    before = {cr["id"] for cr in crs(world, space)}
    app = make_app(world, tmp_path)  # alice: no open change request of hers here
    async with app.run_test(size=(120, 40)) as pilot:
        await open_page(app, pilot, space, desk["page"])
        await press_edit(pilot)
        review = await review_shown(app, pilot)
        assert review.state is not None
        assert review.state.cr.subject == "Edit Streams"
        assert review.state.cr.id not in before
        lines = "\n".join(review.diff.all_text())
        assert "15 GB" in lines and "10 GB" in lines  # both sides of the changed word
    assert "10 GB" in seen.read_text()  # the editor got main's page
    assert "15 GB" in page_in(world, space, review.state.cr.id, desk["page"])
    store = DraftStore(account_key(app.client))
    assert store.list() == []  # posted: no draft left


async def test_edit_goes_into_a_chosen_open_change_request(world, desk, tmp_path, monkeypatch):
    seen = editor(tmp_path, monkeypatch, "sed -i 's/50 GB/60 GB/' \"$1\"")
    space, cr = desk["space"]["id"], desk["cr"]
    count = len(crs(world, space))
    app = make_app(world, tmp_path, "eve")  # eve has #2 and #3 open here
    async with app.run_test(size=(120, 40)) as pilot:
        await open_page(app, pilot, space, desk["page"])
        await press_edit(pilot)
        picker = await until_screen(pilot, EditTargetScreen)
        assert {c.subject for c in picker.candidates} == {
            "Update partition sizing",
            "Conflicting edit",
        }
        picker.dismiss(cr["id"])
        await open_from_notice(app, pilot)
        review = await review_shown(app, pilot)
        assert review.state is not None and review.state.cr.id == cr["id"]
        assert review.pages.selected is not None
        assert review.pages.selected.page.id == desk["page"]  # the edited page is shown
    assert "50 GB" in seen.read_text()  # the page as it is in #2, not main's
    text = page_in(world, space, cr["id"], desk["page"])
    assert "60 GB" in text and "A brand new paragraph about compaction." in text
    assert len(crs(world, space)) == count  # nothing new created


async def test_unchanged_file_creates_nothing(world, desk, tmp_path, monkeypatch):
    seen = editor(tmp_path, monkeypatch, "true")
    space = desk["space"]["id"]
    count = len(crs(world, space))
    app = make_app(world, tmp_path)
    notes = notes_of(app)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await open_page(app, pilot, space, desk["page"])
        await press_edit(pilot)
        await until(pilot, lambda: any("nothing was created" in n for n in notes))
        assert app.screen is browser
    assert seen.exists()
    assert len(crs(world, space)) == count


async def test_failed_post_keeps_the_file_and_a_draft(world, desk, tmp_path, monkeypatch):
    seen = editor(tmp_path, monkeypatch, "sed -i 's/10 GB/99 GB/' \"$1\"")

    async def refused(self, *args, **kwargs):
        raise APIStatusError(500, "storage is full", "POST", "/content")

    monkeypatch.setattr(ChangeRequests, "edit_content", refused)
    space = desk["space"]["id"]
    app = make_app(world, tmp_path)
    notes = notes_of(app)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await open_page(app, pilot, space, desk["page"])
        await press_edit(pilot)
        await until(pilot, lambda: any("Could not post" in n for n in notes))
        message = next(n for n in notes if "Could not post" in n)
        assert app.screen is browser
        kept = Path(message.split("kept in ", 1)[1].split(" and as a draft", 1)[0])
        assert "99 GB" in kept.read_text()
        assert stat.S_IMODE(kept.stat().st_mode) == 0o600
        key = DraftKey(PAGE_EDIT, space=space, target=desk["page"])
        draft = DraftStore(account_key(app.client)).load(key)
        assert draft is not None and "99 GB" in draft.text
        # the next e brings the unsent text back into the editor
        seen.unlink()
        await press_edit(pilot)
        await until(pilot, lambda: seen.exists())
        assert "99 GB" in seen.read_text()
        await until(  # (still refused: posted again, failed again, kept again)
            pilot, lambda: sum("Could not post" in n for n in notes) == 2
        )
    # the change request made for it was archived: no empty one left open
    assert not [
        c for c in crs(world, space) if c["subject"] == "Edit Streams" and c["status"] != "archived"
    ]


@pytest.mark.parametrize("who", ["rhea", "locked"])
async def test_refused_before_the_editor_opens(world, desk, tmp_path, monkeypatch, who):
    seen = editor(tmp_path, monkeypatch, "sed -i 's/10 GB/15 GB/' \"$1\"")
    space = desk["space"]["id"]
    if who == "locked":
        r = world.client().patch(f"/spaces/{space}", json={"editMode": "locked"})
        assert r.status_code == 200, r.text
    app = make_app(world, tmp_path, "alice" if who == "locked" else who)
    notes = notes_of(app)
    expected = "is locked" if who == "locked" else "needs edit rights"
    async with app.run_test(size=(120, 40)) as pilot:
        await open_page(app, pilot, space, desk["page"])
        await press_edit(pilot)
        await until(pilot, lambda: any(expected in n for n in notes))
    assert not seen.exists()


async def test_picker_escape_cancels(world, desk, tmp_path, monkeypatch):
    seen = editor(tmp_path, monkeypatch, "true")
    app = make_app(world, tmp_path, "eve")
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await open_page(app, pilot, desk["space"]["id"], desk["page"])
        await press_edit(pilot)
        await until_screen(pilot, EditTargetScreen)
        assert app.screen.query_one("OptionList").highlighted == 0  # "new" first
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is browser)
    assert not seen.exists()


async def test_the_change_request_under_review_is_offered_first(world, desk, tmp_path, monkeypatch):
    """Suggesting an edit from a review offers that change request first. Slow: a review, then the
    suggest-edit dialog over Browse."""
    editor(tmp_path, monkeypatch, "sed -i 's/50 GB/70 GB/' \"$1\"")
    space, cr = desk["space"]["id"], desk["cr"]
    app = make_app(world, tmp_path)  # alice: none of her own open here; #2 is eve's
    async with app.run_test(size=(120, 40)) as pilot:
        await open_review(app, pilot, "Update partition sizing")
        await pilot.press("1")
        await open_page(app, pilot, space, desk["page"])
        await press_edit(pilot)
        picker = await until_screen(pilot, EditTargetScreen)
        assert [c.id for c in picker.candidates] == [cr["id"]]
        assert picker.under_review == cr["id"]
        options = picker.query_one("OptionList")
        assert options.highlighted == 0  # offered, never preselected (issue #25)
        assert "under review" in str(options.get_option_at_index(1).prompt)
        await pilot.press("j", "enter")
        await until_screen(pilot, ConfirmScreen)  # eve's: asked
        await pilot.press("enter")
        await open_from_notice(app, pilot)
        review = await review_shown(app, pilot)
        assert review.state is not None and review.state.cr.id == cr["id"]
    assert "70 GB" in page_in(world, space, cr["id"], desk["page"])


async def test_hostile_subjects_in_the_picker_stay_inert(world, desk, tmp_path, monkeypatch):
    editor(tmp_path, monkeypatch, "true")
    space, cr = desk["space"]["id"], desk["cr"]
    r = world.client("eve").patch(
        f"/spaces/{space}/change-requests/{cr['id']}", json={"subject": HOSTILE}
    )
    assert r.status_code == 200, r.text
    app = make_app(world, tmp_path, "eve")
    async with app.run_test(size=(120, 40)) as pilot:
        await open_page(app, pilot, space, desk["page"])
        await press_edit(pilot)
        await until_screen(pilot, EditTargetScreen)
        options = app.screen.query_one("OptionList")
        prompts = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        hostile = next(p for p in prompts if "pwn" in p)
        assert "[bold red]pwn[/]" in hostile and "\x1b" not in hostile and "\x07" not in hostile
        await pilot.press("escape")
    assert app.return_code is None or app.return_code == 0


async def test_e_without_an_open_page_says_so(world, desk, tmp_path, monkeypatch):
    seen = editor(tmp_path, monkeypatch, "true")
    app = make_app(world, tmp_path)
    notes = notes_of(app)
    async with app.run_test(size=(120, 40)) as pilot:
        await until_screen(pilot, BrowserScreen)
        await until(pilot, lambda: app.organization_id is not None)
        assert app.screen.current_page is None
        await press_edit(pilot)
        await until(pilot, lambda: any("Open a page" in n for n in notes))
    assert not seen.exists()


async def test_the_edited_page_is_the_one_shown(world, desk, tmp_path, monkeypatch):
    editor(tmp_path, monkeypatch, "sed -i 's/10 GB/11 GB/' \"$1\"")
    space, conflicted = desk["space"]["id"], desk["conflicted"]
    app = make_app(world, tmp_path, "eve")
    async with app.run_test(size=(120, 40)) as pilot:
        await open_page(app, pilot, space, desk["page"])
        await press_edit(pilot)
        await until_screen(pilot, EditTargetScreen)
        app.screen.dismiss(conflicted["id"])  # #3 changes Sizing; now Streams too
        await open_from_notice(app, pilot)
        review = await review_shown(app, pilot)
        assert len(review.pages.changes) == 2
        assert review.pages.selected is not None
        assert review.pages.selected.page.id == desk["page"]
        await until(pilot, lambda: any("11 GB" in line for line in review.diff.all_text()))


@pytest.mark.parametrize(
    "command",
    [
        "sed -i 's/10 GB/12 GB/' \"$1\"",
        # the whole file pasted back, title heading and front matter included
        "sed -i 's/10 GB/12 GB/' \"$1\" && printf -- '---\\ndescription: Streams.\\n---\\n\\n"
        '# Streams\\n\\n\' | cat - "$1" > "$1.new" && mv "$1.new" "$1"',
    ],
    ids=["body", "with-title"],
)
async def test_the_edit_adds_no_title_heading(world, desk, tmp_path, monkeypatch, command):
    """The editor gets the page's body (no ``# Streams``); what it saves is posted as is and
    the change request's page and diff hold only the edit, never a second title."""
    seen = editor(tmp_path, monkeypatch, command)
    space = desk["space"]["id"]
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_page(app, pilot, space, desk["page"])
        await press_edit(pilot)
        review = await review_shown(app, pilot)
        assert review.state is not None
        lines = review.diff.all_text()
        assert any("12 GB" in line for line in lines)
        assert not any("# Streams" in line or "---" in line for line in lines), lines
    assert not seen.read_text().startswith(("# Streams", "---"))
    text = page_in(world, space, review.state.cr.id, desk["page"])
    assert "12 GB" in text and "# Streams" not in text and not text.startswith("---")
