"""The persistent response cache in the client: what is stored, read modes, revalidation, offline, invalidation."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from gitbook_tui import cli
from gitbook_tui.api import (
    APIConnectionError,
    AsyncGitBook,
    CacheMissError,
    response_meta,
)
from gitbook_tui.cache import (
    ResponseCache,
    account_fingerprint,
    default_cache_path,
)
from support.cache_kit import BASE, client_for, meta_of, raw_files, refuse_connection, warm_client


# -- what is stored ---------------------------------------------------------------------------
async def test_accounts_never_see_each_others_data(world: Any, cache: ResponseCache) -> None:
    alice, _ = client_for(world, cache, "alice")
    carol, _ = client_for(world, cache, "carol")
    async with alice, carol:
        assert (await alice.users.me()).displayName == "Alice"
        with pytest.raises(CacheMissError):
            await carol.users.me(read="cache-only")
        assert (await carol.users.me(read="prefer-cache")).displayName == "Carol"
        assert (await alice.users.me(read="cache-only")).displayName == "Alice"
        assert (await carol.users.me(read="cache-only")).displayName == "Carol"
    assert len(cache.info()["accounts"]) == 2


async def test_token_is_never_stored(world: Any, cache: ResponseCache) -> None:
    client, _ = client_for(world, cache)
    async with client:
        await client.users.me()
        await client.orgs.get(world.org)
        await client.orgs.members(world.org).to_list()
    assert cache.info()["entries"] >= 3
    raw = raw_files(cache.path)
    assert b"tok-alice" not in raw
    assert b"Alice" in raw  # the bodies are there (so the grep looks at real data)


async def test_only_get_responses_are_stored(world: Any, cache: ResponseCache) -> None:
    client, recording = client_for(world, cache)
    async with client:
        org = await client.orgs.update(world.org, title="Patched")
    assert org.title == "Patched"
    assert recording.log[0][0] == "PATCH"
    assert cache.info()["entries"] == 0


# -- read modes -----------------------------------------------------------------------------
async def test_network_mode_revalidates_with_if_none_match(
    world: Any, cache: ResponseCache
) -> None:
    client, recording = client_for(world, cache)
    async with client:
        first = await client.orgs.get(world.org)
        second = await client.orgs.get(world.org)
    assert recording.statuses() == [200, 304]
    etag = recording.log[1][3]
    assert etag and etag.startswith('W/"')
    assert recording.log[0][3] is None
    assert second == first
    meta = meta_of(second)
    assert meta.source == "network" and not meta.stale


async def test_prefer_cache_returns_cached_then_refresh_confirms_with_304(
    world: Any, cache: ResponseCache
) -> None:
    async with warm_client(world, cache) as (client, recording):
        org = await client.orgs.get(world.org, read="prefer-cache")
        meta = meta_of(org)
        assert meta.source == "cache" and meta.stale and not meta.offline
        assert meta.age >= 0.0
        assert meta.refresh is not None
        assert await meta.refresh is None
    assert recording.statuses() == [200, 304]


async def test_prefer_cache_refresh_resolves_to_the_fresh_value(
    world: Any, cache: ResponseCache
) -> None:
    async with warm_client(world, cache) as (client, recording):
        # changed behind the client's back: the cache cannot know
        r = world.client("alice").patch(f"/orgs/{world.org}", json={"title": "Renamed"})
        assert r.status_code == 200
        org = await client.orgs.get(world.org, read="prefer-cache")
        assert org.title == "Acme Docs"
        meta = meta_of(org)
        assert meta.refresh is not None
        fresh = await meta.refresh
        assert fresh is not None and fresh.title == "Renamed"
        again = await client.orgs.get(world.org, read="cache-only")
        assert again.title == "Renamed"
    assert recording.statuses() == [200, 200]


async def test_prefer_cache_miss_goes_to_the_network(world: Any, cache: ResponseCache) -> None:
    client, recording = client_for(world, cache)
    async with client:
        org = await client.orgs.get(world.org, read="prefer-cache")
    meta = meta_of(org)
    assert meta.source == "network" and meta.refresh is None
    assert recording.statuses() == [200]


async def test_cache_only(world: Any, cache: ResponseCache) -> None:
    client, recording = client_for(world, cache)
    async with client:
        with pytest.raises(CacheMissError):
            await client.orgs.get(world.org, read="cache-only")
        assert recording.log == []
        await client.orgs.get(world.org)
        org = await client.orgs.get(world.org, read="cache-only")
    assert org.id == world.org
    meta = meta_of(org)
    assert meta.source == "cache"
    assert len(recording.log) == 1


async def test_read_mode_default_comes_from_the_client(world: Any, cache: ResponseCache) -> None:
    client = AsyncGitBook(
        "tok-alice",
        base_url=BASE,
        transport=httpx.ASGITransport(app=world.app),
        cache=cache,
        read_mode="cache-only",
    )
    async with client:
        with pytest.raises(CacheMissError):
            await client.users.me()
        assert (await client.users.me(read="network")).displayName == "Alice"
        assert (await client.users.me()).displayName == "Alice"


# -- offline --------------------------------------------------------------------------------
async def test_offline_reads_fall_back_to_the_cache(world: Any, cache: ResponseCache) -> None:
    online, _ = client_for(world, cache)
    async with online:
        await online.orgs.get(world.org)
    offline, recording = client_for(world, cache, transport=httpx.MockTransport(refuse_connection))
    async with offline:
        org = await offline.orgs.get(world.org)
        with pytest.raises(APIConnectionError):
            await offline.users.me()  # never cached
    assert org.title == "Acme Docs"
    meta = meta_of(org)
    assert (meta.source, meta.stale, meta.offline) == ("cache", True, True)
    assert meta.age >= 0.0
    assert len(recording.log) == 0  # the mock raised before any answer


async def test_offline_without_cache_raises(world: Any) -> None:
    client, _ = client_for(world, None, transport=httpx.MockTransport(refuse_connection))
    async with client:
        with pytest.raises(APIConnectionError):
            await client.orgs.get(world.org)


# -- invalidation ---------------------------------------------------------------------------
async def test_mutation_invalidates_what_it_affects(world: Any, cache: ResponseCache) -> None:
    alice, recording = client_for(world, cache, "alice")
    carol, _ = client_for(world, cache, "carol")
    async with alice, carol:
        await alice.orgs.get(world.org)
        await alice.orgs.list().to_list()
        await alice.orgs.members(world.org).to_list()
        await alice.users.me()
        await carol.orgs.get(world.org)

        await alice.orgs.update(world.org, title="After")

        org = await alice.orgs.get(world.org, read="prefer-cache")
        meta = meta_of(org)
        assert meta.source == "network"
        assert org.title == "After"
        with pytest.raises(CacheMissError):
            await alice.orgs.list(read="cache-only").to_list()  # the parent list
        with pytest.raises(CacheMissError):
            await alice.orgs.members(world.org, read="cache-only").to_list()  # under it
        assert (await alice.users.me(read="cache-only")).displayName == "Alice"
        # another account's entries are its own business
        assert (await carol.orgs.get(world.org, read="cache-only")).title == "Acme Docs"
    assert ("PATCH", f"/v1/orgs/{world.org}", 200, None) in recording.log


async def test_failed_mutation_invalidates_nothing(world: Any, cache: ResponseCache) -> None:
    rhea, _ = client_for(world, cache, "rhea")  # read-only member
    async with rhea:
        await rhea.orgs.get(world.org)
        with pytest.raises(Exception):  # noqa: B017 - 403 or similar
            await rhea.orgs.update(world.org, title="Nope")
        assert (await rhea.orgs.get(world.org, read="cache-only")).title == "Acme Docs"


async def test_declared_prefixes_are_invalidated(cache: ResponseCache) -> None:
    account = account_fingerprint(BASE, "tok-alice")
    cache.put("a", account, "/spaces/s1/content", b"{}", None)
    cache.put("b", account, "/spaces/s10/content", b"{}", None)
    cache.put("c", account, "/orgs/x", b"{}", None)
    cache.put("d", account, "/orgs/y", b"{}", None)
    transport = httpx.MockTransport(lambda request: httpx.Response(204))
    client = AsyncGitBook("tok-alice", base_url=BASE, transport=transport, cache=cache)
    async with client:
        await client.send("POST", "/orgs/x/things", invalidates=["/spaces/s1"])
    assert cache.get("a") is None  # declared prefix
    assert cache.get("b") is not None  # a sibling that only shares the text prefix
    assert cache.get("c") is None  # the parent
    assert cache.get("d") is not None


# -- the CLI --------------------------------------------------------------------------------
async def _fill_default_cache(world: Any) -> None:
    c = ResponseCache()
    try:
        for name in ("alice", "carol"):
            client, _ = client_for(world, c, name)
            async with client:
                await client.users.me()
                await client.orgs.get(world.org)
    finally:
        c.close()


async def test_cache_info_and_clear(world: Any, capsys: pytest.CaptureFixture[str]) -> None:
    await _fill_default_cache(world)
    assert cli.main(["cache", "info"]) == 0
    out = capsys.readouterr().out
    assert str(default_cache_path()) in out
    assert "Entries:    4" in out
    for name in ("alice", "carol"):
        assert f"{account_fingerprint(BASE, 'tok-' + name)}: 2 entries" in out
        assert f"tok-{name}" not in out
    assert cli.main(["cache", "clear"]) == 0
    assert "Removed 4 cached responses" in capsys.readouterr().out
    assert cli.main(["cache", "info"]) == 0
    assert "Entries:    0" in capsys.readouterr().out
    assert b"tok-alice" not in raw_files(default_cache_path())


async def test_no_store_answers_are_not_cached(tmp_path) -> None:
    import httpx

    from gitbook_tui.api import AsyncGitBook, CacheMissError
    from gitbook_tui.cache import ResponseCache

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(
            200,
            json={"object": "user", "id": "u1", "displayName": "U"},
            headers={"Cache-Control": "no-store"},
        )

    cache = ResponseCache(tmp_path / "c.sqlite")
    client = AsyncGitBook(
        "t", base_url="http://x/v1", transport=httpx.MockTransport(handler), cache=cache
    )
    await client.users.me()
    try:
        await client.users.me(read="cache-only")
        raise AssertionError("a no-store answer was cached")
    except CacheMissError:
        pass
    await client.close()


async def test_posting_a_comment_refreshes_the_cached_space_counts(
    world, make_space, tmp_path
) -> None:
    import httpx

    from gitbook_tui.api import AsyncGitBook
    from gitbook_tui.cache import ResponseCache

    space = make_space("Counted")
    client = AsyncGitBook(
        "tok-alice",
        base_url="http://testserver/v1",
        transport=httpx.ASGITransport(app=world.app),
        cache=ResponseCache(tmp_path / "c.sqlite"),
    )
    before = await client.spaces.get(space["id"])
    assert before.comments == 0
    comment = await client.comments.create(space["id"], markdown="Counts?")
    after = await client.spaces.get(space["id"], read="prefer-cache")
    assert response_meta(after).source == "network" and after.comments == 1
    await client.comments.update(space["id"], comment.id, resolved=True)
    resolved = await client.spaces.get(space["id"], read="prefer-cache")
    assert response_meta(resolved).source == "network" and resolved.comments == 0
    await client.close()
