"""Client change request operations against the in-process local server."""

from __future__ import annotations

from typing import Any

import pytest

from gitbook_tui.api import (
    AsyncGitBook,
    BadRequestError,
    ConflictError,
    NotFoundError,
    PermissionDeniedError,
)
from gitbook_tui.models import (
    ChangeRequest,
    ChangeRequestContentChange,
    ChangeRequestContentUpdate,
    ChangeRequestPdf,
    ChangeRequestReview,
    ChangeRequestStatus,
    MergeResult,
    MergeResultKind,
    Page,
    RequestedReviewer,
    RequestedReviewersResult,
    ReviewStatus,
    RevisionSemanticChanges,
    SemanticChangeType,
)
from support.builders import seeded_through_client
from support.worlds import Clients

Change = ChangeRequestContentChange
PAGES = [("Intro", "Welcome."), ("Setup", "Install.")]


@pytest.fixture
async def space(gb: AsyncGitBook, world: Any) -> dict[str, str]:
    """A space with two pages, Intro and Setup, in its main content."""
    seed = await seeded_through_client(gb, world.org, "Product", "Seed", PAGES)
    intro, setup = (c.page.id for c in seed.edit.changes if c.page)
    return {"id": seed.space.id, "intro": intro, "setup": setup}


async def numbers(pager: Any) -> list[int]:
    return [item.number async for item in pager]


async def test_create_list_get_update(connect: Clients, world: Any, space: dict[str, str]) -> None:
    gb, eve = connect("alice"), connect("eve")
    sid = space["id"]
    cr = await eve.change_requests.create(sid, subject="Typos")
    assert isinstance(cr, ChangeRequest) and cr.number == 2
    assert (cr.status, cr.subject, cr.outdated) == (ChangeRequestStatus.draft, "Typos", False)
    assert cr.createdBy and cr.createdBy.id == world.users["eve"]
    others = [await gb.change_requests.create(sid, subject=f"CR {i}") for i in range(3)]

    assert await numbers(gb.change_requests.list(sid)) == []  # default filter: open
    drafts = await gb.change_requests.list(sid, status="draft", limit=2)
    assert isinstance(drafts, Page) and len(drafts.items) == 2 and drafts.next is not None
    assert await numbers(gb.change_requests.list(sid, status="draft", limit=2)) == [5, 4, 3, 2]
    mine = gb.change_requests.list(sid, status="draft", creator=world.users["eve"])
    assert await numbers(mine) == [2]
    everything = gb.change_requests.list(sid, status=["draft", "merged"], order_by="createdAt")
    assert await numbers(everything) == [5, 4, 3, 2, 1]

    by_number = await gb.change_requests.get(sid, 2)
    by_id = await gb.change_requests.get(sid, cr.id)
    assert isinstance(by_number, ChangeRequest) and by_number.id == by_id.id == cr.id

    opened = await eve.change_requests.update(sid, 2, subject="Fix typos", status="open")
    assert (opened.subject, opened.status) == ("Fix typos", ChangeRequestStatus.open)
    assert await numbers(gb.change_requests.list(sid)) == [2]
    archived = await gb.change_requests.update(
        sid, others[0].id, status=ChangeRequestStatus.archived
    )
    assert archived.status == ChangeRequestStatus.archived
    assert (await gb.change_requests.get(sid, others[0].id)).status == "archived"
    described = await gb.change_requests.update(sid, 2, description={"markdown": "Why"})
    # a markdown description is kept as the official JSON document
    assert described.description is not None and described.description["object"] == "document"
    assert "Why" in str(described.description["nodes"])
    assert (await gb.spaces.get(sid)).changeRequestsOpen == 1

    with pytest.raises(PermissionDeniedError):
        await connect("rhea").change_requests.create(sid, subject="Nope")
    with pytest.raises(NotFoundError) as missing:
        await gb.change_requests.get(sid, 99)
    assert "99" in missing.value.message


async def test_change_request_flow(gb: AsyncGitBook, space: dict[str, str]) -> None:
    """create → edit content → changes → (main moves on) → update from main → merge."""
    sid = space["id"]
    cr = await gb.change_requests.create(sid, subject="Docs refresh")
    edit = await gb.change_requests.edit_content(
        sid,
        cr.id,
        [
            Change.insert_markdown("FAQ", "Questions and answers."),
            {"operation": "update_page", "page": space["intro"], "document": {"markdown": "Hi!"}},
        ],
    )
    assert isinstance(edit, ChangeRequestContentUpdate)
    assert [c.object for c in edit.changes] == ["created_page", "updated_page"]
    assert edit.changeRequest and edit.changeRequest.revision != cr.revision
    faq = edit.changes[0].page
    assert faq is not None

    changes = await gb.change_requests.changes(sid, cr.id)
    assert isinstance(changes, RevisionSemanticChanges)
    kinds = {(c.type, c.page.id if c.page else None) for c in changes.changes}
    assert kinds == {
        (SemanticChangeType.page_created, faq.id),
        (SemanticChangeType.page_edited, space["intro"]),
    }
    limited = await gb.change_requests.changes(sid, cr.id, limit=1)
    assert len(limited.changes) == 1 and limited.more == 1

    # meanwhile another change request edits another page of the main content
    other = await gb.change_requests.create(sid, subject="Setup")
    await gb.change_requests.edit_content(
        sid, other.id, [Change.update_markdown(space["setup"], "Install it twice.")]
    )
    assert (await gb.change_requests.merge(sid, other.id)).result == MergeResultKind.merge
    assert (await gb.change_requests.get(sid, cr.id)).outdated is True

    updated = await gb.change_requests.update_from_main(sid, cr.number or 0)
    assert isinstance(updated, MergeResult) and updated.result == MergeResultKind.update
    fresh = await gb.change_requests.get(sid, cr.id)
    assert fresh.outdated is False and fresh.revision == updated.revision
    setup = await gb.content.get_page(sid, space["setup"], change_request=cr.id, format="markdown")
    assert (setup.markdown or "").strip() == "Install it twice."

    merged = await gb.change_requests.merge(sid, cr.id)
    assert isinstance(merged, MergeResult) and merged.result == MergeResultKind.merge
    after = await gb.change_requests.get(sid, cr.id)
    assert after.status == ChangeRequestStatus.merged and after.revisionMerged == merged.revision
    assert (await gb.spaces.get(sid)).revision == merged.revision
    main = await gb.content.pages(sid)
    assert [p.title for p in main.pages] == ["Intro", "Setup", "FAQ"]
    intro = await gb.content.get_page(sid, space["intro"], format="markdown")
    assert (intro.markdown or "").strip() == "Hi!"

    # the merged change request's own content stays readable
    cr_pages = await gb.content.pages(sid, change_request=cr.number)
    assert [p.title for p in cr_pages.pages] == ["Intro", "Setup", "FAQ"]
    faq_page = await gb.content.get_page(sid, faq.id, change_request=cr.id, format="markdown")
    assert (faq_page.markdown or "").strip() == "Questions and answers."

    with pytest.raises(ConflictError) as again:
        await gb.change_requests.merge(sid, cr.id)
    assert "already merged" in again.value.message
    with pytest.raises(ConflictError):
        await gb.change_requests.edit_content(sid, cr.id, [Change.delete(faq.id)])


async def test_merge_conflict(gb: AsyncGitBook, space: dict[str, str]) -> None:
    sid = space["id"]
    ours = await gb.change_requests.create(sid, subject="Ours")
    theirs = await gb.change_requests.create(sid, subject="Theirs")
    await gb.change_requests.edit_content(
        sid, ours.id, [Change.update_markdown(space["intro"], "Our intro.")]
    )
    await gb.change_requests.edit_content(
        sid, theirs.id, [Change.update_markdown(space["intro"], "Their intro.")]
    )
    await gb.change_requests.merge(sid, theirs.id)
    main_revision = (await gb.spaces.get(sid)).revision

    with pytest.raises(ConflictError) as conflict:
        await gb.change_requests.merge(sid, ours.id)
    assert conflict.value.status == 409
    message = conflict.value.message
    assert message.startswith(f"Cannot merge change request #{ours.number}: Merge conflict")
    assert "'Intro'" in message and message.endswith("Nothing was changed.")
    with pytest.raises(ConflictError) as on_update:
        await gb.change_requests.update_from_main(sid, ours.id)
    assert "Cannot update change request" in on_update.value.message
    assert (await gb.spaces.get(sid)).revision == main_revision
    still = await gb.change_requests.get(sid, ours.id)
    assert still.status == ChangeRequestStatus.draft and still.outdated is True


async def test_reviews_and_requested_reviewers(
    connect: Clients, world: Any, space: dict[str, str]
) -> None:
    eve, alice, rita = connect("eve"), connect("alice"), connect("rita")
    sid = space["id"]
    cr = await eve.change_requests.create(sid, subject="Please review")
    n = cr.number or 0

    sent = await eve.change_requests.request_reviewers(
        sid, n, [world.users["rita"], world.users["alice"]], subject="Please review (v2)"
    )
    assert isinstance(sent, RequestedReviewersResult)
    assert [r.user.id for r in sent.users if r.user] == [world.users["rita"], world.users["alice"]]
    after = await eve.change_requests.get(sid, n)
    assert (after.status, after.subject) == (ChangeRequestStatus.open, "Please review (v2)")
    requested = [r async for r in eve.change_requests.requested_reviewers(sid, n, limit=1)]
    assert all(isinstance(r, RequestedReviewer) for r in requested)
    assert [r.user.id for r in requested if r.user] == [world.users["rita"], world.users["alice"]]
    assert requested[0].requestedBy and requested[0].requestedBy.id == world.users["eve"]
    with pytest.raises(BadRequestError):
        await eve.change_requests.request_reviewers(sid, n, [world.users["cody"]])  # comment role

    assert await eve.change_requests.remove_requested_reviewer(sid, n, world.users["alice"]) is None
    remaining = await eve.change_requests.requested_reviewers(sid, n).to_list()
    assert [r.user.id for r in remaining if r.user] == [world.users["rita"]]

    asked = await rita.change_requests.submit_review(
        sid, n, ReviewStatus.changes_requested, comment="Please fix the intro"
    )
    assert isinstance(asked, ChangeRequestReview)
    assert (asked.status, asked.outdated) == (ReviewStatus.changes_requested, False)
    assert asked.requestedBy and asked.requestedBy.id == world.users["eve"]
    assert asked.comment and asked.comment.body.markdown == "Please fix the intro"
    await eve.change_requests.edit_content(
        sid, n, [Change.update_markdown(space["intro"], "Fixed intro.")]
    )
    approved = await alice.change_requests.submit_review(sid, n, "approved")
    assert approved.status == ReviewStatus.approved and approved.comment is None

    reviews = [r async for r in eve.change_requests.reviews(sid, n, limit=1)]
    assert [r.id for r in reviews] == [approved.id, asked.id]
    outdated = await eve.change_requests.reviews(sid, n, outdated=True).to_list()
    assert [r.id for r in outdated] == [asked.id]
    current = await eve.change_requests.reviews(sid, n, outdated=False).to_list()
    assert [r.id for r in current] == [approved.id]

    with pytest.raises(PermissionDeniedError) as own:
        await eve.change_requests.submit_review(sid, n, "approved")
    assert "author" in own.value.message
    with pytest.raises(PermissionDeniedError):
        await connect("cody").change_requests.submit_review(sid, n, "approved")


async def test_pdf_and_commenters(gb: AsyncGitBook, world: Any, space: dict[str, str]) -> None:
    sid = space["id"]
    cr = await gb.change_requests.create(sid, subject="Printable")
    pdf = await gb.change_requests.pdf(sid, cr.id)
    assert isinstance(pdf, ChangeRequestPdf) and pdf.url and "/pdf/file?token=" in pdf.url
    one_page = await gb.change_requests.pdf(sid, cr.id, page=space["intro"], only=True)
    assert one_page.url and one_page.url != pdf.url  # a fresh link every time
    with pytest.raises(BadRequestError):
        await gb.change_requests.pdf(sid, cr.id, only=True)

    assert await gb.change_requests.commenters(sid, cr.id).to_list() == []
    await gb.comments.create(sid, "Nice", change_request=cr.id)
    [member] = await gb.change_requests.commenters(sid, cr.number or 0).to_list()
    assert member.user and member.user.id == world.users["alice"]
