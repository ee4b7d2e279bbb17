"""Sending requests: the HTTP connection, retries with observable waits, rate-limit headers."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Awaitable, Callable
from typing import Any

import httpx

from .errors import (
    APIConnectionError,
    APITimeoutError,
    reset_time,
    server_wait,
    status_error,
)
from .meta import RateLimitInfo
from .waits import RetryWait, RetryWaits, WaitListener, WaitReason

__all__ = ["DEFAULT_TIMEOUT", "QueryItems", "Sender", "retryable_status"]

log = logging.getLogger("gitbook_tui.api")

QueryItems = list[tuple[str, str | int | float | bool | None]]

IDEMPOTENT = frozenset({"GET", "HEAD", "PUT", "DELETE", "OPTIONS"})
MAX_WAIT = 120.0  # longer server-requested waits are raised, not slept
MAX_BACKOFF = 8.0
DEFAULT_TIMEOUT = httpx.Timeout(30.0, connect=5.0)


def retryable_status(status: int) -> bool:
    """408, 429 and every 5xx are worth another try (for requests that may be repeated)."""
    return status in (408, 429) or 500 <= status <= 599


def _sent_trace(on_sent: Callable[[], None]) -> dict[str, Any]:
    """Request extensions calling ``on_sent`` when httpcore reports the request written."""

    async def trace(event: str, info: dict[str, Any]) -> None:
        if event.endswith("send_request_body.complete"):
            on_sent()

    return {"trace": trace}


class Sender:
    """Sends requests with retries and rate-limit handling.

    Retries of idempotent requests wait first (the server's ``Retry-After`` /
    ``X-RateLimit-Reset`` up to 120 s, else a short backoff). Those waits are observable:
    :attr:`retry_wait` is the wait under way that ends last (a :class:`RetryWait` whose
    ``describe()`` reads "rate-limited, retrying in 23 s"), and :meth:`watch_retry_waits`
    calls a listener whenever one starts or ends. Cancelling the task awaiting a request
    ends its wait at once."""

    def __init__(
        self,
        *,
        base_url: str,
        token: str | None,
        transport: httpx.AsyncBaseTransport | None = None,
        timeout: httpx.Timeout | float | None = None,
        max_retries: int = 2,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.max_retries = max_retries
        self.rate_limit = RateLimitInfo()
        self._waits = RetryWaits(sleep)
        self._answer_listeners: list[Callable[[], None]] = []
        self._reach_listeners: list[Callable[[bool], None]] = []
        self.reachable: bool | None = None
        """Whether the last request reached the server (any HTTP answer) or failed to
        (a connection error or time-out); ``None`` before the first request ends."""
        self._secret = token or ""
        headers = {"Accept": "*/*", "User-Agent": "gitbook-tui"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self._http = _HTTPClient(
            base_url=self.base_url + "/",
            transport=transport,
            timeout=timeout if timeout is not None else DEFAULT_TIMEOUT,
            headers=headers,
        )
        self._prefix = str(self._http.base_url)
        self._timeout = self._http.timeout.as_dict()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(base_url={self.base_url!r})"

    @property
    def timeout(self) -> httpx.Timeout:
        return self._http.timeout

    @property
    def retry_wait(self) -> RetryWait | None:
        """The retry wait under way that ends last (``None`` when no request waits): poll it
        for a countdown, e.g. ``wait.describe()`` -> "rate-limited, retrying in 23 s"."""
        return self._waits.current

    @property
    def retry_waits(self) -> tuple[RetryWait, ...]:
        """Every retry wait under way (concurrent requests wait independently)."""
        return self._waits.active

    def watch_retry_waits(self, listener: WaitListener) -> Callable[[], None]:
        """Call ``listener(retry_wait)`` whenever a wait starts or ends (``None``: no request
        waits any more); returns the function that unsubscribes it."""
        return self._waits.watch(listener)

    def watch_answers(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Call ``listener()`` whenever a request succeeds (the server is reachable and
        serving); returns the function that unsubscribes it. Keep it cheap."""
        self._answer_listeners.append(listener)
        return lambda: self._answer_listeners.remove(listener)

    def watch_reachability(self, listener: Callable[[bool], None]) -> Callable[[], None]:
        """Call ``listener(reached)`` after every attempt: ``True`` when the server answered
        (whatever the status), ``False`` at once when it could not be reached (before any
        retry); returns the function that unsubscribes it. Keep it cheap."""
        self._reach_listeners.append(listener)
        return lambda: self._reach_listeners.remove(listener)

    def _reached(self, reached: bool) -> None:
        self.reachable = reached
        for listener in list(self._reach_listeners):
            try:
                listener(reached)
            except Exception:  # a listener's bug never fails the request
                log.exception("reachability listener failed")

    def _answered(self) -> None:
        for listener in list(self._answer_listeners):
            try:
                listener()
            except Exception:  # a listener's bug never fails the request
                log.exception("answer listener failed")

    async def close(self) -> None:
        await self._http.aclose()

    # -- sending --------------------------------------------------------------------------
    async def _send(
        self,
        method: str,
        path: str,
        *,
        params: QueryItems | None = None,
        body: Any = None,
        headers: dict[str, str] | None = None,
        on_sent: Callable[[], None] | None = None,
    ) -> httpx.Response:
        """One request with retries: idempotent methods (and requests that never left)
        on 408/429/5xx and connection errors, honouring the server's wait up to 120 s.
        ``on_sent`` is called once the request has been written to the connection (where
        the transport reports it: httpcore's ``trace`` extension)."""
        attempt = 0
        url = path.lstrip("/")
        idempotent = method in IDEMPOTENT
        extensions = _sent_trace(on_sent) if on_sent is not None else None
        while True:
            error: APIConnectionError
            try:
                request = self._request(method, url, params, body, headers, extensions)
                response = await self._http.send(request)
            except httpx.TimeoutException as exc:
                sent = not isinstance(exc, httpx.ConnectTimeout | httpx.PoolTimeout)
                error = APITimeoutError(method, path, self._redact(type(exc).__name__))
                self._reached(False)
            except httpx.TransportError as exc:
                sent = not isinstance(exc, httpx.ConnectError)
                error = APIConnectionError(method, path, detail=self._redact(str(exc)))
                self._reached(False)
            else:
                _unbind(response)
                self._reached(True)
                self._record_rate_limit(response)
                status = response.status_code
                log.debug("%s %s -> %s (attempt %d)", method, path, status, attempt + 1)
                if status < 400:
                    self._answered()
                    return response
                retry = idempotent and retryable_status(status)
                if retry and attempt < self.max_retries:
                    wait = server_wait(response.headers, use_reset=status == 429)
                    if wait is None:
                        wait = self._backoff(attempt)
                    elif wait > MAX_WAIT:
                        raise status_error(response, method, path, self._redact) from None
                    reason: WaitReason = "rate-limited" if status == 429 else "server-error"
                    await self._waits.wait(
                        wait,
                        reason=reason,
                        method=method,
                        path=path,
                        status=status,
                        attempt=attempt + 1,
                    )
                    attempt += 1
                    continue
                raise status_error(response, method, path, self._redact) from None
            log.debug("%s %s failed: %s (attempt %d)", method, path, error, attempt + 1)
            if attempt < self.max_retries and (idempotent or not sent):
                await self._waits.wait(
                    self._backoff(attempt),
                    reason="unreachable",
                    method=method,
                    path=path,
                    status=None,
                    attempt=attempt + 1,
                )
                attempt += 1
                continue
            raise error from None

    def _request(
        self,
        method: str,
        url: str,
        params: QueryItems | None,
        body: Any,
        headers: dict[str, str] | None,
        extensions: dict[str, Any] | None,
    ) -> httpx.Request:
        """The request ``self._http.request(…)`` would send, built with one parse of its URL
        (``request()`` parses the path, joins it to the base URL, then adds the query: three
        parses, a third of the client's time per request in process). ``url``: relative to
        the base URL, without a query (:func:`checked_path` refuses ``?``)."""
        query = f"?{httpx.QueryParams(params)}" if params else ""
        sent_headers = self._http.headers
        if headers:
            sent_headers = sent_headers.copy()
            sent_headers.update(headers)
        request = httpx.Request(
            method,
            httpx.URL(self._prefix + url + query),
            json=body,
            headers=sent_headers,
            extensions={"timeout": self._timeout, **(extensions or {})},
        )
        if self._http.cookies:  # as request() does: the cookies the server set are sent
            self._http.cookies.set_cookie_header(request)
        return request

    @staticmethod
    def _backoff(attempt: int) -> float:
        """0.5·2ⁿ seconds, at most 8, with jitter (a random 80–100 %)."""
        return min(MAX_BACKOFF, 0.5 * 2**attempt) * random.uniform(0.8, 1.0)

    def _record_rate_limit(self, response: httpx.Response) -> None:
        headers = response.headers
        for name, attr in (("x-ratelimit-limit", "limit"), ("x-ratelimit-remaining", "remaining")):
            if name in headers:
                with contextlib.suppress(ValueError):
                    setattr(self.rate_limit, attr, int(float(headers[name])))
        if "x-ratelimit-reset" in headers:
            self.rate_limit.reset = reset_time(headers["x-ratelimit-reset"])

    def _redact(self, text: str) -> str:
        return text.replace(self._secret, "[token]") if self._secret else text


class _AnswerCookies(httpx.Cookies):
    def extract_cookies(self, response: httpx.Response) -> None:
        # httpx looks for cookies in every answer through urllib's cookie jar, which first
        # makes a urllib request of it: ~15 % of the client's time per request in process
        if "set-cookie" in response.headers:
            super().extract_cookies(response)


class _HTTPClient(httpx.AsyncClient):
    """httpx's client, whose cookie jar reads only the answers that set cookies (the same
    cookies are kept and sent)."""

    def __init__(self, **options: Any) -> None:
        cookies = options.pop("cookies", None)
        super().__init__(**options)
        self._answer_cookies = _AnswerCookies(cookies)

    @property
    def cookies(self) -> httpx.Cookies:
        return self._answer_cookies

    @cookies.setter
    def cookies(self, cookies: Any) -> None:
        self._answer_cookies = _AnswerCookies(cookies)


def _unbind(response: httpx.Response) -> None:
    """httpx binds an answer and its stream to each other, a reference cycle: each body lived
    until the cyclic collector's next full pass (a blame reading a 1 MB page at 40 revisions
    held ~50 MB of them). The body is read in full by now; a plain stream over it ends the
    cycle, so the body goes with the last reference to the answer."""
    response.stream = httpx.ByteStream(response.content)
