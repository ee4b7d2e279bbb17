"""Client comment operations (space and change request threads) against the local server."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gitbook_tui.api import AsyncGitBook, NotFoundError, PermissionDeniedError
from gitbook_tui.cache import ResponseCache
from gitbook_tui.models import (
    Comment,
    CommentReply,
    CommentStatus,
    Member,
    Page,
)
from support.builders import discussed_space, ids
from support.worlds import Clients


@pytest.fixture
async def space(gb: AsyncGitBook, world: Any) -> dict[str, str]:
    """A space with one page (put there through a merged change request)."""
    space_id, page_id = await discussed_space(gb, world.org)
    return {"id": space_id, "page": page_id}


async def test_space_comments(connect: Clients, world: Any, space: dict[str, str]) -> None:
    gb, eve = connect("alice"), connect("eve")
    sid = space["id"]
    first = await gb.comments.create(sid, "Looks **good**", page=space["page"])
    assert isinstance(first, Comment) and first.body.markdown == "Looks **good**"
    assert first.target and first.target.page and first.target.page.id == space["page"]
    assert first.target.page.title == "Intro" and first.target.page.outdated is False
    assert first.postedBy and first.postedBy.id == world.users["alice"]
    assert first.status == CommentStatus.open and not first.is_resolved
    second = await eve.comments.create(sid, "General remark")
    third = await gb.comments.create(sid, "Another one")
    assert (await gb.spaces.get(sid)).comments == 3

    page = await gb.comments.list(sid, limit=2)
    assert isinstance(page, Page) and len(page.items) == 2 and page.next is not None
    newest_first = [third.id, second.id, first.id]
    assert await ids(gb.comments.list(sid, limit=2)) == newest_first
    assert await ids(gb.comments.list(sid, order="asc")) == newest_first[::-1]
    assert await ids(gb.comments.list(sid, target_page=space["page"])) == [first.id]
    assert await ids(gb.comments.list(sid, authors=[world.users["eve"]])) == [second.id]
    assert await ids(gb.comments.list(sid, max_items=1)) == [third.id]

    got = await gb.comments.get(sid, first.id, format="document")
    assert isinstance(got, Comment) and got.body.document is not None

    edited = await gb.comments.update(sid, first.id, markdown="Looks great")
    assert edited.body.markdown == "Looks great" and edited.editedAt is not None
    reacted = await eve.comments.update(sid, first.id, added_reactions=["👍", "🎉"])
    assert [(r.emoji, r.count) for r in reacted.reactions] == [("👍", 1), ("🎉", 1)]
    both = await gb.comments.update(sid, first.id, added_reactions=["👍"])
    assert [(r.emoji, r.count) for r in both.reactions] == [("👍", 2), ("🎉", 1)]
    fewer = await eve.comments.update(sid, first.id, removed_reactions=["🎉", "👍"])
    assert [(r.emoji, r.count) for r in fewer.reactions] == [("👍", 1)]

    resolved = await gb.comments.update(sid, first.id, resolved=True)
    assert resolved.is_resolved and resolved.resolvedBy
    assert resolved.resolvedBy.id == world.users["alice"]
    assert await ids(gb.comments.list(sid, status="resolved")) == [first.id]
    assert await ids(gb.comments.list(sid, status="open")) == [third.id, second.id]
    reopened = await gb.comments.update(sid, first.id, resolved=False)
    assert reopened.status == CommentStatus.open and reopened.resolvedAt is None

    with pytest.raises(PermissionDeniedError):
        await eve.comments.update(sid, first.id, markdown="Not mine")
    assert await eve.comments.delete(sid, second.id) is None
    with pytest.raises(NotFoundError):
        await gb.comments.get(sid, second.id)
    assert await ids(gb.comments.list(sid)) == [third.id, first.id]


async def test_space_replies_and_commenters(
    connect: Clients, world: Any, space: dict[str, str]
) -> None:
    gb, eve, cody = connect("alice"), connect("eve"), connect("cody")
    sid = space["id"]
    comment = await gb.comments.create(sid, "Question?")
    r1 = await eve.comments.create_reply(sid, comment.id, "Answer one")
    assert isinstance(r1, CommentReply) and r1.body.markdown == "Answer one"
    r2 = await cody.comments.create_reply(sid, comment.id, "Answer two")
    r3 = await eve.comments.create_reply(sid, comment.id, "Answer three")
    parent = await gb.comments.get(sid, comment.id)
    assert parent.replies == 3
    assert [(c.user and c.user.id, c.count) for c in parent.repliers] == [
        (world.users["eve"], 2),
        (world.users["cody"], 1),
    ]

    assert await ids(gb.comments.replies(sid, comment.id, limit=2)) == [r1.id, r2.id, r3.id]
    got = await gb.comments.get_reply(sid, comment.id, r2.id)
    assert isinstance(got, CommentReply) and got.body.markdown == "Answer two"

    edited = await eve.comments.update_reply(
        sid, comment.id, r1.id, markdown="Answer 1 (edited)", added_reactions=["✅"]
    )
    assert edited.body.markdown == "Answer 1 (edited)" and edited.editedAt is not None
    assert [(r.emoji, r.count) for r in edited.reactions] == [("✅", 1)]
    unreacted = await eve.comments.update_reply(sid, comment.id, r1.id, removed_reactions=["✅"])
    assert unreacted.reactions == []
    # `resolved` on a reply resolves the thread it belongs to
    await cody.comments.update_reply(sid, comment.id, r2.id, resolved=True)
    assert (await gb.comments.get(sid, comment.id)).is_resolved

    commenters = [m async for m in gb.comments.commenters(sid, limit=1)]
    assert all(isinstance(m, Member) for m in commenters)
    assert [m.user.id for m in commenters if m.user] == [
        world.users["alice"],
        world.users["eve"],
        world.users["cody"],
    ]

    with pytest.raises(PermissionDeniedError):
        await cody.comments.delete_reply(sid, comment.id, r1.id)  # not the author
    assert await eve.comments.delete_reply(sid, comment.id, r1.id) is None
    with pytest.raises(NotFoundError):
        await gb.comments.get_reply(sid, comment.id, r1.id)
    assert await ids(gb.comments.replies(sid, comment.id)) == [r2.id, r3.id]
    assert (await gb.comments.get(sid, comment.id)).replies == 2

    await gb.comments.delete(sid, comment.id)
    with pytest.raises(NotFoundError):
        await gb.comments.replies(sid, comment.id).to_list()


async def test_change_request_comments(connect: Clients, world: Any, space: dict[str, str]) -> None:
    gb, eve = connect("alice"), connect("eve")
    sid = space["id"]
    cr = await eve.change_requests.create(sid, subject="Review me")
    n = cr.number
    assert n is not None
    on_space = await gb.comments.create(sid, "On the space")
    comment = await gb.comments.create(sid, "On the CR", change_request=n, page=space["page"])
    assert comment.target and comment.target.changeRequest == cr.id
    assert await ids(gb.comments.list(sid, change_request=cr.id)) == [comment.id]
    assert await ids(gb.comments.list(sid)) == [on_space.id]
    assert (await gb.change_requests.get(sid, n)).comments == 1

    got = await gb.comments.get(sid, comment.id, change_request=n)
    assert got.id == comment.id
    with pytest.raises(NotFoundError):
        await gb.comments.get(sid, comment.id)  # not a comment of the space's own threads

    reply = await eve.comments.create_reply(sid, comment.id, "Fixed", change_request=n)
    assert await ids(gb.comments.replies(sid, comment.id, change_request=n)) == [reply.id]
    got_reply = await gb.comments.get_reply(sid, comment.id, reply.id, change_request=n)
    assert got_reply.body.markdown == "Fixed"
    updated_reply = await eve.comments.update_reply(
        sid, comment.id, reply.id, change_request=n, markdown="Fixed it", resolved=True
    )
    assert updated_reply.body.markdown == "Fixed it"

    resolved = await gb.comments.get(sid, comment.id, change_request=n)
    assert resolved.is_resolved
    reopened = await gb.comments.update(
        sid, comment.id, change_request=n, resolved=False, added_reactions=["👀"]
    )
    assert not reopened.is_resolved and [r.emoji for r in reopened.reactions] == ["👀"]

    commenters = await gb.comments.commenters(sid, change_request=n).to_list()
    assert [m.user.id for m in commenters if m.user] == [world.users["alice"], world.users["eve"]]
    via_cr = await gb.change_requests.commenters(sid, n).to_list()
    assert [m.id for m in via_cr] == [m.id for m in commenters]
    only_space = await gb.comments.commenters(sid).to_list()
    assert [m.user.id for m in only_space if m.user] == [world.users["alice"]]

    await eve.comments.delete_reply(sid, comment.id, reply.id, change_request=n)
    assert await gb.comments.replies(sid, comment.id, change_request=n).to_list() == []
    await gb.comments.delete(sid, comment.id, change_request=n)
    assert await gb.comments.list(sid, change_request=n).to_list() == []


async def test_comment_permissions_and_cache(
    connect: Clients, world: Any, space: dict[str, str], tmp_path: Path
) -> None:
    sid = space["id"]
    with pytest.raises(PermissionDeniedError) as denied:
        await connect("rhea").comments.create(sid, "Read-only users cannot post")
    assert "comment" in denied.value.message
    with pytest.raises(NotFoundError):
        await connect("otto").comments.list(sid).to_list()

    cache = ResponseCache(tmp_path / "client-cache.sqlite")
    gb = connect("alice", cache=cache, read_mode="prefer-cache")
    comment = await gb.comments.create(sid, "Cached thread")
    assert (await gb.comments.list(sid)).items[0].replies == 0
    assert (await gb.comments.get(sid, comment.id)).replies == 0
    await gb.comments.create_reply(sid, comment.id, "A reply")
    # the reply dropped the cached list and the parent comment: both show it at once
    assert (await gb.comments.list(sid)).items[0].replies == 1
    assert (await gb.comments.get(sid, comment.id)).replies == 1
    assert len((await gb.comments.commenters(sid)).items) == 1
    cache.close()
