"""Replayer against the in-process server: order, offline stops, refusals become drafts."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from gitbook_tui.api import (
    APIStatusError,
    AsyncGitBook,
    AuthenticationError,
    InternalServerError,
    RateLimitError,
    ResponseValidationError,
)
from gitbook_tui.drafts import (
    DraftKey,
    DraftStore,
    Outbox,
    OutboxAction,
    OutboxItem,
    Replayer,
    client_handlers,
)
from support.builders import discussed_space
from support.closing import CloseLater

URL = "http://testserver/v1"


class Switch(httpx.AsyncBaseTransport):
    """The in-process server behind a cable the test can pull."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.offline = False
        self.sent: list[tuple[str, str]] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.offline:
            raise httpx.ConnectError("Connection refused", request=request)
        self.sent.append((request.method, request.url.path.removeprefix("/v1")))
        return await self.inner.handle_async_request(request)


async def no_wait(_: float) -> None:
    return None


class Account:
    """One user's client (through a Switch), drafts and outbox."""

    def __init__(self, world: Any, name: str, root: Path) -> None:
        self.switch = Switch(httpx.ASGITransport(app=world.app))
        self.client = AsyncGitBook(
            f"tok-{name}", base_url=URL, transport=self.switch, sleep=no_wait
        )
        self.drafts = DraftStore.for_account(URL, f"tok-{name}", root / "drafts")
        self.outbox = Outbox.for_account(URL, f"tok-{name}", root / "outbox", drafts=self.drafts)
        self.progress: list[tuple[str, str | None]] = []
        self.replayer = Replayer.for_client(
            self.outbox,
            self.client,
            on_progress=lambda item, error: self.progress.append(
                (item.id, type(error).__name__ if error else None)
            ),
        )


@pytest.fixture
def account(world: Any, tmp_path: Path, close_later: CloseLater) -> Callable[[str], Account]:
    """``account(name)``: that user's client, drafts and outbox."""
    return lambda name: close_later(Account(world, name, tmp_path / name))


@pytest.fixture
async def space(gb: AsyncGitBook, world: Any) -> dict[str, str]:
    """A space with one page and one open thread by alice."""
    space_id, page_id = await discussed_space(gb, world.org)
    thread = await gb.comments.create(space_id, "Is this right?", page=page_id)
    return {"id": space_id, "page": page_id, "thread": thread.id}


async def test_replays_every_kind_in_order(
    account: Callable[[str], Account], space: dict[str, str], gb: AsyncGitBook
) -> None:
    me = account("alice")
    sid, page, thread = space["id"], space["page"], space["thread"]
    new_key = DraftKey("comment", space=sid, target=page)
    reply_key = DraftKey("reply", space=sid, target=thread)
    me.drafts.save(new_key, "A new thread, written offline")
    me.drafts.save(reply_key, "Yes, it is.")
    queue = me.outbox
    items = [
        queue.enqueue(
            OutboxAction.new_comment(sid, "A new thread, written offline", page=page, draft=new_key)
        ),
        queue.enqueue(OutboxAction.new_reply(sid, thread, "Yes, it is.", draft=reply_key)),
        queue.enqueue(OutboxAction.new_reaction(sid, thread, added=["👍", "🎉"])),
        queue.enqueue(OutboxAction.new_reaction(sid, thread, removed=["🎉"])),
        queue.enqueue(OutboxAction.new_resolve(sid, thread)),
    ]
    assert queue.count() == 5

    result = await me.replayer.replay()

    assert [i.id for i in result.sent] == [i.id for i in items]
    assert result.failed == [] and result.stopped is None and result.remaining == 0
    assert me.progress == [(i.id, None) for i in items]
    writes = [s for s in me.switch.sent if s[0] != "GET"]
    base = f"/spaces/{sid}/comments"
    assert writes == [
        ("POST", base),
        ("POST", f"{base}/{thread}/replies"),
        ("PUT", f"{base}/{thread}"),
        ("PUT", f"{base}/{thread}"),
        ("PUT", f"{base}/{thread}"),
    ]
    comments = [c async for c in gb.comments.list(sid, order="asc")]
    assert [c.body.markdown for c in comments] == [
        "Is this right?",
        "A new thread, written offline",
    ]
    assert comments[1].target and comments[1].target.page and comments[1].target.page.id == page
    replies = [r async for r in gb.comments.replies(sid, thread)]
    assert [r.body.markdown for r in replies] == ["Yes, it is."]
    assert [(r.emoji, r.count) for r in comments[0].reactions] == [("👍", 1)]
    assert comments[0].is_resolved
    assert me.drafts.list() == [] and queue.pending() == [] and queue.failed() == []
    assert queue.path.read_bytes() == b""


async def test_reactions_on_a_reply_and_change_request_threads(
    account: Callable[[str], Account], space: dict[str, str], gb: AsyncGitBook
) -> None:
    me = account("alice")
    sid, thread = space["id"], space["thread"]
    reply = await gb.comments.create_reply(sid, thread, "A reply")
    cr = await gb.change_requests.create(sid, subject="Edits")
    me.outbox.enqueue(OutboxAction.new_reaction(sid, thread, reply=reply.id, added=["🔥"]))
    me.outbox.enqueue(OutboxAction.new_comment(sid, "On the change request", change_request=cr.id))
    result = await me.replayer.replay()
    assert len(result.sent) == 2 and result.remaining == 0
    got = await gb.comments.get_reply(sid, thread, reply.id)
    assert [(r.emoji, r.count) for r in got.reactions] == [("🔥", 1)]
    on_cr = [c.body.markdown async for c in gb.comments.list(sid, change_request=cr.id)]
    assert on_cr == ["On the change request"]


async def test_stops_while_offline_and_resumes_in_order(
    account: Callable[[str], Account], space: dict[str, str], gb: AsyncGitBook
) -> None:
    me = account("alice")
    sid, thread = space["id"], space["thread"]
    items = [me.outbox.enqueue(OutboxAction.new_reply(sid, thread, f"reply {n}")) for n in range(3)]

    me.switch.offline = True
    result = await me.replayer.replay()
    assert result.offline and result.sent == [] and result.remaining == 3
    assert [i.attempts for i in me.outbox.pending()] == [1, 0, 0]  # stopped at the first

    # The connection drops again right after the first item goes through.
    me.switch.offline = False
    me.replayer.on_progress = lambda item, error: setattr(me.switch, "offline", True)
    result = await me.replayer.replay()
    assert [i.id for i in result.sent] == [items[0].id]
    assert result.offline and result.remaining == 2

    me.switch.offline = False
    me.replayer.on_progress = None
    result = await me.replayer.replay()
    assert [i.id for i in result.sent] == [items[1].id, items[2].id]
    assert not result.offline and result.remaining == 0
    replies = [r.body.markdown async for r in gb.comments.replies(sid, thread)]
    assert replies == ["reply 0", "reply 1", "reply 2"]


async def test_a_refused_item_becomes_a_draft_and_the_rest_still_go(
    account: Callable[[str], Account], space: dict[str, str], gb: AsyncGitBook, tmp_path: Path
) -> None:
    me = account("alice")
    sid = space["id"]
    gone = await gb.comments.create(sid, "Soon deleted")
    key = DraftKey("reply", space=sid, target=gone.id)
    me.drafts.save(key, "A reply to a thread someone deletes meanwhile")
    doomed = me.outbox.enqueue(
        OutboxAction.new_reply(
            sid,
            gone.id,
            "A reply to a thread someone deletes meanwhile",
            draft=key,
            label="Reply on 'Soon deleted'",
        )
    )
    reaction = me.outbox.enqueue(OutboxAction.new_reaction(sid, gone.id, added=["👍"]))
    fine = me.outbox.enqueue(OutboxAction.new_reply(sid, space["thread"], "This one is fine"))
    await gb.comments.delete(sid, gone.id)

    result = await me.replayer.replay()

    assert [i.id for i in result.failed] == [doomed.id, reaction.id]
    assert [i.id for i in result.sent] == [fine.id] and result.stopped is None
    assert result.remaining == 0
    failed = me.outbox.failed()
    assert [i.id for i in failed] == [doomed.id, reaction.id]
    assert failed[0].error and failed[0].error.startswith("404")
    assert failed[0].restored_draft == key
    draft = me.drafts.load(key)
    assert draft is not None and draft.text.startswith("A reply to a thread")
    assert draft.extra["failed"]["outbox_id"] == doomed.id
    assert me.progress == [
        (doomed.id, "NotFoundError"),
        (reaction.id, "NotFoundError"),
        (fine.id, None),
    ]
    for path in (tmp_path / "alice").rglob("*"):  # errors and drafts on disk: no token
        assert "tok-alice" not in str(path)
        if path.is_file():
            assert b"tok-alice" not in path.read_bytes()


async def test_a_reader_s_queued_comment_is_refused_and_kept_as_a_draft(
    account: Callable[[str], Account], space: dict[str, str], gb: AsyncGitBook
) -> None:
    reader = account("rhea")  # org role "read": may not comment
    sid = space["id"]
    item = reader.outbox.enqueue(OutboxAction.new_comment(sid, "Can I say something?"))
    result = await reader.replayer.replay()
    assert [i.id for i in result.failed] == [item.id]
    assert result.failed[0].error and result.failed[0].error.startswith("403")
    key = DraftKey("comment", space=sid)
    assert reader.drafts.load(key).text == "Can I say something?"  # type: ignore[union-attr]
    assert [c.body.markdown async for c in gb.comments.list(sid)] == ["Is this right?"]


def fake_replayer(tmp_path: Path, error: Exception | None, calls: list[str]) -> Replayer:
    drafts = DraftStore.for_account(URL, "tok-x", tmp_path / "drafts")
    outbox = Outbox.for_account(URL, "tok-x", tmp_path / "outbox", drafts=drafts)

    async def handle(action: OutboxAction) -> object:
        calls.append(action.markdown or action.kind)
        if error is not None and action.markdown == "first":
            raise error
        return None

    return Replayer(outbox, dict.fromkeys(("comment", "reply", "reaction", "resolve"), handle))


TRANSIENT = [
    RateLimitError(429, "Too many requests", "POST", "/x"),
    InternalServerError(502, "Bad gateway", "POST", "/x"),
    AuthenticationError(401, "Token revoked", "POST", "/x"),
    APIStatusError(408, "Request timeout", "POST", "/x"),
    RuntimeError("a bug in a handler"),
]


@pytest.mark.parametrize("error", TRANSIENT, ids=lambda e: type(e).__name__)
async def test_transient_errors_stop_the_replay_and_keep_the_item(
    tmp_path: Path, error: Exception
) -> None:
    calls: list[str] = []
    replayer = fake_replayer(tmp_path, error, calls)
    replayer.outbox.enqueue(OutboxAction.new_comment("s", "first"))
    replayer.outbox.enqueue(OutboxAction.new_comment("s", "second"))
    result = await replayer.replay()
    assert result.stopped is error and not result.offline
    assert calls == ["first"] and result.sent == [] and result.failed == []
    assert result.remaining == 2 and replayer.outbox.failed() == []
    assert replayer.outbox.drafts is not None and replayer.outbox.drafts.list() == []


async def test_an_accepted_item_with_an_odd_answer_is_not_sent_twice(tmp_path: Path) -> None:
    calls: list[str] = []
    odd = ResponseValidationError("postComment", "id", "is missing")
    replayer = fake_replayer(tmp_path, odd, calls)
    replayer.outbox.enqueue(OutboxAction.new_comment("s", "first"))
    result = await replayer.replay()
    assert len(result.sent) == 1 and result.remaining == 0
    await replayer.replay()
    assert calls == ["first"]


async def test_items_queued_during_a_replay_go_in_the_same_run(tmp_path: Path) -> None:
    calls: list[str] = []
    replayer = fake_replayer(tmp_path, None, calls)
    replayer.outbox.enqueue(OutboxAction.new_comment("s", "first"))

    def queue_more(item: OutboxItem, error: Exception | None) -> None:
        if item.action.markdown == "first":
            replayer.outbox.enqueue(OutboxAction.new_comment("s", "typed meanwhile"))

    replayer.on_progress = queue_more
    result = await replayer.replay()
    assert calls == ["first", "typed meanwhile"] and result.remaining == 0


async def test_one_replay_at_a_time(tmp_path: Path) -> None:
    gate = asyncio.Event()
    started = asyncio.Event()
    drafts = DraftStore.for_account(URL, "tok-x", tmp_path / "drafts")
    outbox = Outbox.for_account(URL, "tok-x", tmp_path / "outbox", drafts=drafts)

    async def slow(action: OutboxAction) -> object:
        started.set()
        await gate.wait()
        return None

    replayer = Replayer(outbox, dict.fromkeys(("comment", "reply", "reaction", "resolve"), slow))
    outbox.enqueue(OutboxAction.new_comment("s", "one"))
    first = asyncio.create_task(replayer.replay())
    await asyncio.wait_for(started.wait(), 10)
    assert (await replayer.replay()).busy  # same app
    other_app = Replayer(outbox, replayer.handlers)
    assert (await other_app.replay()).busy  # another app instance of the account
    gate.set()
    result = await asyncio.wait_for(first, 10)
    assert not result.busy and len(result.sent) == 1


async def test_every_kind_needs_a_handler(tmp_path: Path, gb: AsyncGitBook) -> None:
    outbox = Outbox.for_account(URL, "tok-x", tmp_path)
    handlers = client_handlers(gb)
    del handlers["resolve"]
    with pytest.raises(ValueError, match="resolve"):
        Replayer(outbox, handlers)
