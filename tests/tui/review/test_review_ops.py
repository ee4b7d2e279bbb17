"""The Reviews feature's network and disk work, run without Textual: the review pane's
calls and marks (review_ops), suggest-edit's (suggest_edit_data) and the inbox's
(inbox_data), against the in-process server or a client that fails on cue."""

from __future__ import annotations

import subprocess
import sys
from types import SimpleNamespace
from typing import Any

import pytest

from gitbook_tui.api import APIConnectionError, GitBookError
from gitbook_tui.models import ChangeRequest
from gitbook_tui.tui.common.state import account_key
from gitbook_tui.tui.review import inbox_data, review_ops, suggest_edit_data
from gitbook_tui.tui.review.conflict_marks import load_conflict_marks
from gitbook_tui.tui.review.inbox_data import CONFLICT
from gitbook_tui.tui.review.review_data import load_review_state
from support.review_world import EDITED
from support.worlds import World

DATA_MODULES = ("review_data", "review_ops", "suggest_edit_data", "inbox_data")


def test_the_data_modules_load_without_textual() -> None:
    """Each data module imports nothing of Textual, even indirectly: one fresh interpreter
    imports them one after the other and names the first after which Textual is loaded."""
    code = (
        "import importlib, sys\n"
        f"for name in {DATA_MODULES!r}:\n"
        "    importlib.import_module('gitbook_tui.tui.review.' + name)\n"
        "    if 'textual' in sys.modules:\n"
        "        sys.exit(name + ' imports textual')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr.decode()


async def test_reviews_status_and_details_reach_the_server(connect, desk) -> None:
    space, cr = desk["space"]["id"], desk["cr"]["id"]
    rita, eve = connect("rita"), connect("eve")
    await review_ops.submit_review(rita, space, cr, "approved", "  Looks good  ")
    await review_ops.set_status(eve, space, cr, "draft")
    await review_ops.save_details(eve, space, cr, "Resize partitions", "Why: *growth*")
    state = await load_review_state(eve, space, cr, await review_ops.whoami(eve))
    assert state.approvals == 1 and state.cr.status == "draft"
    assert state.reviews[0].comment is not None
    assert state.reviews[0].comment.body.markdown == "Looks good"
    assert state.cr.subject == "Resize partitions"
    fresh = await review_ops.fresh_change_request(eve, space, cr)
    assert fresh.status == "draft"


async def test_reviewers_are_asked_and_removed(connect, desk, world: World) -> None:
    space, cr, eve = desk["space"]["id"], desk["cr"]["id"], connect("eve")
    carol = world.users["carol"]
    await review_ops.request_reviewer(eve, space, cr, carol)
    state = await load_review_state(eve, space, cr, "eve")
    assert carol in {r.user.id for r in state.requested if r.user}
    await review_ops.remove_reviewer(eve, space, cr, carol)
    state = await load_review_state(eve, space, cr, "eve")
    assert carol not in {r.user.id for r in state.requested if r.user}


async def test_space_roles_fall_back_to_the_members_when_refused() -> None:
    def refused(**_: Any) -> Any:
        raise APIConnectionError("GET", "/permissions")

    alice = SimpleNamespace(id="u1", displayName="Alice")
    member = SimpleNamespace(user=alice, role="admin", disabled=False)
    gone = SimpleNamespace(user=SimpleNamespace(id="u2"), role="edit", disabled=True)

    class Members:
        async def to_list(self) -> list[Any]:
            return [member, gone]

    client = SimpleNamespace(
        permissions=SimpleNamespace(aggregate=refused),
        orgs=SimpleNamespace(members=lambda org, read: Members()),
    )
    roles = await review_ops.space_roles(client, "s1", "o1")  # type: ignore[arg-type]
    assert roles == [(alice, "admin")]  # the disabled member is not offered


async def test_a_conflict_is_marked_at_its_revision_then_cleared(connect, desk, world) -> None:
    space, cr_id, alice = desk["space"]["id"], desk["conflicted"]["id"], connect("alice")
    cr = await review_ops.fresh_change_request(alice, space, cr_id)
    assert await review_ops.conflict_message(alice, cr) is None
    await review_ops.record_conflict(alice, space, cr_id, "409: Sizing changed on both sides")
    assert await review_ops.conflict_message(alice, cr) == "409: Sizing changed on both sides"
    newer = cr.model_copy(update={"revision": "another"})
    assert await review_ops.conflict_message(alice, newer) is None  # a new revision: gone
    rows, _ = await inbox_data.load_inbox_rows(
        alice, world.org, "u", space_id=space, status_filter=("open",)
    )
    assert [CONFLICT in r.tags for r in rows if r.cr.id == cr_id] == [True]
    await review_ops.record_conflict(alice, space, cr_id, None)
    marks = load_conflict_marks(alice)
    assert marks is not None and not marks.conflicts(cr)


async def test_viewed_marks_survive_a_reopen(connect, desk) -> None:
    alice, cr = connect("alice"), desk["cr"]["id"]
    marks = await review_ops.open_viewed_marks(alice, cr)
    marks.toggle("page-1", "print")
    await review_ops.save_viewed_marks(marks)
    again = await review_ops.open_viewed_marks(alice, cr)
    assert again.is_viewed("page-1") and not again.is_viewed("page-2")


async def test_conflict_sides_read_base_main_and_the_change_request(connect, desk) -> None:
    space, cr_id, alice = desk["space"]["id"], desk["conflicted"]["id"], connect("alice")
    state = await load_review_state(alice, space, cr_id, "alice")
    sizing = next(c.page.id for c in state.changes if c.page is not None)
    urls: list[str] = []
    sides = await review_ops.conflict_sides(alice, state, sizing, urls.append)
    assert sides.base is not None and "10 GB" in sides.base
    assert sides.main is not None and "30 GB" in sides.main
    assert sides.mine is not None and "20 GB" in sides.mine
    assert len(urls) == 1 and urls[0].startswith("http")


async def test_preview_lists_the_changed_pages(connect, desk) -> None:
    lines = await inbox_data.preview_changes(
        connect("alice"), desk["space"]["id"], desk["cr"]["id"]
    )
    assert lines == ["~ edited Streams"]


async def test_edit_targets_offer_the_one_under_review_while_open(connect, desk) -> None:
    space, alice = desk["space"]["id"], connect("alice")
    me = await review_ops.whoami(alice)
    found, under = await suggest_edit_data.edit_targets(alice, space, me, desk["cr"]["id"])
    assert [cr.id for cr in found] == [desk["cr"]["id"]] and under == desk["cr"]["id"]
    await review_ops.set_status(connect("eve"), space, desk["cr"]["id"], "archived")
    found, under = await suggest_edit_data.edit_targets(alice, space, me, desk["cr"]["id"])
    assert found == [] and under is None


async def test_post_edit_makes_a_change_request_and_moved_on_sees_later_edits(
    connect, desk
) -> None:
    space, page, alice = desk["space"]["id"], desk["page"], connect("alice")
    assert await suggest_edit_data.page_title(alice, space, page) == "Streams"
    main = (await suggest_edit_data.page_as_in(alice, space, page, None)).markdown or ""
    assert "10 GB" in main and suggest_edit_data.same_text(main, main + "\n\n")
    new_text = main.replace("10 GB", "12 GB")
    cr, created = await suggest_edit_data.post_edit(alice, space, None, page, "Streams", new_text)
    assert created and cr.subject == "Edit Streams"
    assert not await suggest_edit_data.moved_on(alice, space, cr, page, new_text)
    assert await suggest_edit_data.moved_on(alice, space, cr, page, EDITED)
    same, created = await suggest_edit_data.post_edit(alice, space, cr, page, "Streams", main)
    assert same.id == cr.id and not created


async def test_a_failed_post_archives_the_change_request_it_made() -> None:
    archived: list[tuple[str, str]] = []
    made = ChangeRequest(id="cr9", number=9, subject="Edit Streams")

    async def create(space_id: str, subject: str) -> ChangeRequest:
        return made

    async def edit_content(*_: Any) -> None:
        raise APIConnectionError("POST", "/content")

    async def update(space_id: str, cr_id: str, status: str) -> None:
        archived.append((cr_id, status))

    client = SimpleNamespace(
        change_requests=SimpleNamespace(create=create, edit_content=edit_content, update=update)
    )
    with pytest.raises(GitBookError):
        await suggest_edit_data.post_edit(client, "s1", None, "p1", "Streams", "text")  # type: ignore[arg-type]
    assert archived == [("cr9", "archived")]
    archived.clear()
    with pytest.raises(GitBookError):  # into an existing change request: nothing archived
        await suggest_edit_data.post_edit(client, "s1", made, "p1", "Streams", "text")  # type: ignore[arg-type]
    assert archived == []


async def test_the_page_edit_draft_round_trip(connect) -> None:
    account = account_key(connect("alice"))
    draft = suggest_edit_data.PageEditDraft(account, "s1", "", "p1")
    assert await draft.text() is None
    await draft.save("my words", title="Edit Streams")
    assert await draft.text() == "my words"
    await draft.delete_if_text("other words")  # newer words are kept
    assert await draft.text() == "my words"
    await draft.delete_if_text("my words")
    assert await draft.text() is None
    kept = await suggest_edit_data.keep_private_copy(account, "Streams: a/b", "text")
    assert kept.read_text() == "text" and kept.name.startswith("edit-streams-a-b-")
