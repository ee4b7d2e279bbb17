"""The Comments view's requests and draft reads, on their own: a client against the
in-process server, no app, no screen."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from gitbook_tui.api import AsyncGitBook, NotFoundError
from gitbook_tui.cache import account_fingerprint
from gitbook_tui.drafts import DraftKey, DraftStore
from gitbook_tui.drafts.keys import COMMENT, EDIT_REPLY, REPLY
from gitbook_tui.tui.comments.thread_requests import (
    CommentWrites,
    drafted_threads,
    read_commenters,
    read_drafted_threads,
    read_me,
    read_member_names,
    read_page_title,
    read_replies,
    read_space,
    read_threads,
)
from support.comments_world import BASE, build_space


def client_of(world: Any, token: str = "tok-eve") -> AsyncGitBook:
    transport = httpx.ASGITransport(app=world.app)
    return AsyncGitBook(token, base_url=BASE, transport=transport, max_retries=0)


def test_the_requests_module_needs_no_textual() -> None:
    code = (
        "import sys, gitbook_tui.tui.comments.thread_requests, "
        "gitbook_tui.tui.comments.comments_state; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'textual'))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


async def test_threads_are_read_by_status_page_and_author(world: Any) -> None:
    ids = build_space(world)
    async with client_of(world) as client:
        read = await read_threads(client, ids["space"])
        assert {c.id for c in read.comments} == {ids["first"], ids["second"]}
        assert not read.offline
        on_install = await read_threads(client, ids["space"], page=ids["Install"])
        assert [c.id for c in on_install.comments] == [ids["second"]]
        cody = world.users["cody"]
        by_cody = await read_threads(client, ids["space"], author=cody)
        assert [c.id for c in by_cody.comments] == [ids["second"]]
        assert (await read_threads(client, ids["space"], status="resolved")).comments == []
        assert len((await read_threads(client, ids["space"], status="all")).comments) == 2


async def test_space_me_page_title_members_and_commenters(world: Any) -> None:
    ids = build_space(world)
    async with client_of(world) as client:
        assert (await read_space(client, ids["space"])).title == "Guide"
        assert (await read_me(client)).id == world.users["eve"]
        assert await read_page_title(client, ids["space"], ids["Install"]) == "Install"
        names = await read_member_names(client, world.org)
        assert names == sorted(names) and len(names) >= 3
        commenters = await read_commenters(client, ids["space"])
        assert {u.id for u in commenters} >= {world.users["alice"], world.users["cody"]}


async def test_replies_leave_out_those_deleted_here(world: Any) -> None:
    ids = build_space(world)
    async with client_of(world) as client:
        replies = await read_replies(client, ids["space"], ids["first"])
        assert len(replies) == 1 and "Good catch." in (replies[0].body.markdown or "")
        gone = {replies[0].id}
        assert await read_replies(client, ids["space"], ids["first"], gone=gone) == []


async def test_writes_round_trip(world: Any) -> None:
    ids = build_space(world)
    async with client_of(world, "tok-alice") as client:
        writes = CommentWrites(client, ids["space"], None)
        created = await writes.create("A new thread", page=ids["Install"])
        reply = await writes.reply(created.id, "A reply")
        edited = await writes.edit(created.id, reply, "A better reply")
        assert edited.body.markdown is not None and "better" in edited.body.markdown
        resolved = await writes.resolve(created.id, resolved=True)
        assert resolved.is_resolved
        reacted = await writes.react(created.id, resolved, "🎉", added=True)
        assert [r.emoji for r in reacted.reactions] == ["🎉"]
        unreacted = await writes.react(created.id, reacted, "🎉", added=False)
        assert [r for r in unreacted.reactions if (r.count or len(r.users))] == []
        await writes.delete(created.id, reply)
        assert await read_replies(client, ids["space"], created.id) == []
        await writes.delete(created.id, created)
        with pytest.raises(NotFoundError):
            await read_replies(client, ids["space"], created.id)


async def test_outbox_entries_stand_for_the_writes(world: Any) -> None:
    ids = build_space(world)
    async with client_of(world, "tok-alice") as client:
        writes = CommentWrites(client, ids["space"], "cr-2")
        thread = (await read_threads(client, ids["space"])).comments[0]
        reply = (await read_replies(client, ids["space"], ids["first"]))[0]
    draft = DraftKey(REPLY, space=ids["space"], change_request="cr-2", target=thread.id)
    queued = writes.queued_reply(thread.id, "hello", draft=draft, to="Cody")
    assert (queued.kind, queued.comment, queued.markdown) == ("reply", thread.id, "hello")
    assert (queued.label, queued.change_request, queued.draft) == ("a reply to Cody", "cr-2", draft)
    new = writes.queued_comment("hi", page=ids["Install"], draft=draft)
    assert (new.kind, new.page, new.label) == ("comment", ids["Install"], "a new thread")
    on_reply = writes.queued_reaction(ids["first"], reply, "👍", added=False)
    assert (on_reply.reply, on_reply.removed_reactions, on_reply.added_reactions) == (
        reply.id,
        ("👍",),
        (),
    )
    on_thread = writes.queued_reaction(thread.id, thread, "👍", added=True)
    assert (on_thread.reply, on_thread.added_reactions) == (None, ("👍",))
    assert writes.queued_resolve(thread.id, resolved=True).resolved is True


async def test_drafted_threads_are_those_of_the_scope(tmp_path: Path) -> None:
    store = DraftStore(account_fingerprint(BASE, "tok"), tmp_path)
    store.save(DraftKey(REPLY, space="s", target="t1"), "reply")
    store.save(DraftKey(EDIT_REPLY, space="s", target="t2/r9"), "edit")
    store.save(DraftKey(COMMENT, space="s", target="page"), "new thread: not a thread")
    store.save(DraftKey(REPLY, space="other", target="t3"), "another space")
    store.save(DraftKey(REPLY, space="s", change_request="cr", target="t4"), "a CR's")
    assert drafted_threads(store, "s", "") == {"t1", "t2"}
    assert await read_drafted_threads(store, "s", "cr") == {"t4"}
