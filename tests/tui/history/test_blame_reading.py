"""How the blame reads a page's history: the page's texts are asked for while the chain of
revisions is still being read, and a slice of the walk never waits on a slow answer (what
it settled is shown meanwhile)."""

from __future__ import annotations

import asyncio

import httpx

from gitbook_tui.api import AsyncGitBook
from gitbook_tui.tui.history.blame_data import BlameWalk
from support.worlds import World


class HeldTexts(httpx.AsyncBaseTransport):
    """The in-process server, but the page texts asked for after the first ``free`` are held
    until :meth:`release` (or until ``together`` of them wait at once)."""

    def __init__(self, world: World, *, free: int = 1, together: int | None = None) -> None:
        self.inner = httpx.ASGITransport(app=world.app)
        self.free, self.together = free, together
        self.texts = self.waiting = self.most_waiting = 0
        self.gate = asyncio.Event()

    def release(self) -> None:
        self.gate.set()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if "/page/" in request.url.path:
            self.texts += 1
            if self.texts > self.free:
                self.waiting += 1
                self.most_waiting = max(self.most_waiting, self.waiting)
                if self.together is not None and self.waiting >= self.together:
                    self.release()
                try:
                    await self.gate.wait()
                finally:
                    self.waiting -= 1
        return await self.inner.handle_async_request(request)


async def _walk_of_intro(client: AsyncGitBook, story: dict) -> BlameWalk:
    revision = (await client.spaces.get(story["space"])).revision
    assert revision is not None
    return BlameWalk(client, story["space"], story["pages"]["Intro"], revision)


async def _to_the_end(walk: BlameWalk) -> None:
    while not walk.done:
        await walk.advance(0.05)


async def test_older_texts_are_asked_for_while_the_chain_is_still_read(
    world: World, story: dict
) -> None:
    # Older texts are answered only once three are asked for at once: a walk that asks for
    # one text at a time, waiting for each, would never get them.
    transport = HeldTexts(world, together=3)
    async with AsyncGitBook("tok-alice", base_url="http://testserver/v1", transport=transport) as (
        client
    ):
        walk = await _walk_of_intro(client, story)
        await asyncio.wait_for(_to_the_end(walk), timeout=15)
    assert walk.ending == "created" and transport.most_waiting >= 3
    assert walk.blame is not None and walk.entry_of(0) is walk.entries[0]


async def test_a_slice_shows_what_it_settled_without_waiting_for_slower_answers(
    world: World, story: dict
) -> None:
    # The head's text and two older ones come at once, the others are held.
    transport = HeldTexts(world, free=3)
    async with AsyncGitBook("tok-alice", base_url="http://testserver/v1", transport=transport) as (
        client
    ):
        walk = await _walk_of_intro(client, story)
        settled: list[int] = []
        for _slice in range(300):  # each slice returns, whether the answers came or not
            settled += await asyncio.wait_for(walk.advance(0.05), timeout=15)
            if settled:
                break
        # the newest edit's paragraph is dated; the rest waits on the held texts
        assert settled == [0] and not walk.done
        newest = walk.entry_of(0)
        assert newest is not None and newest.kind == "edits"
        assert walk.entry_of(1) is None
        assert await asyncio.wait_for(walk.advance(0.05), timeout=15) == []  # still held
        transport.release()
        await asyncio.wait_for(_to_the_end(walk), timeout=15)
    assert walk.ending == "created" and walk.entry_of(0) is newest
    second = walk.entry_of(1)
    assert second is not None and second.cr_number is not None and "Seed" in second.what


async def test_a_missing_parent_met_while_reading_ahead_ends_the_walk(
    world: World, story: dict
) -> None:
    with world.storage.transaction() as tx:
        record = tx.get("space", story["space"])
        head = tx.get("revision", record["revision"])
        head["parents"] = ["gone-revision"]  # (a revision whose parent was never stored)
        tx.put("revision", head["id"], head, scope=story["space"])
    world.storage._revision_cache.pop(head["id"], None)  # the server's copy, as it was read
    transport = httpx.ASGITransport(app=world.app)
    async with AsyncGitBook("tok-alice", base_url="http://testserver/v1", transport=transport) as (
        client
    ):
        walk = await _walk_of_intro(client, story)
        await asyncio.wait_for(_to_the_end(walk), timeout=15)
    # no error: the history ends there, and every block dates from then or before
    assert walk.ending == "missing" and walk.blame is not None
    assert all(walk.at_or_before(b) for b in range(len(walk.blame.blocks)))
