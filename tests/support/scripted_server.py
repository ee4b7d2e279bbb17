"""A scripted mock server for the transport tests: answers in turn, records requests and waits."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx

from gitbook_tui.api import AsyncGitBook

TOKEN = "tok-SECRET-4242-do-not-leak"
BASE = "http://gitbook.test/v1"
ORG = {"object": "organization", "id": "org1", "title": "Acme"}

Step = Callable[[httpx.Request], httpx.Response] | type[Exception]


def reply(
    status: int = 200,
    body: Any = ORG,
    headers: dict[str, str] | None = None,
    content: bytes | None = None,
) -> Callable[[httpx.Request], httpx.Response]:
    def make(request: httpx.Request) -> httpx.Response:
        if content is not None:
            return httpx.Response(status, content=content, headers=headers)
        return httpx.Response(status, json=body, headers=headers)

    return make


def fail(status: int, message: str = "Nope", headers: dict[str, str] | None = None) -> Step:
    return reply(status, {"error": {"code": status, "message": message}}, headers)


class Script:
    """A mock server answering with ``steps`` in turn (the last one repeats)."""

    def __init__(self, *steps: Step) -> None:
        self.steps = list(steps)
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        step = self.steps[min(len(self.requests), len(self.steps)) - 1]
        if isinstance(step, type) and issubclass(step, Exception):
            raise step("simulated failure", request=request)  # type: ignore[call-arg]
        return step(request)  # type: ignore[misc]

    @property
    def attempts(self) -> int:
        return len(self.requests)


def make_client(script: Script, **options: Any) -> tuple[AsyncGitBook, list[float]]:
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    client = AsyncGitBook(
        TOKEN, base_url=BASE, transport=httpx.MockTransport(script), sleep=sleep, **options
    )
    return client, waits
