"""Who a request is from, kept in memory between requests (no worker-thread hop), and reads
run on the event loop: a token revoked, a user changed or a role changed anywhere (this
server, another connection, another process) is seen by the very next request, and a read
never makes the event loop wait on a write under way."""

from __future__ import annotations

import asyncio
import threading

from gitbook_tui.server.core.context import Ctx, quick_read, token_key
from gitbook_tui.server.core.storage import Storage
from support.asserts import assert_error
from support.worlds import World


def test_a_token_revoked_by_the_server_is_refused_at_once(world: World) -> None:
    eve = world.client("eve")
    assert eve.get("/user").status_code == 200
    assert eve.get("/user").status_code == 200  # known by now
    with world.storage.transaction() as tx:
        tx.delete("token", token_key("tok-eve"))
    assert_error(eve.get("/user"), 401, "not valid")
    assert_error(eve.get(f"/orgs/{world.org}"), 401, "not valid")


def test_a_token_revoked_through_another_connection_is_refused_at_once(world: World) -> None:
    """Another process (``serve --rotate-token``, an admin script) writes to the same file."""
    eve = world.client("eve")
    assert eve.get("/user").status_code == 200
    other = Storage(world.storage.path)
    try:
        with other.transaction() as tx:
            tx.delete("token", token_key("tok-eve"))
    finally:
        other.close()
    assert_error(eve.get("/user"), 401, "not valid")


def test_a_user_changed_through_another_connection_is_seen_at_once(world: World) -> None:
    eve = world.client("eve")
    assert eve.get("/user").json()["displayName"] == "Eve"
    other = Storage(world.storage.path)
    try:
        with other.transaction() as tx:
            user = tx.get("user", world.users["eve"])
            assert user is not None
            tx.put("user", user["id"], {**user, "displayName": "Eve Renamed"})
    finally:
        other.close()
    assert eve.get("/user").json()["displayName"] == "Eve Renamed"


def test_a_role_taken_away_holds_at_the_next_request(world: World) -> None:
    eve = world.client("eve")
    space = world.client().post(f"/orgs/{world.org}/spaces", json={"title": "Guide"}).json()
    assert eve.patch(f"/spaces/{space['id']}", json={"title": "Eve's"}).status_code == 200
    r = world.client().patch(
        f"/orgs/{world.org}/members/{world.users['eve']}", json={"role": "read"}
    )
    assert r.status_code == 200
    assert_error(eve.patch(f"/spaces/{space['id']}", json={"title": "Again"}), 403)
    assert eve.get(f"/spaces/{space['id']}").json()["title"] == "Eve's"
    assert world.client().delete(f"/orgs/{world.org}/members/{world.users['eve']}").status_code
    assert eve.get(f"/spaces/{space['id']}").status_code == 404


def test_the_change_stamp_moves_with_every_write_of_any_connection(world: World) -> None:
    storage = world.storage
    first = storage.change_stamp()
    assert storage.change_stamp() == first
    with storage.transaction() as tx:
        tx.set_meta("probe", "1")
    second = storage.change_stamp()
    assert second != first
    other = Storage(storage.path)
    try:
        with other.transaction() as tx:
            tx.set_meta("probe", "2")
    finally:
        other.close()
    assert storage.change_stamp() != second


def test_a_quick_read_does_not_hold_the_loop_while_a_write_holds_the_storage(
    world: World,
) -> None:
    storage = world.storage
    holding, release = threading.Event(), threading.Event()

    def writer() -> None:
        with storage.transaction():
            holding.set()
            release.wait(10)

    ctx = Ctx(state=world.app.state.server, caller={"id": world.users["eve"]}, origin="")

    def read() -> str | None:
        with ctx.read() as tx:
            return tx.meta("schema_version")

    async def scenario() -> str | None:
        thread = threading.Thread(target=writer)
        thread.start()
        assert await asyncio.to_thread(holding.wait, 10)
        answer = asyncio.ensure_future(quick_read(ctx, read))
        await asyncio.sleep(0)  # the loop runs on while the read waits for the storage
        assert not answer.done()
        release.set()
        found = await answer
        await asyncio.to_thread(thread.join, 10)
        # free again: read on the loop itself
        assert await quick_read(ctx, lambda: threading.current_thread()) is (
            threading.current_thread()
        )
        return found

    assert asyncio.run(scenario()) == "1"
