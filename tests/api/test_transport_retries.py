"""Retries: which requests, after which failures, waiting how long (backoff, Retry-After, rate-limit reset, timeouts)."""

from __future__ import annotations

import email.utils
import time
from datetime import UTC, datetime, timedelta

import httpx
import pytest

from gitbook_tui.api import (
    APIConnectionError,
    APIStatusError,
    APITimeoutError,
    InternalServerError,
    RateLimitError,
)
from support.scripted_server import Script, fail, make_client, reply


# -- retries --------------------------------------------------------------------------------
@pytest.mark.parametrize("status", [408, 429, 500, 502, 503, 504])
async def test_get_retried_on_retryable_status(status: int) -> None:
    script = Script(fail(status), reply())
    client, waits = make_client(script)
    async with client:
        org = await client.orgs.get("org1")
    assert org.id == "org1"
    assert script.attempts == 2
    assert len(waits) == 1


@pytest.mark.parametrize("method", ["HEAD", "PUT", "DELETE"])
async def test_idempotent_methods_retried(method: str) -> None:
    script = Script(fail(502), fail(503), reply(204, content=b""))
    client, waits = make_client(script)
    async with client:
        assert await client.send(method, "/orgs/org1/thing") is None
    assert script.attempts == 3
    assert [r.method for r in script.requests] == [method] * 3
    assert len(waits) == 2


@pytest.mark.parametrize("status", [400, 401, 403, 404, 409, 412, 422])
async def test_client_errors_not_retried(status: int) -> None:
    script = Script(fail(status))
    client, waits = make_client(script)
    async with client:
        with pytest.raises(APIStatusError):
            await client.orgs.get("org1")
    assert script.attempts == 1
    assert waits == []


@pytest.mark.parametrize("method", ["POST", "PATCH"])
@pytest.mark.parametrize("status", [408, 429, 500, 503])
async def test_post_patch_not_retried_once_they_reached_the_server(
    method: str, status: int
) -> None:
    script = Script(fail(status, headers={"Retry-After": "1"}), reply())
    client, waits = make_client(script)
    async with client:
        with pytest.raises(APIStatusError) as info:
            await client.send(method, "/orgs/org1/spaces", body={"title": "x"})
    assert info.value.status == status
    assert script.attempts == 1
    assert waits == []


async def test_5xx_exhaustion_after_exactly_three_attempts() -> None:
    script = Script(fail(500, "Still broken"))
    client, waits = make_client(script)
    async with client:
        with pytest.raises(InternalServerError) as info:
            await client.orgs.get("org1")
    assert info.value.message == "Still broken"
    assert script.attempts == 3
    assert len(waits) == 2
    # backoff 0.5·2ⁿ with jitter (80–100 %)
    assert 0.4 <= waits[0] <= 0.5
    assert 0.8 <= waits[1] <= 1.0


async def test_backoff_doubles_and_is_capped_at_8_seconds() -> None:
    script = Script(fail(503))
    client, waits = make_client(script, max_retries=7)
    async with client:
        with pytest.raises(InternalServerError):
            await client.orgs.get("org1")
    assert script.attempts == 8
    nominal = [0.5, 1, 2, 4, 8, 8, 8]
    for wait, expected in zip(waits, nominal, strict=True):
        assert 0.8 * expected <= wait <= expected
    assert max(waits) <= 8.0


async def test_jitter_varies_the_waits() -> None:
    seen = set()
    for _ in range(5):
        client, waits = make_client(Script(fail(500), reply()))
        async with client:
            await client.orgs.get("org1")
        seen.add(waits[0])
    assert len(seen) > 1


@pytest.mark.parametrize("exc", [httpx.ConnectError, httpx.ReadError, httpx.RemoteProtocolError])
async def test_get_retried_on_connection_errors(exc: type[Exception]) -> None:
    script = Script(exc, exc, reply())
    client, waits = make_client(script)
    async with client:
        org = await client.orgs.get("org1")
    assert org.title == "Acme"
    assert script.attempts == 3
    assert len(waits) == 2


async def test_connection_error_exhaustion() -> None:
    script = Script(httpx.ConnectError)
    client, waits = make_client(script)
    async with client:
        with pytest.raises(APIConnectionError) as info:
            await client.orgs.get("org1")
    assert not isinstance(info.value, APITimeoutError)
    assert (info.value.method, info.value.path) == ("GET", "/orgs/org1")
    assert script.attempts == 3 and len(waits) == 2


async def test_post_not_retried_after_read_error() -> None:
    script = Script(httpx.ReadError, reply())
    client, waits = make_client(script)
    async with client:
        with pytest.raises(APIConnectionError):
            await client.send("POST", "/orgs/org1/spaces", body={"title": "x"})
    assert script.attempts == 1
    assert waits == []


async def test_post_retried_after_connect_error() -> None:
    script = Script(httpx.ConnectError, reply(201, {"id": "s1"}))
    client, waits = make_client(script)
    async with client:
        result = await client.send("POST", "/orgs/org1/spaces", dict, body={"title": "x"})
    assert result == {"id": "s1"}
    assert script.attempts == 2
    assert len(waits) == 1


async def test_patch_not_retried_after_read_error() -> None:
    script = Script(httpx.ReadError, reply())
    client, _ = make_client(script)
    async with client:
        with pytest.raises(APIConnectionError):
            await client.orgs.update("org1", title="New")
    assert script.attempts == 1


# -- server-requested waits -----------------------------------------------------------------
async def test_retry_after_seconds_is_honoured() -> None:
    script = Script(fail(429, headers={"Retry-After": "7"}), reply())
    client, waits = make_client(script)
    async with client:
        await client.orgs.get("org1")
    assert waits == [7.0]


async def test_retry_after_http_date_is_honoured() -> None:
    when = datetime.now(UTC) + timedelta(seconds=30)
    header = email.utils.format_datetime(when, usegmt=True)
    script = Script(fail(429, headers={"Retry-After": header}), reply())
    client, waits = make_client(script)
    async with client:
        await client.orgs.get("org1")
    assert len(waits) == 1
    assert 27.0 <= waits[0] <= 30.0


async def test_retry_after_on_503_is_honoured() -> None:
    script = Script(fail(503, headers={"Retry-After": "3"}), reply())
    client, waits = make_client(script)
    async with client:
        await client.orgs.get("org1")
    assert waits == [3.0]


async def test_ratelimit_reset_epoch_is_honoured_on_429() -> None:
    reset = int(time.time()) + 20
    script = Script(fail(429, headers={"X-RateLimit-Reset": str(reset)}), reply())
    client, waits = make_client(script)
    async with client:
        await client.orgs.get("org1")
    assert len(waits) == 1
    assert 18.0 <= waits[0] <= 21.0


async def test_ratelimit_reset_not_used_as_wait_for_5xx() -> None:
    # The window reset says nothing about when a failing server recovers.
    reset = int(time.time()) + 60
    script = Script(fail(500, headers={"X-RateLimit-Reset": str(reset)}), reply())
    client, waits = make_client(script)
    async with client:
        await client.orgs.get("org1")
    assert len(waits) == 1 and waits[0] <= 0.5


async def test_wait_beyond_120_seconds_raises_rate_limit_error() -> None:
    script = Script(fail(429, "Slow down", headers={"Retry-After": "300"}), reply())
    client, waits = make_client(script)
    before = datetime.now(UTC)
    async with client:
        with pytest.raises(RateLimitError) as info:
            await client.orgs.get("org1")
    assert script.attempts == 1
    assert waits == []
    error = info.value
    assert error.reset_at is not None
    assert timedelta(seconds=295) <= error.reset_at - before <= timedelta(seconds=305)
    assert error.wait_seconds is not None and 290 <= error.wait_seconds <= 300
    assert error.reset_at.isoformat() in str(error)


async def test_reset_epoch_beyond_120_seconds_raises_with_the_reset_time() -> None:
    reset = int(time.time()) + 600
    script = Script(fail(429, headers={"X-RateLimit-Reset": str(reset)}))
    client, waits = make_client(script)
    async with client:
        with pytest.raises(RateLimitError) as info:
            await client.orgs.get("org1")
    assert waits == [] and script.attempts == 1
    assert info.value.reset_at is not None
    assert abs(info.value.reset_at.timestamp() - reset) < 2


async def test_429_exhaustion_raises_rate_limit_error() -> None:
    script = Script(fail(429, headers={"Retry-After": "2"}))
    client, waits = make_client(script)
    async with client:
        with pytest.raises(RateLimitError):
            await client.orgs.get("org1")
    assert script.attempts == 3
    assert waits == [2.0, 2.0]


async def test_last_rate_limit_headers_are_readable() -> None:
    reset = int(time.time()) + 42
    headers = {
        "X-RateLimit-Limit": "100",
        "X-RateLimit-Remaining": "57",
        "X-RateLimit-Reset": str(reset),
    }
    client, _ = make_client(Script(reply(headers=headers)))
    async with client:
        assert client.rate_limit.remaining is None
        await client.orgs.get("org1")
    assert client.rate_limit.limit == 100
    assert client.rate_limit.remaining == 57
    assert client.rate_limit.reset == datetime.fromtimestamp(reset, UTC)


async def test_remaining_recorded_without_a_limit_header() -> None:
    client, _ = make_client(Script(reply(headers={"X-RateLimit-Remaining": "3"})))
    async with client:
        await client.orgs.get("org1")
    assert client.rate_limit.remaining == 3


# -- timeouts -------------------------------------------------------------------------------
async def test_default_timeouts_connect_5_read_30() -> None:
    script = Script(reply())
    client, _ = make_client(script)
    async with client:
        await client.orgs.get("org1")
    timeout = script.requests[0].extensions["timeout"]
    assert timeout["connect"] == 5.0
    assert timeout["read"] == 30.0


async def test_timeouts_are_configurable() -> None:
    script = Script(reply())
    client, _ = make_client(script, timeout=httpx.Timeout(60.0, connect=2.0))
    async with client:
        await client.orgs.get("org1")
    timeout = script.requests[0].extensions["timeout"]
    assert (timeout["connect"], timeout["read"]) == (2.0, 60.0)


async def test_get_read_timeout_retried_then_raised() -> None:
    script = Script(httpx.ReadTimeout)
    client, waits = make_client(script)
    async with client:
        with pytest.raises(APITimeoutError) as info:
            await client.orgs.get("org1")
    assert isinstance(info.value, APIConnectionError)
    assert script.attempts == 3 and len(waits) == 2


async def test_get_connect_timeout_retried_then_succeeds() -> None:
    script = Script(httpx.ConnectTimeout, reply())
    client, _ = make_client(script)
    async with client:
        assert (await client.orgs.get("org1")).id == "org1"
    assert script.attempts == 2


async def test_post_read_timeout_not_retried() -> None:
    script = Script(httpx.ReadTimeout, reply())
    client, waits = make_client(script)
    async with client:
        with pytest.raises(APITimeoutError):
            await client.send("POST", "/orgs/org1/spaces", body={})
    assert script.attempts == 1 and waits == []


async def test_post_connect_timeout_retried() -> None:
    script = Script(httpx.ConnectTimeout, reply(201, {"ok": True}))
    client, waits = make_client(script)
    async with client:
        assert await client.send("POST", "/orgs/org1/spaces", dict, body={}) == {"ok": True}
    assert script.attempts == 2 and len(waits) == 1
