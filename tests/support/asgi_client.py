"""A synchronous HTTP client that runs an ASGI app on an event loop of the calling thread."""

# Starlette's TestClient runs the app on an event loop in another thread and crosses over for
# every message of a request (request body, response start, each body chunk): ~4 ms a
# request on a busy 2-core machine, about twice what the app itself takes. A test making
# thousands of requests (the official-schema walk) spends most of its time there. Here each
# request is one step of the caller's own loop; sync endpoints still run in the worker
# threads they would use under a real server.

from __future__ import annotations

import asyncio
import http
import io
from typing import Any
from urllib.parse import unquote, urlsplit

import httpx
import requests.adapters
import urllib3

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
        _stop_loop(self._loop, self._server)


def asgi_client(app: Any, base_url: str, **options: Any) -> httpx.Client:
    """A client of ``app`` that behaves as Starlette's TestClient with
    ``raise_server_exceptions=False`` (redirects followed, cookies kept); close it after."""
    return httpx.Client(
        transport=InLoopTransport(app), base_url=base_url, follow_redirects=True, **options
    )


class InLoopAdapter(requests.adapters.HTTPAdapter):
    """A ``requests`` adapter answering from an ASGI app on a private event loop run only
    while a request is answered: for clients built on ``requests`` (schemathesis), which would
    otherwise cross to a loop thread for every ASGI message. The scope is built from the
    prepared request as is (no URL re-parsing: fuzzed URLs may be longer than httpx allows);
    an exception in the app reaches the caller, as with schemathesis's own ASGI client."""

    def __init__(self, app: Any) -> None:
        super().__init__()
        self._app = app
        self._loop = asyncio.new_event_loop()
        self._pending: asyncio.Queue[tuple[dict[str, Any], bytes, asyncio.Future[Any]]]
        self._pending = asyncio.Queue()
        # one long-lived task, for the reason given in InLoopTransport
        self._server = self._loop.create_task(self._serve())

    async def _serve(self) -> None:
        while True:
            scope, body, answer = await self._pending.get()
            try:
                answer.set_result(await self._answer(scope, body))
            except Exception as exc:
                answer.set_exception(exc)

    async def _answer(self, scope: dict[str, Any], body: bytes) -> tuple[int, list[Any], bytes]:
        started: list[Any] = []
        chunks: list[bytes] = []
        sent = False
        complete = asyncio.Event()

        async def receive() -> dict[str, Any]:
            nonlocal sent
            if sent:  # the client goes only once the answer is complete
                await complete.wait()
                return {"type": "http.disconnect"}
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                started.extend((message["status"], message.get("headers", [])))
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))
                if not message.get("more_body", False):
                    complete.set()

        await self._app(scope, receive, send)
        return started[0], started[1], b"".join(chunks)

    def send(
        self, request: requests.PreparedRequest, *args: Any, **kwargs: Any
    ) -> requests.Response:
        parts = urlsplit(str(request.url))
        port = parts.port or {"http": 80, "https": 443}[parts.scheme]
        headers = [] if "host" in request.headers else [(b"host", parts.netloc.encode())]
        # headers travel as latin-1 octets, as a real server would receive them
        headers += [
            (name.lower().encode("latin-1"), value.encode("latin-1"))
            for name, value in request.headers.items()
        ]
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": request.method,
            "path": unquote(parts.path),
            "raw_path": parts.path.encode(),
            "root_path": "",
            "scheme": parts.scheme,
            "query_string": parts.query.encode(),
            "headers": headers,
            "client": ("testclient", 50000),
            "server": (parts.hostname or "", port),
        }
        body = request.body
        if isinstance(body, str):
            body = body.encode("utf-8")
        answer: asyncio.Future[tuple[int, list[Any], bytes]] = self._loop.create_future()
        self._pending.put_nowait((scope, body or b"", answer))
        status, raw_headers, content = self._loop.run_until_complete(answer)
        raw = urllib3.HTTPResponse(
            body=io.BytesIO(b"" if request.method == "HEAD" else content),
            headers=[
                (name.decode("latin-1"), value.decode("latin-1")) for name, value in raw_headers
            ],
            status=status,
            reason=_reason_phrase(status),
            version=11,
            preload_content=False,
            request_method=request.method,
        )
        return self.build_response(request, raw)

    def close(self) -> None:
        _stop_loop(self._loop, self._server)


def _stop_loop(loop: asyncio.AbstractEventLoop, server: asyncio.Future[Any]) -> None:
    """Stop the task serving the app on ``loop``, then close the loop (once)."""
    if loop.is_closed():
        return
    server.cancel()
    loop.run_until_complete(asyncio.gather(server, return_exceptions=True))
    loop.run_until_complete(loop.shutdown_asyncgens())
    loop.close()


def _reason_phrase(status: int) -> str:
    try:
        return http.HTTPStatus(status).phrase
    except ValueError:
        return ""
