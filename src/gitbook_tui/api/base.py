"""The client's request engine: transport, retries, rate limits, cache read modes, parsing."""

from __future__ import annotations

import asyncio
import email.utils
import json
import logging
import random
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal, TypeVar
from urllib.parse import urlencode

import httpx
from pydantic import BaseModel, TypeAdapter, ValidationError

from ..cache import ResponseCache, account_fingerprint, entry_key
from .errors import (
    APIConnectionError,
    APIStatusError,
    APITimeoutError,
    GitBookError,
    RateLimitError,
    ResponseValidationError,
    error_for_status,
)

log = logging.getLogger("gitbook_tui.api")

ReadMode = Literal["network", "prefer-cache", "cache-only"]
M = TypeVar("M")

QueryItems = list[tuple[str, str | int | float | bool | None]]

IDEMPOTENT = frozenset({"GET", "HEAD", "PUT", "DELETE", "OPTIONS"})
RETRY_STATUSES = frozenset({408, 429, 500, 502, 503, 504})
MAX_WAIT = 120.0
DEFAULT_TIMEOUT = httpx.Timeout(30.0, connect=5.0)


class CacheMissError(GitBookError):
    """``cache-only`` was asked for something the cache does not hold."""

    def __init__(self, path: str) -> None:
        super().__init__(f"Not in the cache: {path}")
        self.path = path


@dataclass
class ResponseMeta:
    """Where an answer came from. ``refresh`` (prefer-cache) resolves to the fresh value,
    or ``None`` when the server confirmed the cached one."""

    source: Literal["network", "cache"]
    age: float = 0.0
    stale: bool = False
    offline: bool = False
    refresh: asyncio.Task[Any] | None = None


@dataclass
class RateLimitInfo:
    limit: int | None = None
    remaining: int | None = None
    reset: datetime | None = None


def response_meta(value: object) -> ResponseMeta | None:
    """The :class:`ResponseMeta` of a value the client returned (None if unknown)."""
    meta = getattr(value, "_response_meta", None)
    return meta if isinstance(meta, ResponseMeta) else None


def _reset_time(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        number = float(value)
    except ValueError:
        return None
    # Epoch seconds, or (small numbers) seconds from now.
    stamp = number if number > 1e9 else time.time() + number
    return datetime.fromtimestamp(stamp, UTC)


def _retry_after(value: str | None) -> float | None:
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        parsed = email.utils.parsedate_to_datetime(value) if value else None
        if parsed is None:
            return None
        return max(0.0, (parsed - datetime.now(UTC)).total_seconds())


def _message(response: httpx.Response) -> str:
    try:
        body = response.json()
        message = body.get("error", {}).get("message") if isinstance(body, dict) else None
    except (json.JSONDecodeError, UnicodeDecodeError, AttributeError):
        message = None
    return str(message) if message else (response.reason_phrase or "Error")


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


class BaseClient:
    """Sends requests with retries and rate-limit handling, and serves reads from the cache."""

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
        self._sleep = sleep
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
        attempt = 0
        url = path.lstrip("/")
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
                error = APITimeoutError(method, path)
            except httpx.TransportError as exc:
                sent = not isinstance(exc, httpx.ConnectError)
                error = APIConnectionError(method, path)
            else:
                self._record_rate_limit(response)
                status = response.status_code
                if status < 400:
                    log.debug("%s %s -> %s", method, path, status)
                    return response
                retryable = status in RETRY_STATUSES and method in IDEMPOTENT
                if status == 429 or (retryable and status == 503):
                    wait = self._server_wait(response)
                    if wait is not None and wait > MAX_WAIT:
                        raise self._status_error(response, method, path) from None
                else:
                    wait = None
                if retryable and attempt < self.max_retries:
                    await self._sleep(wait if wait is not None else self._backoff(attempt))
                    attempt += 1
                    continue
                raise self._status_error(response, method, path) from None
            log.debug("%s %s failed: %s", method, path, type(error).__name__)
            if attempt < self.max_retries and (method in IDEMPOTENT or not sent):
                await self._sleep(self._backoff(attempt))
                attempt += 1
                continue
            raise error from None

    @staticmethod
    def _backoff(attempt: int) -> float:
        return min(8.0, 0.5 * 2**attempt) * random.uniform(0.8, 1.0)

    @staticmethod
    def _server_wait(response: httpx.Response) -> float | None:
        after = _retry_after(response.headers.get("retry-after"))
        if after is not None:
            return after
        reset = _reset_time(response.headers.get("x-ratelimit-reset"))
        if reset is not None:
            return max(0.0, (reset - datetime.now(UTC)).total_seconds())
        return None

    def _record_rate_limit(self, response: httpx.Response) -> None:
        headers = response.headers
        if "x-ratelimit-limit" in headers:
            try:
                self.rate_limit.limit = int(headers["x-ratelimit-limit"])
                self.rate_limit.remaining = int(headers.get("x-ratelimit-remaining", "0"))
            except ValueError:
                pass
            self.rate_limit.reset = _reset_time(headers.get("x-ratelimit-reset"))

    def _status_error(self, response: httpx.Response, method: str, path: str) -> APIStatusError:
        cls = error_for_status(response.status_code)
        message = _message(response)
        if cls is RateLimitError:
            wait = self._server_wait(response)
            reset = datetime.fromtimestamp(time.time() + wait, UTC) if wait is not None else None
            return RateLimitError(response.status_code, message, method, path, reset_at=reset)
        return cls(response.status_code, message, method, path)

    # -- reads --------------------------------------------------------------------------
    async def get(
        self,
        path: str,
        cast_to: Any,
        *,
        params: dict[str, Any] | None = None,
        read: ReadMode | None = None,
        operation: str = "",
    ) -> Any:
        """GET ``path`` and parse it as ``cast_to`` (a pydantic model or type)."""
        mode = read or self.read_mode
        prepared = _Prepared(path, _params(params))
        operation = operation or f"GET {path}"
        key = entry_key(self._account, "GET", path, prepared.query)
        cached = self.cache.get(key) if self.cache is not None else None
        if mode == "cache-only":
            if cached is None:
                raise CacheMissError(path)
            return self._parse(
                cast_to, cached.body, operation, ResponseMeta("cache", cached.age, stale=True)
            )
        if mode == "prefer-cache" and cached is not None:
            task = asyncio.create_task(
                self._revalidate(prepared, key, cached.etag, cast_to, operation)
            )
            self._background.add(task)
            task.add_done_callback(self._background.discard)
            meta = ResponseMeta("cache", cached.age, stale=True, refresh=task)
            return self._parse(cast_to, cached.body, operation, meta)
        try:
            body, fresh = await self._fetch(prepared, key, cached.etag if cached else None)
        except APIConnectionError:
            if cached is None:
                raise
            meta = ResponseMeta("cache", cached.age, stale=True, offline=True)
            return self._parse(cast_to, cached.body, operation, meta)
        if not fresh and cached is not None:
            body = cached.body
        return self._parse(cast_to, body, operation, ResponseMeta("network"))

    async def _fetch(self, prepared: _Prepared, key: str, etag: str | None) -> tuple[bytes, bool]:
        """(body, True) for a new answer, (b"", False) when the server said 304."""
        headers = {"If-None-Match": etag} if etag else None
        response = await self._send("GET", prepared.path, params=prepared.params, headers=headers)
        if response.status_code == 304:
            if self.cache is not None:
                self.cache.touch(key)
            return b"", False
        body = response.content
        if self.cache is not None:
            self.cache.put(key, self._account, prepared.path, body, response.headers.get("etag"))
        return body, True

    async def _revalidate(
        self, prepared: _Prepared, key: str, etag: str | None, cast_to: Any, operation: str
    ) -> Any:
        body, fresh = await self._fetch(prepared, key, etag)
        if not fresh:
            return None
        return self._parse(cast_to, body, operation, ResponseMeta("network"))

    def _parse(self, cast_to: Any, body: bytes, operation: str, meta: ResponseMeta) -> Any:
        try:
            data = json.loads(body) if body else None
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise ResponseValidationError(operation, "(body)", f"is not JSON: {exc}") from None
        if cast_to is None:
            return data
        try:
            if isinstance(cast_to, type) and issubclass(cast_to, BaseModel):
                value = cast_to.model_validate(data)
            else:
                value = TypeAdapter(cast_to).validate_python(data)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first.get("loc", ())) or "(body)"
            raise ResponseValidationError(operation, where, str(first.get("msg"))) from None
        if isinstance(value, BaseModel):
            value._response_meta = meta  # type: ignore[attr-defined]
        return value

    # -- writes -------------------------------------------------------------------------
    async def send(
        self,
        method: str,
        path: str,
        cast_to: Any = None,
        *,
        body: Any = None,
        params: dict[str, Any] | None = None,
        invalidates: Iterable[str] = (),
        operation: str = "",
    ) -> Any:
        """A mutation; on success the cached reads it affects are dropped: the resource
        itself, everything under it, the list it belongs to, and ``invalidates`` prefixes."""
        response = await self._send(method, path, params=_params(params), body=body)
        if self.cache is not None:
            parent = path.rsplit("/", 1)[0]
            self.cache.invalidate(self._account, [parent], [path, *invalidates])
        if cast_to is None or response.status_code in (204, 205) or not response.content:
            return None
        return self._parse(
            cast_to, response.content, operation or f"{method} {path}", ResponseMeta("network")
        )
