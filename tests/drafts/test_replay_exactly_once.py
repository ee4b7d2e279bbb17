"""A queued item is posted once even when its send landed but the app never learned it: the
app killed while the server answered (then restarted), or the answer after the timeout.

Each case ends with exactly one copy on the server and an empty queue, through either
guard alone — the server honouring ``Idempotency-Key`` ("key": the replay does not check
first), or the check before sending again against a server that ignores the header
("check") — and both together, as the app runs ("both"). A restart is a new client,
outbox and replayer over the same files: the code path of a fresh start.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any, NamedTuple

import httpx
import pytest

from gitbook_tui.api import AsyncGitBook
from gitbook_tui.cache import account_fingerprint
from gitbook_tui.drafts import DraftStore, Outbox, OutboxAction, Replayer, client_handlers
from gitbook_tui.drafts.replay_check import client_landed, same_text
from gitbook_tui.drafts.replay_loop import ReplayLoop, client_probe
from support.closing import CloseLater
from support.waits import until

URL = "http://testserver/v1"
MODES = ["key", "check", "both"]


class Killed(BaseException):
    """The process dies here (kill -9): nothing after it runs, no handler sees it."""


class Wire(httpx.AsyncBaseTransport):
    """The in-process server behind a wire the test can break after the server applied a
    write (``fault``: "killed" — the app dies while the answer is on its way; "late" —
    the answer comes after the client's timeout; "lost" — the app dies before the request
    leaves). ``ignore_key``: the server never sees ``Idempotency-Key``."""

    def __init__(self, app: Any, *, ignore_key: bool = False) -> None:
        self.inner = httpx.ASGITransport(app=app)
        self.ignore_key = ignore_key
        self.fault: str | None = None
        self.offline = False
        self.writes: list[tuple[str, str | None]] = []  # (method path, key) that reached it

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.offline:
            raise httpx.ConnectError("Connection refused", request=request)
        write = request.method in ("POST", "PUT")
        fault, self.fault = (self.fault, None) if write else (None, self.fault)
        if fault == "lost":
            raise Killed
        if write:
            key = request.headers.get("idempotency-key")
            self.writes.append((f"{request.method} {request.url.path}", key))
            if self.ignore_key and key is not None:
                del request.headers["idempotency-key"]
        response = await self.inner.handle_async_request(request)
        if fault == "killed":
            raise Killed
        if fault == "late":
            raise httpx.ReadTimeout("timed out", request=request)
        return response


async def no_wait(_: float) -> None:
    return None


class App:
    """One run of the app for alice: client (over a Wire), drafts, outbox, replayer."""

    def __init__(self, world: Any, root: Path, mode: str) -> None:
        self.wire = Wire(world.app, ignore_key=mode == "check")
        self.client = AsyncGitBook("tok-alice", base_url=URL, transport=self.wire, sleep=no_wait)
        self.drafts = DraftStore.for_account(URL, "tok-alice", root / "drafts")
        # queue times by the server's (test) clock: the check compares them with postedAt
        account = account_fingerprint(URL, "tok-alice")
        self.outbox = Outbox(account, root / "outbox", drafts=self.drafts, now=world.clock.now)
        landed = client_landed(self.client) if mode != "key" else None
        self.replayer = Replayer(self.outbox, client_handlers(self.client), landed=landed)


@pytest.fixture
def start(world: Any, tmp_path: Path, close_later: CloseLater) -> Callable[[str], App]:
    """``start(mode)``: the app (again, over the same files: a restart)."""
    return lambda mode: close_later(App(world, tmp_path / "alice", mode))


class Thread(NamedTuple):
    """The thread items are queued for; ``gb`` reads what the server holds."""

    space: str
    comment: str
    gb: AsyncGitBook


@pytest.fixture
async def thread(gb: AsyncGitBook, world: Any) -> Thread:
    space = await gb.spaces.create_in_org(world.org, title="Discussed")
    comment = await gb.comments.create(space.id, "Is this right?")
    return Thread(space.id, comment.id, gb)


def action(kind: str, space: str, thread: str) -> OutboxAction:
    if kind == "comment":
        return OutboxAction.new_comment(space, "A thought, written offline")
    if kind == "reply":
        return OutboxAction.new_reply(space, thread, "Yes, it is.")
    if kind == "reaction":
        return OutboxAction.new_reaction(space, thread, added=["👍"])
    return OutboxAction.new_resolve(space, thread)


async def server_state(on: Thread) -> dict[str, Any]:
    gb, space, thread = on.gb, on.space, on.comment
    comments = [c async for c in gb.comments.list(space, order="asc")]
    main = next(c for c in comments if c.id == thread)
    return {
        "comments": [c.body.markdown for c in comments],
        "replies": [r.body.markdown async for r in gb.comments.replies(space, thread)],
        "reactions": [(r.emoji, r.count) for r in main.reactions],
        "resolved": main.is_resolved,
    }


async def crash_then_restart(
    start: Callable[[str], App], mode: str, fault: str, queued: OutboxAction
) -> App:
    """Queue ``queued``, replay it with ``fault`` on its send, then replay after a restart."""
    first = start(mode)
    item = first.outbox.enqueue(queued)
    first.wire.fault = fault
    if fault == "late":
        result = await first.replayer.replay()  # the timeout stops it; the item stays
        assert result.offline and result.remaining == 1
    else:
        with pytest.raises(Killed):
            await first.replayer.replay()
    assert [(i.id, i.attempts) for i in first.outbox.pending()] == [(item.id, 1)]
    again = start(mode)
    result = await again.replayer.replay()
    assert [i.id for i in result.sent] == [item.id] and result.remaining == 0
    assert again.outbox.pending() == [] and again.outbox.failed() == []
    assert again.outbox.path.read_bytes() == b""  # the log starts the next spell empty
    return again


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("fault", ["killed", "late"])
async def test_a_reply_that_landed_is_posted_once(
    start: Callable[[str], App], thread: Thread, fault: str, mode: str
) -> None:
    space, comment, _ = thread
    again = await crash_then_restart(start, mode, fault, action("reply", space, comment))
    assert (await server_state(thread))["replies"] == ["Yes, it is."]
    if mode == "key":  # sent again with the first send's key: the server's first answer
        [(_, resent)] = again.wire.writes
        assert resent is not None and len(resent) == 32
    else:  # found on the server: not sent again
        assert again.wire.writes == []


@pytest.mark.parametrize("mode", ["key", "check"])
@pytest.mark.parametrize("kind", ["comment", "reply", "reaction", "resolve"])
async def test_every_kind_once_after_a_kill(
    start: Callable[[str], App], thread: Thread, kind: str, mode: str
) -> None:
    space, comment, _ = thread
    before = await server_state(thread)
    await crash_then_restart(start, mode, "killed", action(kind, space, comment))
    after = await server_state(thread)
    expected = {
        "comment": {"comments": [*before["comments"], "A thought, written offline"]},
        "reply": {"replies": ["Yes, it is."]},
        "reaction": {"reactions": [("👍", 1)]},
        "resolve": {"resolved": True},
    }[kind]
    assert after == before | expected


async def test_killed_before_dequeuing_an_answered_send(
    start: Callable[[str], App], thread: Thread
) -> None:
    """The answer arrived, then the app died before it could mark the item done."""
    space, comment, _ = thread
    first = start("both")
    first.outbox.enqueue(action("reply", space, comment))

    def die(item_id: str, result: str | None = None) -> bool:
        raise Killed

    first.outbox.mark_done = die  # type: ignore[method-assign]
    with pytest.raises(Killed):
        await first.replayer.replay()
    again = start("both")
    result = await again.replayer.replay()
    assert len(result.sent) == 1 and result.remaining == 0
    assert (await server_state(thread))["replies"] == ["Yes, it is."]


async def test_a_send_that_never_left_is_sent_after_the_check(
    start: Callable[[str], App], thread: Thread
) -> None:
    space, comment, _ = thread
    await crash_then_restart(start, "check", "lost", action("reply", space, comment))
    assert (await server_state(thread))["replies"] == ["Yes, it is."]


async def test_the_check_does_not_take_an_earlier_item_s_identical_reply(
    start: Callable[[str], App], thread: Thread
) -> None:
    """Two "+1" queued: the first is sent; the app dies while the second's landed. The
    first's reply is not mistaken for the second's (nor the second sent twice)."""
    space, comment, _ = thread
    first = start("check")
    one = first.outbox.enqueue(OutboxAction.new_reply(space, comment, "+1"))
    two = first.outbox.enqueue(OutboxAction.new_reply(space, comment, "+1"))
    first.replayer.on_progress = lambda item, error: setattr(first.wire, "fault", "killed")
    with pytest.raises(Killed):
        await first.replayer.replay()
    assert [(i.id, i.attempts) for i in first.outbox.pending()] == [(two.id, 1)]
    again = start("check")
    result = await again.replayer.replay()
    assert [i.id for i in result.sent] == [two.id] and result.remaining == 0
    assert one.id != two.id and again.wire.writes == []
    assert (await server_state(thread))["replies"] == ["+1", "+1"]


async def test_the_check_does_not_take_an_older_identical_post_of_mine(
    start: Callable[[str], App], thread: Thread, world: Any
) -> None:
    """ "Thanks!" said online an hour ago; another "Thanks!" queued whose send never left:
    the old one is not taken for it (it is older than the queue time)."""
    space, comment, gb = thread
    await gb.comments.create_reply(space, comment, "Thanks!")
    world.clock.advance(timedelta(hours=1))
    await crash_then_restart(
        start, "check", "lost", OutboxAction.new_reply(space, comment, "Thanks!")
    )
    assert (await server_state(thread))["replies"] == ["Thanks!", "Thanks!"]


async def test_a_late_answer_while_the_app_runs_shows_nothing_queued_after(
    world: Any, tmp_path: Path, thread: Thread
) -> None:
    """The app's replay loop: the answer comes after the timeout ("1 queued · replaying…"),
    the loop tries again, and the status ends at nothing queued, not replaying."""
    space, comment, _ = thread
    app = App(world, tmp_path / "alice", "both")
    loop = ReplayLoop(
        app.outbox, app.replayer, client_probe(app.client), min_delay=0.01, max_delay=0.02
    )
    app.wire.offline = True
    task = asyncio.create_task(loop.run())
    try:
        await loop.enqueue(action("reply", space, comment))
        assert loop.queued == 1 and loop.offline
        app.wire.offline, app.wire.fault = False, "late"
        await until(None, lambda: loop.queued == 0 and not loop.replaying)
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await app.client.close()
    assert (await server_state(thread))["replies"] == ["Yes, it is."]
    assert app.outbox.pending() == [] and app.outbox.failed() == []
    assert len(app.wire.writes) == 1  # the second round found it instead of posting it


def test_same_text_as_a_server_may_give_it_back() -> None:
    assert same_text("Yes,  it is.\n", "Yes, it is.")
    assert same_text("_really_ sure", "*really* sure")
    assert not same_text("Yes, it is", "No, it is not")
    assert not same_text(None, "x")
    assert same_text("👍", "👍") and not same_text("🎉", "👍")


def test_the_posts_sent_items_made_outlive_a_compaction(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("gitbook_tui.drafts.outbox.COMPACT_AFTER", 2)
    box = Outbox(account_fingerprint(URL, "tok-x"), tmp_path)
    items = [box.enqueue(OutboxAction.new_reply("s", "c", f"r{n}")) for n in range(5)]
    for n, item in enumerate(items[:4]):
        box.mark_done(item.id, f"reply-{n}")
    assert box.sent_results() == {"reply-0", "reply-1", "reply-2", "reply-3"}
    assert box.path.read_bytes().count(b"\n") < 6  # compacted meanwhile
    reopened = Outbox(account_fingerprint(URL, "tok-x"), tmp_path)
    assert reopened.sent_results() == {"reply-0", "reply-1", "reply-2", "reply-3"}
    assert [i.id for i in reopened.pending()] == [items[4].id]
    reopened.mark_done(items[4].id, "reply-4")
    assert reopened.sent_results() == frozenset() and reopened.path.read_bytes() == b""
