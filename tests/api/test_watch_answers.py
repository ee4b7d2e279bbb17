"""``watch_answers``: a listener hears of every successful request (the app's outbox replays
on it), never of errors, and never fails a request."""

from __future__ import annotations

import httpx
import pytest

from gitbook_tui.api import APIConnectionError, AsyncGitBook, InternalServerError, NotFoundError


async def test_listener_hears_successes_only() -> None:
    def answer(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/down"):
            raise httpx.ConnectError("refused", request=request)
        status = {"/v1/user": 200, "/v1/missing": 404, "/v1/broken": 500}[request.url.path]
        body = {"id": "u1", "kind": "user", "displayName": "U"} if status == 200 else {}
        return httpx.Response(status, json=body)

    async def no_wait(_: float) -> None:
        return None

    client = AsyncGitBook(
        "tok",
        base_url="http://x/v1",
        transport=httpx.MockTransport(answer),
        max_retries=0,
        sleep=no_wait,
    )
    heard: list[str] = []
    stop = client.watch_answers(lambda: heard.append("ok"))

    def broken_listener() -> None:
        raise RuntimeError("a listener's bug")

    client.watch_answers(broken_listener)
    try:
        await client.users.me()
        assert heard == ["ok"]  # (the broken listener did not fail the request)
        with pytest.raises(NotFoundError):
            await client.get("/missing", dict, operation="t")
        with pytest.raises(InternalServerError):
            await client.get("/broken", dict, operation="t")
        with pytest.raises(APIConnectionError):
            await client.get("/down", dict, operation="t")
        assert heard == ["ok"]
        stop()
        await client.users.me()
        assert heard == ["ok"]
    finally:
        await client.close()
