"""ASGI middleware of the local server: rate-limit headers, injected faults, ETag/304."""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from .faults import FaultRandom, Faults

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

DEFAULT_RATE_LIMIT = 100_000


def _header(scope: Scope, name: bytes) -> bytes | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return bytes(value)
    return None


class _Window:
    __slots__ = ("count", "start")

    def __init__(self, start: float) -> None:
        self.start = start
        self.count = 0


class ServiceMiddleware:
    """Wraps every ``/v1`` request: counts it against its caller's rate-limit window,
    applies injected faults, and turns GET answers into ETag-validated ones."""

    def __init__(self, app: ASGIApp, faults: Faults, now: Callable[[], float] = time.time) -> None:
        self.app = app
        self.faults = faults
        self.now = now
        self.random = FaultRandom(faults.seed)
        self.windows: dict[bytes, _Window] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith("/v1"):
            await self.app(scope, receive, send)
            return
        limit = self.faults.rate_limit or DEFAULT_RATE_LIMIT
        key = hashlib.sha256(_header(scope, b"authorization") or b"anonymous").digest()
        now = self.now()
        window = self.windows.get(key)
        if window is None or now - window.start >= self.faults.rate_window:
            window = self.windows[key] = _Window(now)
        window.count += 1
        reset = math.ceil(window.start + self.faults.rate_window)
        rate_headers = [
            (b"x-ratelimit-limit", str(limit).encode()),
            (b"x-ratelimit-remaining", str(max(0, limit - window.count)).encode()),
            (b"x-ratelimit-reset", str(reset).encode()),
        ]
        if self.faults.latency:
            await asyncio.sleep(self.faults.latency)
        if window.count > limit:
            retry_after = max(1, math.ceil(reset - now))
            await _send_error(
                send,
                429,
                "Rate limit exceeded; retry after the reset time.",
                [*rate_headers, (b"retry-after", str(retry_after).encode())],
            )
            return
        if self.random.hit(self.faults.error_rate):
            await _send_error(send, 503, "Injected fault: service unavailable.", rate_headers)
            return
        if scope["method"] == "GET":
            await self._get_with_etag(scope, receive, send, rate_headers)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + rate_headers
            await send(message)

        await self.app(scope, receive, send_with_headers)

    async def _get_with_etag(
        self, scope: Scope, receive: Receive, send: Send, extra: list[tuple[bytes, bytes]]
    ) -> None:
        start: Message | None = None
        chunks: list[bytes] = []

        async def capture(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                start = message
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        await self.app(scope, receive, capture)
        assert start is not None
        body = b"".join(chunks)
        headers = [h for h in start.get("headers", []) if h[0].lower() != b"content-length"]
        status = start["status"]
        if status == 200:
            etag = b'W/"' + hashlib.sha256(body).hexdigest()[:32].encode() + b'"'
            headers.append((b"etag", etag))
            headers.append((b"cache-control", b"private, no-cache"))
            candidates = _header(scope, b"if-none-match")
            if candidates and (
                candidates.strip() == b"*" or etag in [c.strip() for c in candidates.split(b",")]
            ):
                kept = [h for h in headers if h[0].lower() not in (b"content-type",)]
                await send({"type": "http.response.start", "status": 304, "headers": kept + extra})
                await send({"type": "http.response.body", "body": b""})
                return
        headers.append((b"content-length", str(len(body)).encode()))
        await send({"type": "http.response.start", "status": status, "headers": headers + extra})
        await send({"type": "http.response.body", "body": body})


async def _send_error(
    send: Send, status: int, message: str, headers: list[tuple[bytes, bytes]]
) -> None:
    body = json.dumps({"error": {"code": status, "message": message}}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
