"""ReplayLoop: the app-wide outbox — counting, probing with backoff, replaying on an answer."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from gitbook_tui.api import APIConnectionError, InternalServerError, NotFoundError
from gitbook_tui.drafts import DraftStore, Outbox, OutboxAction, Replayer, ReplayLoop
from gitbook_tui.drafts.replay_loop import RECOUNT_SECONDS
from support.waits import until

ACCOUNT = "a" * 32


class FakeServer:
    """Handlers for every kind that record what was sent, and a probe; ``state`` is
    "up", "down" (connection refused) or "broken" (500 on writes, probe answers)."""

    def __init__(self) -> None:
        self.state = "down"
        self.sent: list[str] = []
        self.probes = 0

    async def handle(self, action: OutboxAction) -> object:
        if self.state == "down":
            raise APIConnectionError("POST", "/comments", detail="refused")
        if self.state == "broken":
            raise InternalServerError(500, "boom", "POST", "/comments")
        self.sent.append(action.markdown or action.kind)
        return None

    async def probe(self) -> bool:
        self.probes += 1
        return self.state != "down"


@pytest.fixture
async def world_loop(
    tmp_path: Path,
) -> AsyncIterator[Callable[..., tuple[ReplayLoop, FakeServer, list[tuple[int, bool]]]]]:
    tasks: list[asyncio.Task[None]] = []

    def make(
        *, queued: tuple[str, ...] = (), min_delay: float = 0.02, max_delay: float = 0.08
    ) -> tuple[ReplayLoop, FakeServer, list[tuple[int, bool]]]:
        server = FakeServer()
        drafts = DraftStore(ACCOUNT, tmp_path / "drafts")
        outbox = Outbox(ACCOUNT, tmp_path / "outbox", drafts=drafts)
        for text in queued:
            outbox.enqueue(OutboxAction.new_reply("space", "thread", text))
        handlers = dict.fromkeys(("comment", "reply", "reaction", "resolve"), server.handle)
        loop = ReplayLoop(
            outbox,
            Replayer(outbox, handlers),  # type: ignore[arg-type]
            server.probe,
            min_delay=min_delay,
            max_delay=max_delay,
        )
        seen: list[tuple[int, bool]] = []
        loop.watch(lambda: seen.append((loop.queued, loop.replaying)))
        tasks.append(asyncio.create_task(loop.run()))
        return loop, server, seen

    yield make
    for task in tasks:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def test_a_queue_found_at_start_is_counted_then_replayed_in_order(world_loop) -> None:
    loop, server, seen = world_loop(queued=("one", "two", "three"))
    await until(None, lambda: loop.queued == 3)
    server.state = "up"
    await until(None, lambda: loop.queued == 0)
    assert server.sent == ["one", "two", "three"]
    assert (3, False) in seen and seen[-1] == (0, False)
    assert any(replaying for _, replaying in seen)  # "replaying…" was shown
    assert loop.replays == 1


async def test_offline_probes_back_off_and_stop_when_nothing_is_queued(world_loop) -> None:
    loop, server, _ = world_loop(queued=("one",), min_delay=0.01, max_delay=0.08)
    await until(None, lambda: server.probes >= 6)
    # the first probe at once, then waits doubling up to the longest: never a burst
    assert list(loop.waits)[:5] == [0.01, 0.02, 0.04, 0.08, 0.08]
    assert loop.offline and loop.queued == 1
    server.state = "up"
    await until(None, lambda: loop.queued == 0 and loop.waits[-1] == RECOUNT_SECONDS)
    assert server.sent == ["one"]
    probes = server.probes
    loop.reachable()  # answers while nothing is queued wake nothing
    await until(None, lambda: loop.waits[-1] == RECOUNT_SECONDS and not loop.replaying)
    assert server.probes == probes


async def test_an_answer_elsewhere_replays_without_waiting_for_the_probe(world_loop) -> None:
    loop, server, _ = world_loop(min_delay=60.0, max_delay=60.0)
    await loop.enqueue(OutboxAction.new_reply("space", "thread", "queued"))
    assert loop.queued == 1 and loop.offline
    server.state = "up"
    loop.reachable()  # the client's watch_answers: some other request succeeded
    await until(None, lambda: loop.queued == 0)
    assert server.sent == ["queued"]
    assert server.probes == 0


async def test_after_a_server_error_answers_elsewhere_do_not_hammer(world_loop) -> None:
    loop, server, _ = world_loop(min_delay=50.0, max_delay=50.0)
    waits_when_replay_ended: list[int] = []
    loop.watch(lambda: None if loop.replaying else waits_when_replay_ended.append(len(loop.waits)))
    await loop.enqueue(OutboxAction.new_reply("space", "thread", "queued"))
    server.state = "broken"
    loop.reachable()
    # one attempt, refused with a 500: then only the probe's backoff (50 s) retries it.
    # (How many waits came before depends on how the start raced the enqueue: count from
    # the end of the replay.)
    await until(None, lambda: loop.outbox.pending()[0].attempts == 1 and not loop.replaying)
    ended = waits_when_replay_ended[-1]
    await until(None, lambda: len(loop.waits) > ended)
    assert loop.waits[-1] == 50.0
    waits = len(loop.waits)
    for _ in range(20):  # the app keeps getting answers: no replay per answer
        loop.reachable()
        await asyncio.sleep(0)
    assert len(loop.waits) == waits and not loop.replaying
    assert loop.outbox.pending()[0].attempts == 1


async def test_refused_items_are_reported_to_result_listeners(world_loop) -> None:
    loop, server, _ = world_loop()
    results: list[Any] = []
    loop.on_result(results.append)

    async def refuse(action: OutboxAction) -> object:
        raise NotFoundError(404, "Comment not found", "POST", "/replies")

    loop.replayer.handlers["reply"] = refuse
    await loop.enqueue(OutboxAction.new_reply("space", "thread", "gone"))
    server.state = "up"
    loop.reachable()
    await until(None, lambda: results)
    assert [i.action.markdown for i in results[0].failed] == ["gone"]
    assert loop.queued == 0
