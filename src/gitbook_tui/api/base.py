"""The client's request engine: transport, retries, rate limits, cache read modes, parsing."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import urlencode

import httpx

from ..cache import ResponseCache, account_fingerprint, entry_key
from .errors import (
    APIConnectionError,
    APITimeoutError,
    CacheMissError,
    NotFoundError,
    ResponseValidationError,
    reset_time,
    server_wait,
    status_error,
)
from .meta import RateLimitInfo, ResponseMeta, attach_meta, response_meta
from .parsing import parse_body
from .paths import checked_path
from .waits import RetryWait, RetryWaits, WaitListener, WaitReason

__all__ = [
    "BaseClient",
    "CacheMissError",
    "RateLimitInfo",
    "ReadMode",
    "ResponseMeta",
    "RetryWait",
    "response_meta",
]

log = logging.getLogger("gitbook_tui.api")

ReadMode = Literal["network", "prefer-cache", "cache-only"]
QueryItems = list[tuple[str, str | int | float | bool | None]]

IDEMPOTENT = frozenset({"GET", "HEAD", "PUT", "DELETE", "OPTIONS"})
MAX_WAIT = 120.0  # longer server-requested waits are raised, not slept
MAX_BACKOFF = 8.0
DEFAULT_TIMEOUT = httpx.Timeout(30.0, connect=5.0)


def retryable_status(status: int) -> bool:
    """408, 429 and every 5xx are worth another try (for requests that may be repeated)."""
    return status in (408, 429) or 500 <= status <= 599


@dataclass
class _Prepared:
    path: str
    params: QueryItems = field(default_factory=list)

    @property
    def query(self) -> str:
        return urlencode(sorted((k, str(v)) for k, v in self.params))


def _params(params: dict[str, Any] | None) -> QueryItems:
    items: QueryItems = []
    for key, value in (params or {}).items():
        if value is None:
            continue
        values = value if isinstance(value, list | tuple) else [value]
        for v in values:
            items.append((key, ("true" if v else "false") if isinstance(v, bool) else str(v)))
    return items


def _norm(path: str) -> str:
    return "/" + path.lstrip("/")


def _consume(task: asyncio.Task[Any]) -> None:
    """Mark a background task's failure as seen (whoever awaits it still gets it)."""
    if not task.cancelled():
        task.exception()


class BaseClient:
    """Sends requests with retries and rate-limit handling, and serves reads from the cache.

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
        cache: ResponseCache | None = None,
        read_mode: ReadMode = "network",
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.max_retries = max_retries
        self.cache = cache
        self.read_mode: ReadMode = read_mode
        self.rate_limit = RateLimitInfo()
        self._waits = RetryWaits(sleep)
        self._answer_listeners: list[Callable[[], None]] = []
        self._secret = token or ""
        self._account = account_fingerprint(self.base_url, token)
        self._background: set[asyncio.Task[Any]] = set()
        headers = {"Accept": "*/*", "User-Agent": "gitbook-tui"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self._http = httpx.AsyncClient(
            base_url=self.base_url + "/",
            transport=transport,
            timeout=timeout if timeout is not None else DEFAULT_TIMEOUT,
            headers=headers,
        )

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

    def _answered(self) -> None:
        for listener in list(self._answer_listeners):
            try:
                listener()
            except Exception:  # a listener's bug never fails the request
                log.exception("answer listener failed")

    async def close(self) -> None:
        for task in list(self._background):
            task.cancel()
        await self._http.aclose()

    async def __aenter__(self) -> BaseClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- sending ------------------------------------------------------------------------
    async def _send(
        self,
        method: str,
        path: str,
        *,
        params: QueryItems | None = None,
        body: Any = None,
        headers: dict[str, str] | None = None,
    ) -> httpx.Response:
        """One request with retries: idempotent methods (and requests that never left)
        on 408/429/5xx and connection errors, honouring the server's wait up to 120 s."""
        attempt = 0
        url = path.lstrip("/")
        idempotent = method in IDEMPOTENT
        while True:
            error: APIConnectionError
            try:
                response = await self._http.request(
                    method,
                    url,
                    params=httpx.QueryParams(params) if params else None,
                    json=body,
                    headers=headers,
                )
            except httpx.TimeoutException as exc:
                sent = not isinstance(exc, httpx.ConnectTimeout | httpx.PoolTimeout)
                error = APITimeoutError(method, path, self._redact(type(exc).__name__))
            except httpx.TransportError as exc:
                sent = not isinstance(exc, httpx.ConnectError)
                error = APIConnectionError(method, path, detail=self._redact(str(exc)))
            else:
                self._record_rate_limit(response)
                status = response.status_code
                if status < 400:
                    self._answered()
                log.debug("%s %s -> %s (attempt %d)", method, path, status, attempt + 1)
                if status < 400:
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

    # -- reads --------------------------------------------------------------------------
    async def get(
        self,
        path: str,
        cast_to: Any,
        *,
        params: dict[str, Any] | None = None,
        read: ReadMode | None = None,
        operation: str = "",
        on_body: Callable[[bytes], None] | None = None,
    ) -> Any:
        """GET ``path`` and parse it as ``cast_to`` (a pydantic model or type).

        ``read``: ``network`` (the cache only revalidates and covers for an unreachable
        server), ``prefer-cache`` (a cached answer at once, refreshed in the background),
        ``cache-only`` (:class:`CacheMissError` when absent).
        ``on_body``: called with the body of a server answer (new, or a cached one the
        server confirmed) just before it is parsed (a pager starts the next page then)."""
        mode = read or self.read_mode
        path = checked_path(path)
        prepared = _Prepared(path, _params(params))
        operation = operation or f"GET {path}"
        key = entry_key(self._account, "GET", path, prepared.query)
        cached = self.cache.get(key) if self.cache is not None else None
        if mode == "cache-only":
            if cached is None:
                raise CacheMissError(path)
            meta = ResponseMeta("cache", cached.age, stale=True)
            try:
                return self._parse(cast_to, cached.body, operation, meta)
            except ResponseValidationError:
                self._drop(key, path)  # unreadable: as good as absent
                raise CacheMissError(path) from None
        if mode == "prefer-cache" and cached is not None:
            try:
                value = self._parse(cast_to, cached.body, operation, ResponseMeta("cache"))
            except ResponseValidationError:
                self._drop(key, path)
                cached = None  # read it again, without If-None-Match
            else:
                task = asyncio.create_task(
                    self._revalidate(prepared, key, cached.etag, cast_to, operation)
                )
                self._background.add(task)
                task.add_done_callback(self._background.discard)
                task.add_done_callback(_consume)
                meta = ResponseMeta("cache", cached.age, stale=True, refresh=task)
                return attach_meta(value, meta)
        try:
            body, fresh = await self._fetch(prepared, key, cached.etag if cached else None)
        except APIConnectionError as unreachable:
            if cached is None:
                raise
            log.debug("GET %s: server unreachable, answering from the cache", path)
            meta = ResponseMeta("cache", cached.age, stale=True, offline=True)
            try:
                return self._parse(cast_to, cached.body, operation, meta)
            except ResponseValidationError:
                self._drop(key, path)
                raise unreachable from None  # nothing readable to show instead
        if not fresh and cached is not None:
            if on_body is not None:
                on_body(cached.body)
            try:
                return self._parse(cast_to, cached.body, operation, ResponseMeta("network"))
            except ResponseValidationError:
                # The server confirmed a body we cannot read (stored damaged, or by models
                # that read it differently): a 304 would only confirm it again, so ask anew.
                self._drop(key, path)
                body, fresh = await self._fetch(prepared, key, None)
        if on_body is not None:
            on_body(body)
        return self._parse_fresh(cast_to, body, operation, key, path)

    def _drop(self, key: str, path: str) -> None:
        """Forget a cached answer that cannot be read."""
        log.debug("GET %s: the cached answer is unreadable; dropping it", path)
        if self.cache is not None:
            self.cache.delete(key)

    def _parse_fresh(self, cast_to: Any, body: bytes, operation: str, key: str, path: str) -> Any:
        """Parse a body the server just sent; an unreadable one is not kept in the cache
        (so the next read asks for a full answer instead of revalidating this one)."""
        try:
            return self._parse(cast_to, body, operation, ResponseMeta("network"))
        except ResponseValidationError:
            self._drop(key, path)
            raise

    async def _fetch(self, prepared: _Prepared, key: str, etag: str | None) -> tuple[bytes, bool]:
        """(body, True) for a new answer, (b"", False) when the server said 304."""
        headers = {"If-None-Match": etag} if etag else None
        try:
            response = await self._send(
                "GET", prepared.path, params=prepared.params, headers=headers
            )
        except NotFoundError:
            if self.cache is not None:
                self.cache.delete(key)
            raise
        if response.status_code == 304:
            if self.cache is not None:
                self.cache.touch(key)
            return b"", False
        body = response.content
        storable = "no-store" not in response.headers.get("cache-control", "").lower()
        if self.cache is not None and storable:
            self.cache.put(key, self._account, prepared.path, body, response.headers.get("etag"))
        return body, True

    async def _revalidate(
        self, prepared: _Prepared, key: str, etag: str | None, cast_to: Any, operation: str
    ) -> Any:
        body, fresh = await self._fetch(prepared, key, etag)
        if not fresh:
            return None
        return self._parse_fresh(cast_to, body, operation, key, prepared.path)

    def _parse(self, cast_to: Any, body: bytes, operation: str, meta: ResponseMeta) -> Any:
        return attach_meta(parse_body(cast_to, body, operation), meta)

    # -- writes -------------------------------------------------------------------------
    async def send(
        self,
        method: str,
        path: str,
        cast_to: Any = None,
        *,
        body: Any = None,
        params: dict[str, Any] | None = None,
        invalidates: Iterable[str] | None = (),
        refreshes: Iterable[str] = (),
        operation: str = "",
    ) -> Any:
        """A mutation; on success the cached reads it affects are dropped: the resource
        itself, everything under it, the list it belongs to, and ``invalidates`` prefixes.
        ``refreshes`` are single resources (exact paths) whose JSON the change makes stale,
        such as a space whose comment counts moved.
        ``invalidates=None`` marks a POST that changes nothing (a render): nothing is dropped."""
        path = checked_path(path)
        method = method.upper()
        response = await self._send(method, path, params=_params(params), body=body)
        if self.cache is not None and invalidates is not None:
            parent = path.rsplit("/", 1)[0] or "/"
            prefixes = [path, *(_norm(p) for p in invalidates)]
            exact = [parent, *(_norm(p) for p in refreshes)]
            self.cache.invalidate(self._account, exact, prefixes)
        if cast_to is None or response.status_code in (204, 205) or not response.content:
            return None
        return self._parse(
            cast_to, response.content, operation or f"{method} {path}", ResponseMeta("network")
        )
