"""A synchronous HTTP client that runs an ASGI app on an event loop of the calling thread."""

# Starlette's TestClient runs the app on an event loop in another thread and crosses over for
# every message of a request (request body, response start, each body chunk): ~4 ms a
# request on a busy 2-core machine, about twice what the app itself takes. A test making
# thousands of requests (the official-schema walk) spends most of its time there. Here each
# request is one step of the caller's own loop; sync endpoints still run in the worker
# threads they would use under a real server.

from __future__ import annotations

import asyncio
from typing import Any

import httpx

_Pending = tuple[httpx.Request, "asyncio.Future[httpx.Response]"]


class InLoopTransport(httpx.BaseTransport):
    """Hands each request to an ASGI app on a private event loop, run only while the
    request is answered."""

    def __init__(self, app: Any) -> None:
        self._loop = asyncio.new_event_loop()
        # the app's exceptions become 500 answers, as TestClient(raise_server_exceptions=False)
        self._asgi = httpx.ASGITransport(app=app, raise_app_exceptions=False)
        self._pending: asyncio.Queue[_Pending] = asyncio.Queue()
        # One long-lived task answers every request: anyio stops its worker threads when the
        # task it takes as the root finishes, so a task per request would start new threads
        # (for the app's sync endpoints) on every request.
        self._server = self._loop.create_task(self._serve())

    async def _serve(self) -> None:
        while True:
            request, answer = await self._pending.get()
            try:
                response = await self._asgi.handle_async_request(request)
                content = await response.aread()
            except Exception as exc:
                answer.set_exception(exc)
                continue
            answer.set_result(
                httpx.Response(
                    response.status_code,
                    headers=response.headers,
                    content=content,
                    extensions=response.extensions,
                )
            )

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        answer: asyncio.Future[httpx.Response] = self._loop.create_future()
        self._pending.put_nowait((request, answer))
        return self._loop.run_until_complete(answer)

    def close(self) -> None:
        if self._loop.is_closed():
            return
        self._server.cancel()
        self._loop.run_until_complete(asyncio.gather(self._server, return_exceptions=True))
        self._loop.run_until_complete(self._loop.shutdown_asyncgens())
        self._loop.close()


def asgi_client(app: Any, base_url: str, **options: Any) -> httpx.Client:
    """A client of ``app`` that behaves as Starlette's TestClient with
    ``raise_server_exceptions=False`` (redirects followed, cookies kept); close it after."""
    return httpx.Client(
        transport=InLoopTransport(app), base_url=base_url, follow_redirects=True, **options
    )
